package totetest

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// testBetReaders: every way a bet is read (by id, by key, a player's bets,
// the draw's bets) shows the same status, payout and settlement time,
// before and after the draw settles, and after a void. The database stores
// settle a pool by storing one rate per selection and derive each bet's
// status and payout when it is read, so this is the test of that
// derivation on every reader; the twin writes every bet.
func testBetReaders(t *testing.T, env Env) {
	h := NewHarness(t, env, 5)
	for u := int64(1); u <= 3; u++ {
		h.Deposit(u, money.Tenge(100_000))
	}
	place := func(d tote.Draw) []tote.Bet {
		var bets []tote.Bet
		bet := func(user int64, m parimutuel.Market, sel string, stake money.Amount) {
			if b, ok := h.BetIfOffered(user, d, m, sel, stake); ok {
				bets = append(bets, b)
			}
		}
		for pos := 1; pos <= 5; pos++ {
			bet(1, parimutuel.MarketWin, itoa(pos), money.Tenge(100)+money.Amount(pos*37))
		}
		bet(2, parimutuel.MarketCombination, "HIGH_CARD", money.Tenge(150))
		bet(2, parimutuel.MarketCombination, "PAIR", money.Tenge(170)+3)
		bet(3, parimutuel.MarketExpress, "1-2-3", money.Tenge(210)+1)
		bet(3, parimutuel.MarketWin, "2", money.Tenge(333)+33)
		return bets
	}
	// read reads bet b through every reader and fails unless all agree.
	read := func(t *testing.T, b tote.Bet) tote.Bet {
		t.Helper()
		all, err := env.Store.DrawBets(h.Ctx, b.DrawID)
		if err != nil {
			t.Fatal(err)
		}
		var got []tote.Bet
		for _, x := range all {
			if x.ID == b.ID {
				got = append(got, x)
			}
		}
		byID, err := env.Store.Bet(h.Ctx, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		byKey, err := env.Store.BetByKey(h.Ctx, b.UserID, b.IdempotencyKey)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, byID, byKey)
		mine, err := env.Store.Bets(h.Ctx, tote.BetQuery{UserID: b.UserID, DrawID: b.DrawID, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range mine {
			if x.ID == b.ID {
				got = append(got, x)
			}
		}
		if len(got) != 4 {
			t.Fatalf("bet %d found %d times by the four readers", b.ID, len(got))
		}
		for i, x := range got[1:] {
			if x.Status != got[0].Status || x.Payout != got[0].Payout || !x.SettledAt.Equal(got[0].SettledAt) || x.Stake != b.Stake || x.Selection != b.Selection {
				t.Errorf("bet %d: reader %d reads %s %s settled %v, the draw's bets %s %s settled %v",
					b.ID, i+1, x.Status, x.Payout, x.SettledAt, got[0].Status, got[0].Payout, got[0].SettledAt)
			}
		}
		return got[0]
	}

	t.Run("settled", func(t *testing.T) {
		d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
		bets := place(d)
		for _, b := range bets {
			if got := read(t, b); got.Status != tote.BetAccepted || got.Payout != 0 || !got.SettledAt.IsZero() {
				t.Errorf("bet %d before settlement: %s %s settled %v", b.ID, got.Status, got.Payout, got.SettledAt)
			}
		}
		d = h.RunUntil(h.Dealer, "settled", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
		if d.Phase != tote.PhaseSettled || d.Result == nil {
			t.Fatalf("draw %d: %s", d.ID, d.Phase)
		}
		coef := map[parimutuel.Market]money.Coef{}
		won := map[string]bool{}
		published := map[string]tote.ResultSelection{} // pool id + selection
		for _, p := range d.Result.Pools {
			for _, s := range p.Selections {
				published[p.PoolID+" "+s.Selection] = s
			}
			if p.Round == parimutuel.RoundPreDeal && len(p.Categories) > 0 {
				coef[p.Market] = p.Categories[0].Coef
			}
			if p.Market == parimutuel.MarketWin && p.Round == parimutuel.RoundPreDeal {
				for _, w := range p.Winning {
					won[w] = true
				}
			}
		}
		status := map[tote.BetStatus]int{}
		for _, b := range bets {
			got := read(t, b)
			status[got.Status]++
			if !got.SettledAt.Equal(d.Result.SettledAt.Truncate(time.Microsecond)) {
				t.Errorf("bet %d settled at %v, the draw at %v", b.ID, got.SettledAt, d.Result.SettledAt)
			}
			// A selection backed by this bet alone published its payout.
			if s := published[tote.PoolID(b.DrawID, b.Round, b.Selection.Market)+" "+b.Selection.String()]; s.NumBets == 1 && got.Payout != s.Payout {
				t.Errorf("bet %d, alone on %s: payout %s, the result publishes %s", b.ID, b.Selection, got.Payout, s.Payout)
			}
			if b.Selection.Market != parimutuel.MarketWin {
				continue
			}
			// WIN pays one category: floor(stake × its coefficient) on a
			// winning position, nothing on the others.
			want, wantStatus := money.Amount(0), tote.BetLost
			if won[b.Selection.String()] {
				want, wantStatus = coef[parimutuel.MarketWin].Pay(b.Stake), tote.BetWon
			}
			if got.Status != wantStatus || got.Payout != want {
				t.Errorf("WIN bet %d on %s (stake %s): %s %s, the result's coefficient %s pays %s %s",
					b.ID, b.Selection, b.Stake, got.Status, got.Payout, coef[parimutuel.MarketWin], wantStatus, want)
			}
		}
		// The deal is random: a draw may leave no bet lost (a split pot, a
		// refunded pool), so only require every bet settled and some bet
		// paid or lost by its selection's rate.
		if status[tote.BetWon]+status[tote.BetLost] == 0 || status[tote.BetAccepted] != 0 {
			t.Errorf("statuses after settlement: %v", status)
		}
		if _, v, err := verify.Draw(h.Ctx, h.Svc, d.ID); err != nil || !v.PayoutsMatch {
			t.Errorf("verify draw %d: %v %v", d.ID, err, v.Problems)
		}
		h.CheckBooks(d)
	})

	t.Run("void", func(t *testing.T) {
		d := h.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Phase == tote.PhasePreDeal && x.Number > 1 })
		bets := place(d)
		if _, err := h.Svc.VoidDraw(h.Ctx, 1, d.ID, "reader test"); err != nil {
			t.Fatal(err)
		}
		d = h.RunUntil(h.Dealer, "voided", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
		for _, b := range bets {
			if got := read(t, b); got.Status != tote.BetRefunded || got.Payout != b.Stake || got.SettledAt.IsZero() {
				t.Errorf("bet %d of a void draw: %s %s settled %v; want REFUNDED %s", b.ID, got.Status, got.Payout, got.SettledAt, b.Stake)
			}
		}
		h.CheckBooks(d)
	})
}
