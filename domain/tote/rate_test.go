package tote_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestPayTallyAgreesWithEachBetSettled: what PayTally sums per selection
// and per player is exactly what SelectionRate.Settle pays each bet, bet by
// bet: every tiyn of every credit is some bet's payout, no bet is paid
// twice, bets of other pools and bets settled before are handled as the
// stores promise (ignored; their stored payout credited), and the
// selections left without a rate are the unrated ones.
func TestPayTallyAgreesWithEachBetSettled(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pools := []tote.PoolRates{
			{Round: parimutuel.RoundPreDeal, Market: parimutuel.MarketWin},
			{Round: parimutuel.RoundPocket, Market: parimutuel.MarketCombination},
		}
		sels := []string{"1", "2", "3", "4"}
		for i := range pools {
			for _, s := range sels {
				if rapid.Bool().Draw(t, "rated") {
					pools[i].Rates = append(pools[i].Rates, tote.SelectionRate{
						Selection: s, Refund: rapid.IntRange(0, 5).Draw(t, "refund") == 0,
						Coef1: money.Coef(rapid.Int64Range(0, 5000).Draw(t, "c1")),
						Coef2: money.Coef(rapid.Int64Range(0, 500).Draw(t, "c2")),
					})
				}
			}
		}
		tally, err := tote.NewPayTally(pools)
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
		type key struct {
			pool int
			user ids.UserID
		}
		wantCredit := map[key]money.Amount{}
		wantPaid := map[key]money.Amount{} // by pool and selection index (as user)
		wantUnrated := map[int][]string{}
		n := rapid.IntRange(0, 200).Draw(t, "bets")
		for range n {
			pi := rapid.IntRange(0, 2).Draw(t, "pool") // 2: a pool not paid
			round, market := parimutuel.RoundFlop, parimutuel.MarketWin
			if pi < 2 {
				round, market = pools[pi].Round, pools[pi].Market
			}
			si := rapid.IntRange(0, len(sels)-1).Draw(t, "sel")
			b := tote.Bet{
				UserID: ids.UserID(rapid.IntRange(1, 6).Draw(t, "user")), Round: round,
				Stake: money.Amount(rapid.Int64Range(1, 10_000_000).Draw(t, "stake")), Status: tote.BetAccepted,
			}
			b.Selection.Market = market
			if rapid.IntRange(0, 9).Draw(t, "settled") == 0 {
				b.Status, b.Payout = tote.BetWon, money.Amount(rapid.Int64Range(1, 1000).Draw(t, "payout"))
			}
			tally.Add(tote.PaidBet{Pool: b.PoolKey(), Selection: sels[si], UserID: b.UserID, Stake: b.Stake, Status: b.Status, Payout: b.Payout})
			if pi == 2 {
				continue
			}
			settled := b
			if i := slices.IndexFunc(pools[pi].Rates, func(r tote.SelectionRate) bool { return r.Selection == sels[si] }); i >= 0 {
				settled = pools[pi].Rates[i].Settle(b, at)
				if b.Status == tote.BetAccepted {
					wantPaid[key{pi, ids.UserID(si)}] += settled.Payout
				}
			} else if b.Status == tote.BetAccepted {
				settled.Payout = 0 // written LOST
				if !slices.Contains(wantUnrated[pi], sels[si]) {
					wantUnrated[pi] = append(wantUnrated[pi], sels[si])
				}
			}
			if settled.Payout > 0 {
				wantCredit[key{pi, b.UserID}] += settled.Payout
			}
		}
		got := tally.Result()
		gotCredit, gotPaid := map[key]money.Amount{}, map[key]money.Amount{}
		for pi, p := range got {
			for i, c := range p.Credits {
				if i > 0 && p.Credits[i-1].UserID >= c.UserID {
					t.Fatalf("pool %d: credits not in user order: %v", pi, p.Credits)
				}
				gotCredit[key{pi, c.UserID}] = c.Amount
			}
			for _, s := range p.Paid {
				gotPaid[key{pi, ids.UserID(slices.Index(sels, s.Selection))}] = s.Paid1 + s.Paid2
			}
		}
		if !maps.Equal(gotCredit, wantCredit) {
			t.Fatalf("credits %v, want %v", gotCredit, wantCredit)
		}
		for k, v := range wantPaid {
			if gotPaid[k] != v {
				t.Fatalf("paid %v, want %v", gotPaid, wantPaid)
			}
		}
		unrated := tally.Unrated()
		for pi := range pools {
			slices.Sort(wantUnrated[pi])
			if !slices.Equal(unrated[pi], wantUnrated[pi]) {
				t.Fatalf("pool %d unrated %v, want %v", pi, unrated[pi], wantUnrated[pi])
			}
		}
	})
}

// TestSelectionRateSettle: the one rule, on figures worked by hand.
func TestSelectionRateSettle(t *testing.T) {
	at := time.Date(2026, 12, 5, 1, 2, 3, 0, time.UTC)
	bet := tote.Bet{Stake: 10_333, Status: tote.BetAccepted}
	for _, c := range []struct {
		rate   tote.SelectionRate
		status tote.BetStatus
		payout money.Amount
	}{
		{tote.SelectionRate{Coef1: 185}, tote.BetWon, 19_116},                        // floor(10,333 × 1.85)
		{tote.SelectionRate{Coef1: 1234, Coef2: 110}, tote.BetWon, 127_509 + 11_366}, // two floors
		{tote.SelectionRate{}, tote.BetLost, 0},
		{tote.SelectionRate{Refund: true, Coef1: 999}, tote.BetRefunded, 10_333},
	} {
		got := c.rate.Settle(bet, at)
		if got.Status != c.status || got.Payout != c.payout || !got.SettledAt.Equal(at) {
			t.Errorf("%+v: %s %d at %v, want %s %d", c.rate, got.Status, got.Payout, got.SettledAt, c.status, c.payout)
		}
	}
	done := tote.Bet{Stake: 100, Status: tote.BetWon, Payout: 7}
	if got := (tote.SelectionRate{Coef1: 500}).Settle(done, at); got != done {
		t.Errorf("a settled bet changed: %+v", got)
	}
	if _, err := tote.NewPayTally([]tote.PoolRates{{Round: 1, Market: "WIN"}, {Round: 1, Market: "WIN"}}); err == nil {
		t.Error("a pool named twice was tallied")
	}
}
