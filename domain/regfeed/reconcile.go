package regfeed

import (
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/report"
)

// Item is a line of the daily reconciliation file: what is counted and
// summed.
type Item string

// The items, in the file's order. A bet's stake is BET_ACCEPTED; a
// settlement line is a PAYOUT or a REFUND.
const (
	ItemBetAccepted Item = "BET_ACCEPTED"
	ItemPayout      Item = "PAYOUT"
	ItemRefund      Item = "REFUND"
	ItemDeposit     Item = "DEPOSIT"
	ItemWithdrawal  Item = "WITHDRAWAL"
	// ItemProtection counts protection changes (its amount stays 0).
	ItemProtection Item = "PROTECTION_CHANGE"
)

// Line is one item of one gaming day: how many records and their sum.
// Game is set on the bet items (TOTE, HOLDEM), empty on the cashier's.
type Line struct {
	Day    string // YYYY-MM-DD, the gaming day in the operator's zone
	Item   Item
	Game   Game
	Count  int64
	Amount money.Amount
}

// LineKey names a line within a day.
type LineKey struct {
	Item Item
	Game Game
}

// DayKeys lists a day's lines in the file's order: every one is present,
// zero when nothing happened.
func DayKeys() []LineKey {
	var out []LineKey
	for _, it := range []Item{ItemBetAccepted, ItemPayout, ItemRefund} {
		for _, g := range []Game{Tote, Holdem} {
			out = append(out, LineKey{it, g})
		}
	}
	return append(out, LineKey{ItemDeposit, ""}, LineKey{ItemWithdrawal, ""}, LineKey{ItemProtection, ""})
}

// KeyOf is the line a record counts in.
func KeyOf(r Record) LineKey {
	switch {
	case r.Type == BetAccepted:
		return LineKey{ItemBetAccepted, r.Game}
	case r.Type == BetSettled && r.Refund > 0:
		return LineKey{ItemRefund, r.Game}
	case r.Type == BetSettled:
		return LineKey{ItemPayout, r.Game}
	case r.Type == Deposit:
		return LineKey{ItemDeposit, ""}
	case r.Type == ProtectionChanged:
		return LineKey{ItemProtection, ""}
	default:
		return LineKey{ItemWithdrawal, ""}
	}
}

// DayOf is the gaming day of instant at in loc (report.DayOf).
func DayOf(at time.Time, loc *time.Location) string { return report.DayOf(at, loc) }

// Reconcile sums records into the file's lines for days (as Days lists
// them), every line of every day present. Records outside the days are
// ignored.
func Reconcile(records []Record, days []string, loc *time.Location) []Line {
	type k struct {
		day string
		LineKey
	}
	sums := map[k]*Line{}
	var out []Line
	for _, d := range days {
		for _, lk := range DayKeys() {
			out = append(out, Line{Day: d, Item: lk.Item, Game: lk.Game})
		}
	}
	for i := range out {
		sums[k{out[i].Day, LineKey{out[i].Item, out[i].Game}}] = &out[i]
	}
	for _, r := range records {
		if l := sums[k{DayOf(r.At, loc), KeyOf(r)}]; l != nil {
			l.Count++
			l.Amount += r.Sum()
		}
	}
	return out
}
