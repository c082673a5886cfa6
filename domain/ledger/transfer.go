package ledger

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// TransferKind says why money moved. It is part of the request hash and of
// every history line a player sees.
type TransferKind string

// The transfer kinds.
const (
	// Deposit records cash paid in at the cashier: CASH → WALLET.
	Deposit TransferKind = "DEPOSIT"
	// Withdrawal records cash paid out at the cashier: WALLET → CASH.
	Withdrawal TransferKind = "WITHDRAWAL"
	// BetStake moves a totalizator stake: WALLET → ESCROW.
	BetStake TransferKind = "BET_STAKE"
	// Payout pays winning bets: ESCROW (and ORGANISER, JACKPOT) → WALLET.
	Payout TransferKind = "PAYOUT"
	// Refund returns stakes of a void draw or of a pool nobody won: ESCROW → WALLET.
	Refund TransferKind = "REFUND"
	// Commission takes the organiser's commission: ESCROW → ORGANISER.
	Commission TransferKind = "COMMISSION"
	// Breakage gives the organiser what truncated coefficients left unpaid: ESCROW → ORGANISER.
	Breakage TransferKind = "BREAKAGE"
	// JackpotContribution feeds the jackpot from a pool: ESCROW → JACKPOT.
	JackpotContribution TransferKind = "JACKPOT"
	// JackpotTopUp is an admin's top-up of the jackpot: ORGANISER → JACKPOT.
	JackpotTopUp TransferKind = "JACKPOT_TOPUP"
	// JackpotRollover rolls an unclaimed express category fund into the jackpot: ESCROW → JACKPOT.
	JackpotRollover TransferKind = "JACKPOT_ROLLOVER"
	// TopUp is the organiser's payment of a minus-pool shortfall: ORGANISER → ESCROW.
	TopUp TransferKind = "TOPUP"
	// Settlement is one atomic transfer settling a whole pool (payouts,
	// commission, jackpot, breakage and top-up legs together).
	Settlement TransferKind = "SETTLEMENT"
	// HoldemStake moves a Casino Hold'em ante, bonus or bet: WALLET → HOUSE.
	HoldemStake TransferKind = "HOLDEM_STAKE"
	// HoldemPayout pays or returns a Casino Hold'em box: HOUSE → WALLET.
	HoldemPayout TransferKind = "HOLDEM_PAYOUT"
)

// Protection is what a transfer kind means to player protection
// (domain/protection): every kind declares one, so that a new kind cannot
// slip past the limits unclassified. The zero value is no class at all,
// and protection refuses a transfer whose kind has it.
type Protection int

// The protection classes.
const (
	// Unclassified is a kind's class when it declared none: refused.
	Unclassified Protection = iota
	// Internal moves money between the house's own accounts (organiser,
	// jackpot, escrow, cash) and never touches a wallet; one that does is
	// refused.
	Internal
	// PaidIn credits wallets with money paid in: deposit limits apply.
	PaidIn
	// PaidOut debits wallets with money paid out: no limit applies.
	PaidOut
	// Staked debits wallets with stakes: stake and loss limits apply.
	Staked
	// Returned credits wallets with what stakes brought back (payouts,
	// refunds): it counts against losses.
	Returned
)

// transferKinds is the registry of transfer kinds: each with its
// protection class. A kind is valid only here.
var transferKinds = map[TransferKind]Protection{
	Deposit:             PaidIn,
	Withdrawal:          PaidOut,
	BetStake:            Staked,
	Payout:              Returned,
	Refund:              Returned,
	Commission:          Internal,
	Breakage:            Internal,
	JackpotContribution: Internal,
	JackpotTopUp:        Internal,
	JackpotRollover:     Internal,
	TopUp:               Internal,
	Settlement:          Returned,
	HoldemStake:         Staked,
	HoldemPayout:        Returned,
}

// Valid reports whether k is a known transfer kind.
func (k TransferKind) Valid() bool {
	_, ok := transferKinds[k]
	return ok
}

// Protection is k's protection class; Unclassified for an unknown kind.
func (k TransferKind) Protection() Protection { return transferKinds[k] }

// TransferKinds lists every known kind, sorted.
func TransferKinds() []TransferKind {
	out := make([]TransferKind, 0, len(transferKinds))
	for k := range transferKinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Limits on a transfer. MaxEntries × MaxEntryAmount fits in int64, so no sum
// over one transfer can overflow.
const (
	MaxEntries     = 10_000
	MaxEntryAmount = money.Amount(100_000_000_000_000) // 1 trillion KZT
	MaxKeyLen      = 128
	MaxMemoLen     = 500
)

// Entry is one leg of a transfer: Amount is added to Account's balance
// (negative to take money out).
type Entry struct {
	Account AccountRef
	Amount  money.Amount
}

// Transfer is one balanced movement of money, posted atomically.
type Transfer struct {
	// IdempotencyKey identifies the request: retries carry the same key.
	IdempotencyKey string
	Kind           TransferKind
	// Memo is a short human-readable note shown in history ("bet #1234").
	Memo    string
	Entries []Entry
}

// Move is the common two-legged transfer of amount from one account to another.
func Move(key string, kind TransferKind, memo string, from, to AccountRef, amount money.Amount) Transfer {
	return Transfer{
		IdempotencyKey: key,
		Kind:           kind,
		Memo:           memo,
		Entries:        []Entry{{Account: from, Amount: -amount}, {Account: to, Amount: amount}},
	}
}

// Validate checks that the transfer can be posted: a printable key of at most
// MaxKeyLen bytes, a known kind, a memo of valid UTF-8 of at most MaxMemoLen
// bytes, 2 to MaxEntries entries on valid and distinct accounts, no zero
// entry, each entry at most MaxEntryAmount in size, and a zero sum. Entries
// on the same account must be combined first (see Combine) so that every
// entry has one well-defined balance-after.
func (t Transfer) Validate() error {
	invalid := func(format string, args ...any) error {
		return errs.R(errs.Invalid, ReasonInvalidTransfer, format, args...)
	}
	if t.IdempotencyKey == "" || len(t.IdempotencyKey) > MaxKeyLen {
		return invalid("idempotency key must have 1 to %d characters", MaxKeyLen)
	}
	if !printableASCII(t.IdempotencyKey) {
		return invalid("idempotency key must be printable ASCII")
	}
	if !t.Kind.Valid() {
		return invalid("unknown transfer kind %q", t.Kind)
	}
	if len(t.Memo) > MaxMemoLen || !utf8.ValidString(t.Memo) {
		return invalid("memo must be valid text of at most %d bytes", MaxMemoLen)
	}
	if len(t.Entries) < 2 || len(t.Entries) > MaxEntries {
		return invalid("a transfer needs 2 to %d entries, got %d", MaxEntries, len(t.Entries))
	}
	seen := make(map[AccountRef]struct{}, len(t.Entries))
	var sum money.Amount
	for _, e := range t.Entries {
		if err := e.Account.Validate(); err != nil {
			return err
		}
		if _, dup := seen[e.Account]; dup {
			return invalid("account %s appears twice in one transfer", e.Account)
		}
		seen[e.Account] = struct{}{}
		if e.Amount == 0 {
			return invalid("entry on %s is zero", e.Account)
		}
		if e.Amount > MaxEntryAmount || e.Amount < -MaxEntryAmount {
			return invalid("entry on %s exceeds the limit of %s", e.Account, MaxEntryAmount)
		}
		sum += e.Amount
	}
	if sum != 0 {
		return invalid("entries do not balance: they sum to %s", sum)
	}
	return nil
}

// Combine merges entries on the same account (keeping the order in which each
// account first appears) and drops those that net to zero. It helps callers
// that build a settlement leg by leg; it does not check amount limits.
func Combine(entries []Entry) []Entry {
	idx := make(map[AccountRef]int, len(entries))
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if i, ok := idx[e.Account]; ok {
			out[i].Amount += e.Amount
			continue
		}
		idx[e.Account] = len(out)
		out = append(out, e)
	}
	return slices.DeleteFunc(out, func(e Entry) bool { return e.Amount == 0 })
}

// RequestHash is the SHA-256 of a canonical encoding of the transfer's kind,
// memo and entries (sorted by account, so their order does not matter). Two
// posts with the same idempotency key are the same request exactly when their
// hashes are equal. The key itself is not hashed. The encoding is
// length-prefixed and versioned; it never changes for stored transfers.
func (t Transfer) RequestHash() [32]byte {
	entries := slices.Clone(t.Entries)
	slices.SortFunc(entries, func(a, b Entry) int {
		switch {
		case a.Account.less(b.Account):
			return -1
		case b.Account.less(a.Account):
			return 1
		}
		return 0
	})
	h := sha256.New()
	var buf [8]byte
	writeStr := func(s string) {
		binary.BigEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	writeInt := func(v int64) {
		binary.BigEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	writeStr("pokertote/ledger/transfer/v1")
	writeStr(string(t.Kind))
	writeStr(t.Memo)
	writeInt(int64(len(entries)))
	for _, e := range entries {
		writeStr(string(e.Account.Kind))
		writeStr(e.Account.Ref)
		writeInt(int64(e.Amount))
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
