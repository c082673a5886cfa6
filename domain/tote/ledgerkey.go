package tote

import (
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/parimutuel"
)

// LedgerKind is what a totalizator transfer moved money for, as its
// ledger key names it.
type LedgerKind string

// The totalizator transfers a ledger key names.
const (
	LedgerStake  LedgerKind = "bet"    // a bet's stake into its pool's escrow
	LedgerSettle LedgerKind = "settle" // a pool's settlement (or refund when it cannot pay)
	LedgerVoid   LedgerKind = "void"   // a pool's refund when its draw is voided
)

// ledgerKeyPrefix starts every totalizator transfer's key (stakes,
// settlements, voids, jackpot top-ups).
const ledgerKeyPrefix = "tote:"

// LedgerRef is what a totalizator transfer's idempotency key says it moved
// money for: a bet's stake (Kind LedgerStake, BetID), or part Part (1, 2,
// ...: a pool with very many winners is paid in several transfers) of a
// pool's settlement or void (DrawID, Round, Market). Key writes it and
// ParseLedgerKey reads it, the only reader: the shape is fixed by the
// transfers already posted.
type LedgerRef struct {
	Kind   LedgerKind
	BetID  int64
	DrawID int64
	Round  int
	Market string
	Part   int
}

// StakeLedgerKey is the key of bet betID's stake.
func StakeLedgerKey(betID int64) string {
	return LedgerRef{Kind: LedgerStake, BetID: betID}.Key()
}

// Key is the idempotency key of the transfer r names:
// "tote:bet:<bet>", "tote:settle:<draw>:<round>:<market>" for a pool's
// first transfer and "...:<part>" for its further ones, "tote:void:<...>"
// alike.
func (r LedgerRef) Key() string {
	if r.Kind == LedgerStake {
		return ledgerKeyPrefix + string(LedgerStake) + ":" + strconv.FormatInt(r.BetID, 10)
	}
	k := ledgerKeyPrefix + string(r.Kind) + ":" + r.PoolID()
	if r.Part > 1 {
		k += ":" + strconv.Itoa(r.Part)
	}
	return k
}

// PoolID is the id of the pool a settlement or void ref names (PoolID).
func (r LedgerRef) PoolID() string {
	return PoolID(r.DrawID, parimutuel.Round(r.Round), parimutuel.Market(r.Market))
}

// IsLedgerKey reports whether key is a totalizator transfer's, of any kind
// (a jackpot top-up's too, which ParseLedgerKey does not read).
func IsLedgerKey(key string) bool { return strings.HasPrefix(key, ledgerKeyPrefix) }

// ParseLedgerKey reads a totalizator transfer's key as Key writes it. ok
// is false for any other key (a deposit, a Casino Hold'em hand, a jackpot
// top-up) and for a key Key would not write as it is (a zero or negative
// id, a part below 2 written out, a number not in its shortest form), so
// that a key read is a key the tote wrote.
func ParseLedgerKey(key string) (LedgerRef, bool) {
	r, ok := parseLedgerKey(key)
	if !ok || r.Key() != key {
		return LedgerRef{}, false
	}
	return r, true
}

// parseLedgerKey reads key's fields; ParseLedgerKey refuses what Key does
// not write back the same.
func parseLedgerKey(key string) (LedgerRef, bool) {
	rest, ok := strings.CutPrefix(key, ledgerKeyPrefix)
	if !ok {
		return LedgerRef{}, false
	}
	parts := strings.Split(rest, ":")
	switch kind := LedgerKind(parts[0]); kind {
	case LedgerStake:
		if len(parts) != 2 {
			return LedgerRef{}, false
		}
		id, err := strconv.ParseInt(parts[1], 10, 64)
		return LedgerRef{Kind: kind, BetID: id}, err == nil && id > 0
	case LedgerSettle, LedgerVoid:
		if len(parts) != 4 && len(parts) != 5 {
			return LedgerRef{}, false
		}
		d, err1 := strconv.ParseInt(parts[1], 10, 64)
		r, err2 := strconv.Atoi(parts[2])
		part, err3 := 1, error(nil)
		if len(parts) == 5 {
			part, err3 = strconv.Atoi(parts[4])
		}
		if err1 != nil || err2 != nil || err3 != nil || d <= 0 || parts[3] == "" {
			return LedgerRef{}, false
		}
		return LedgerRef{Kind: kind, DrawID: d, Round: r, Market: parts[3], Part: part}, true
	}
	return LedgerRef{}, false
}
