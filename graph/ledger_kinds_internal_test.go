package graph

import (
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/graph/model"
)

// TestLedgerKindsMatchSchema: every transfer kind of the ledger's registry
// is a LedgerEntryKind of the schema and back, so a kind is never added to
// one without the other.
func TestLedgerKindsMatchSchema(t *testing.T) {
	kinds := ledger.TransferKinds()
	for _, k := range kinds {
		if !model.LedgerEntryKind(k).IsValid() {
			t.Errorf("transfer kind %s has no LedgerEntryKind value", k)
		}
	}
	for _, m := range model.AllLedgerEntryKind {
		if !ledger.TransferKind(m).Valid() {
			t.Errorf("LedgerEntryKind %s names no transfer kind", m)
		}
	}
	if len(kinds) != len(model.AllLedgerEntryKind) {
		t.Errorf("%d transfer kinds, %d LedgerEntryKind values", len(kinds), len(model.AllLedgerEntryKind))
	}
}

// TestRejectionReasonsMatchSchema: the schema's RejectionReason is the
// domain's list, both ways.
func TestRejectionReasonsMatchSchema(t *testing.T) {
	if len(account.RejectionCodes) != len(model.AllRejectionReason) {
		t.Fatalf("%d rejection codes, %d RejectionReason values", len(account.RejectionCodes), len(model.AllRejectionReason))
	}
	for i, c := range account.RejectionCodes {
		if string(model.AllRejectionReason[i]) != string(c) {
			t.Errorf("RejectionReason %d is %s, the domain's %s", i, model.AllRejectionReason[i], c)
		}
	}
}

// TestLedgerEntriesNameWhatTheyMovedFor: an entry of a stake names its bet,
// a settlement its draw, round and market, a hand's its hand.
func TestLedgerEntriesNameWhatTheyMovedFor(t *testing.T) {
	stake := toModelLedgerEntry(1, ledger.HistoryItem{EntryID: 1, Key: "tote:bet:42"})
	if stake.BetID == nil || *stake.BetID != "42" || stake.DrawID != "" {
		t.Fatalf("stake entry: %+v", stake)
	}
	pay := toModelLedgerEntry(1, ledger.HistoryItem{EntryID: 2, Key: "tote:settle:7:3:EXPRESS:2"})
	if pay.DrawID != "7" || pay.Round == nil || *pay.Round != model.BettingRoundFlop || pay.Market == nil || *pay.Market != model.MarketExpress || pay.BetID != nil {
		t.Fatalf("settlement entry: %+v", pay)
	}
	hand := toModelLedgerEntry(1, ledger.HistoryItem{EntryID: 3, Key: "holdem:9:payout"})
	if hand.HoldemHandID == nil || *hand.HoldemHandID != "9" || hand.DrawID != "" {
		t.Fatalf("hand entry: %+v", hand)
	}
	if dep := toModelLedgerEntry(1, ledger.HistoryItem{EntryID: 4, Key: "desk-deposit-1"}); dep.BetID != nil || dep.DrawID != "" || dep.HoldemHandID != nil {
		t.Fatalf("deposit entry: %+v", dep)
	}
}
