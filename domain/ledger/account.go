package ledger

import (
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
)

// AccountKind says what an account is for and whether it may go negative.
type AccountKind string

// The account kinds. WALLET and ESCROW accounts have a Ref naming their owner;
// the others are singletons with Ref "".
const (
	// Wallet is a player's balance; never negative.
	Wallet AccountKind = "WALLET"
	// Cash mirrors money outside the system (deposits, withdrawals); may go negative.
	Cash AccountKind = "CASH"
	// Organiser holds the organiser's revenue; may go negative (it funds minus-pool top-ups).
	Organiser AccountKind = "ORGANISER"
	// Jackpot is the jackpot fund; never negative.
	Jackpot AccountKind = "JACKPOT"
	// Escrow holds the stakes of one pool until it is settled; never negative.
	Escrow AccountKind = "ESCROW"
	// House is the Casino Hold'em bank; may go negative (the house can lose).
	House AccountKind = "HOUSE"
)

// Valid reports whether k is one of the known account kinds.
func (k AccountKind) Valid() bool {
	switch k {
	case Wallet, Cash, Organiser, Jackpot, Escrow, House:
		return true
	}
	return false
}

// MayGoNegative reports whether accounts of this kind may hold a negative
// balance. Only CASH, ORGANISER and HOUSE may: they stand for money outside
// the players' pockets (the outside world, the operator, the bank).
func (k AccountKind) MayGoNegative() bool {
	return k == Cash || k == Organiser || k == House
}

// singleton reports whether the kind has exactly one account (Ref "").
func (k AccountKind) singleton() bool { return k != Wallet && k != Escrow }

// MaxRefLen bounds the length of AccountRef.Ref.
const MaxRefLen = 128

// AccountRef names one account: a kind and, for per-owner kinds, a reference
// such as "user:42" or "pool:<draw>:<round>:<market>".
type AccountRef struct {
	Kind AccountKind
	Ref  string
}

// The singleton accounts.
var (
	CashAccount      = AccountRef{Kind: Cash}
	OrganiserAccount = AccountRef{Kind: Organiser}
	JackpotAccount   = AccountRef{Kind: Jackpot}
	HouseAccount     = AccountRef{Kind: House}
)

// userRefPrefix starts the Ref of every user's wallet.
const userRefPrefix = "user:"

// UserWallet is the wallet of user id ({WALLET, "user:<id>"}).
func UserWallet(id ids.UserID) AccountRef {
	return AccountRef{Kind: Wallet, Ref: userRefPrefix + id.String()}
}

// User is the owner of a wallet named by UserWallet; it reports false for
// any other account (another kind, or a Ref that is not "user:<positive
// id>").
func (a AccountRef) User() (ids.UserID, bool) {
	rest, ok := strings.CutPrefix(a.Ref, userRefPrefix)
	if a.Kind != Wallet || !ok {
		return 0, false
	}
	return ids.ParseUserID(rest)
}

// EscrowOf is the escrow account of one pool; pool is the pool's key, for
// example "<draw>:<round>:<market>" (the account's Ref is "pool:"+pool).
func EscrowOf(pool string) AccountRef {
	return AccountRef{Kind: Escrow, Ref: "pool:" + pool}
}

// String renders the account as "KIND" or "KIND:ref".
func (a AccountRef) String() string {
	if a.Ref == "" {
		return string(a.Kind)
	}
	return string(a.Kind) + ":" + a.Ref
}

// Validate checks the kind is known, singletons have no Ref, per-owner kinds
// have one, and the Ref is at most MaxRefLen printable ASCII characters
// without spaces.
func (a AccountRef) Validate() error {
	if !a.Kind.Valid() {
		return errs.R(errs.Invalid, ReasonInvalidAccount, "unknown account kind %q", a.Kind)
	}
	if a.Kind.singleton() {
		if a.Ref != "" {
			return errs.R(errs.Invalid, ReasonInvalidAccount, "account %s takes no reference", a.Kind)
		}
		return nil
	}
	if a.Ref == "" || len(a.Ref) > MaxRefLen {
		return errs.R(errs.Invalid, ReasonInvalidAccount, "account %s needs a reference of 1 to %d characters", a.Kind, MaxRefLen)
	}
	for i := 0; i < len(a.Ref); i++ {
		if c := a.Ref[i]; c <= ' ' || c >= 0x7f {
			return errs.R(errs.Invalid, ReasonInvalidAccount, "account reference %q has a character other than printable ASCII", a.Ref)
		}
	}
	return nil
}

// less orders accounts by kind, then reference; it defines the canonical
// order of entries in RequestHash.
func (a AccountRef) less(b AccountRef) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	return a.Ref < b.Ref
}
