package tote_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/tote"
)

// lateDrawChances is the stored chances of a 10-position draw in its last
// round (the most a draw stores): rounds 2 to 4, each with every WIN
// position, every COMBINATION category and a few EXPRESS coupons.
func lateDrawChances() string {
	cats := []string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH"}
	var rcs []tote.RoundChances
	for r := parimutuel.Round(2); r <= 4; r++ {
		rc := tote.RoundChances{Round: r}
		for p := 1; p <= 10; p++ {
			rc.Chances = append(rc.Chances, tote.SelectionChance{Market: parimutuel.MarketWin, Selection: fmt.Sprint(p), Paid: int64(1000 + p), Of: 1_070_190})
		}
		for _, c := range cats {
			rc.Chances = append(rc.Chances, tote.SelectionChance{Market: parimutuel.MarketCombination, Selection: c, Paid: 12_345, Of: 1_070_190})
		}
		for e := 1; e <= 4; e++ {
			rc.Chances = append(rc.Chances, tote.SelectionChance{Market: parimutuel.MarketExpress, Selection: fmt.Sprintf("%d-%d-%d", e, e, e), Paid: 980_000, Of: 1_000_000})
		}
		rcs = append(rcs, rc)
	}
	return tote.FormatChances(rcs)
}

// BenchmarkParseChances is what reading a draw's stored chances costs a
// bet batch (the fast path reads the draw, chances included, once per
// batch); compare with BenchmarkPlanBatch, the batch's own rules, on the
// same machine:
//
//	go test ./domain/tote -run '^$' -bench 'ParseChances|PlanBatch' -benchmem
func BenchmarkParseChances(b *testing.B) {
	s := lateDrawChances()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := tote.ParseChances(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanBatch plans a batch of 8 bets of 8 players (funds, a stake
// limit each) on a late-round draw: the in-memory part of every store's
// batch.
func BenchmarkPlanBatch(b *testing.B) {
	now := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	chances, err := tote.ParseChances(lateDrawChances())
	if err != nil {
		b.Fatal(err)
	}
	d := tote.Draw{ID: 7, Number: 7, TableID: 1, Positions: 10, Phase: tote.PhaseTurn, RoundClosesAt: now.Add(time.Minute), MinStake: 100 * money.KZT, Chances: chances}
	table := tote.Table{ID: 1}
	table.Settings.MaxStake = 1_000_000 * money.KZT
	w := tote.BatchWork{DrawID: d.ID, Clock: fixedClock(now)}
	snap := tote.BatchSnapshot{Draw: d, Table: table, Now: now, Wallets: map[ids.UserID]money.Amount{}, States: map[ids.UserID]protection.State{},
		Counters: map[ids.UserID]protection.Counters{}, Sessions: map[ids.UserID]protection.Session{}}
	for i := range 8 {
		u := ids.UserID(100 + i)
		w.Requests = append(w.Requests, tote.BatchRequest{UserID: u, Key: fmt.Sprintf("k%d", i),
			Selection: parimutuel.Selection{Market: parimutuel.MarketWin, Position: 1 + i}, Stake: 200 * money.KZT})
		snap.BetIDs = append(snap.BetIDs, int64(1000+i))
		snap.Wallets[u] = 10_000 * money.KZT
		snap.States[u] = protection.State{Limits: protection.Limits{{Kind: protection.StakeLimit, Period: protection.Day, Amount: 5000 * money.KZT}}}
	}
	for b.Loop() {
		if _, err := tote.PlanBatch(w, snap); err != nil {
			b.Fatal(err)
		}
	}
}
