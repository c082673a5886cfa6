package regfeed

import (
	"encoding/json"
	"strconv"
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

// FeedHeader is the feed export's header row.
var FeedHeader = []string{"seq", "type", "at", "day", "person", "document_hash", "transfer_id", "game", "bet_id", "table_id", "draw_id",
	"round", "market", "selection", "hand_id", "stake", "payout", "refund", "amount", "protection"}

// FeedRecord is a record as the export's fields: amounts in tenge with
// two decimals, the time in RFC 3339 (UTC), empty where a field does not
// apply; a protection change as its JSON.
func FeedRecord(r Record) []string {
	num := func(n int64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	amt := func(a money.Amount) string {
		if a == 0 {
			return ""
		}
		return a.String()
	}
	prot := ""
	if r.Protection != nil {
		b, _ := json.Marshal(r.Protection) // plain fields: cannot fail
		prot = string(b)
	}
	return []string{strconv.FormatInt(r.Seq, 10), string(r.Type), r.At.UTC().Format(time.RFC3339Nano), r.Day, r.Person, r.DocumentHash,
		num(r.TransferID), string(r.Game), num(r.BetID), num(r.TableID), num(r.DrawID), num(int64(r.Round)), r.Market, r.Selection,
		num(r.HandID), amt(r.Stake), amt(r.Payout), amt(r.Refund), amt(r.Amount), prot}
}

// LinesHeader is the reconciliation file's header row.
var LinesHeader = []string{"day", "item", "game", "count", "amount"}

// LineRecord is a reconciliation line as the file's fields.
func LineRecord(l Line) []string {
	return []string{l.Day, string(l.Item), string(l.Game), strconv.FormatInt(l.Count, 10), l.Amount.String()}
}
