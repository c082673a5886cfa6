package protection

import (
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// LimitKind is what a limit caps.
type LimitKind string

// The limit kinds; the values are part of the API.
const (
	// DepositLimit caps the money paid in within a period.
	DepositLimit LimitKind = "DEPOSIT"
	// StakeLimit caps the money staked within a period.
	StakeLimit LimitKind = "STAKE"
	// LossLimit caps stakes minus returns within a period.
	LossLimit LimitKind = "LOSS"
)

// LimitKinds lists every limit kind in a stable order.
var LimitKinds = []LimitKind{DepositLimit, StakeLimit, LossLimit}

// Valid reports whether k is a known kind.
func (k LimitKind) Valid() bool { return k == DepositLimit || k == StakeLimit || k == LossLimit }

// Reason is the refusal reason of a transfer that would break a limit of
// this kind.
func (k LimitKind) Reason() string {
	switch k {
	case DepositLimit:
		return ReasonDepositLimit
	case StakeLimit:
		return ReasonStakeLimit
	case LossLimit:
		return ReasonLossLimit
	}
	return string(k) + "_LIMIT"
}

// CoolingOff is how long a raised or removed limit waits before it applies.
const CoolingOff = 24 * time.Hour

// MaxLimit bounds a limit's amount (one billion tenge).
const MaxLimit = money.Amount(1_000_000_000) * money.KZT

// Limit is one limit as stored: the amount in force (0 for none) and, when
// the player raised or removed it, the change waiting for the end of its
// cooling-off.
type Limit struct {
	Kind   LimitKind
	Period Period
	// Amount is the limit in force; 0 means no limit.
	Amount money.Amount
	// Pending is true while a raise or removal waits until PendingAt.
	Pending bool
	// PendingAmount is the amount that applies at PendingAt (0: removed).
	PendingAmount money.Amount
	PendingAt     time.Time
}

// At is the limit as it stands at now: a pending change whose cooling-off
// has ended is applied.
func (l Limit) At(now time.Time) Limit {
	if l.Pending && !now.Before(l.PendingAt) {
		l.Amount, l.Pending, l.PendingAmount, l.PendingAt = l.PendingAmount, false, 0, time.Time{}
	}
	return l
}

// Change applies a player's request to set the limit to amount (0 to remove
// it) at now, following the rule of docs/protection.md: lowering (or setting a
// first limit) applies at once and cancels any pending raise; raising or
// removing waits CoolingOff, replacing any earlier pending change; asking
// for the amount in force just cancels a pending change.
func (l Limit) Change(amount money.Amount, now time.Time) (Limit, error) {
	if !l.Kind.Valid() || !l.Period.Valid() {
		return Limit{}, errs.R(errs.Invalid, ReasonInvalidLimit, "unknown limit %s per %s", l.Kind, l.Period)
	}
	if amount < 0 || amount > MaxLimit {
		return Limit{}, errs.R(errs.Invalid, ReasonInvalidLimit, "a limit is between 0 (none) and %s", MaxLimit)
	}
	cur := l.At(now)
	tighter := amount != 0 && (cur.Amount == 0 || amount < cur.Amount)
	switch {
	case tighter, amount == cur.Amount:
		cur.Amount = amount
		cur.Pending, cur.PendingAmount, cur.PendingAt = false, 0, time.Time{}
	default:
		cur.Pending, cur.PendingAmount, cur.PendingAt = true, amount, now.Add(CoolingOff)
	}
	return cur, nil
}

// Limits is a player's set of limits, at most one per kind and period.
type Limits []Limit

// Find returns the limit of kind and period (the zero Limit of that kind
// and period when none is stored).
func (ls Limits) Find(kind LimitKind, p Period) Limit {
	for _, l := range ls {
		if l.Kind == kind && l.Period == p {
			return l
		}
	}
	return Limit{Kind: kind, Period: p}
}

// Cap is the amount in force at now for kind and period, 0 when unlimited.
func (ls Limits) Cap(kind LimitKind, p Period, now time.Time) money.Amount {
	return ls.Find(kind, p).At(now).Amount
}
