package tote_test

import (
	"fmt"
	"github.com/pokertote/pokertote/domain/errs"
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// randomSelection draws a selection of market m on a table of n positions.
func randomSelection(t *rapid.T, m parimutuel.Market, n int) string {
	pos := func(label string) int { return rapid.IntRange(1, n).Draw(t, label) }
	switch m {
	case parimutuel.MarketWin:
		return fmt.Sprint(pos("position"))
	case parimutuel.MarketCombination:
		return parimutuel.Combination(rapid.IntRange(0, parimutuel.NumCombinations-1).Draw(t, "category")).String()
	}
	return fmt.Sprintf("%d-%d-%d", pos("flop"), pos("turn"), pos("river"))
}

// TestDrawConservesMoney is the property test of whole draws: random tables,
// random bets in every round, random jackpot and commission, sometimes a
// void; the stored results and the ledger always conserve money.
func TestDrawConservesMoney(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 10).Draw(rt, "positions")
		h := totetest.NewHarness(rt, totetest.MemEnv(t), n)
		users := rapid.IntRange(1, 5).Draw(rt, "users")
		for u := 1; u <= users; u++ {
			h.Deposit(int64(u), 1_000_000*money.KZT)
		}
		setupMoneyRules(rt, h)
		before := h.Balance(ledger.OrganiserAccount) + h.Balance(ledger.JackpotAccount)
		voidIn := rapid.IntRange(0, 12).Draw(rt, "void in round") // 1..4 voids then
		var stakes money.Amount
		var d tote.Draw
		for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
			d = h.RunUntil(h.Dealer, r.String(), func(x tote.Draw) bool { return x.OpenRound() == r })
			for range rapid.IntRange(0, 12).Draw(rt, "bets") {
				m := rapid.SampledFrom(parimutuel.Markets).Draw(rt, "market")
				if !m.Offers(r) {
					continue
				}
				stake := money.Amount(rapid.Int64Range(int64(d.MinStake), 3000*int64(money.KZT)).Draw(rt, "stake"))
				if b, ok := h.BetIfOffered(int64(rapid.IntRange(1, users).Draw(rt, "user")), d, m, randomSelection(rt, m, n), stake); ok {
					stakes += b.Stake
				}
			}
			if int(r) == voidIn { // only round 1 can be voided (void.go)
				_, err := h.Svc.VoidDraw(h.Ctx, 1, d.ID, "property test")
				if r == parimutuel.RoundPreDeal {
					if err != nil {
						rt.Fatal(err)
					}
					break
				}
				if errs.ReasonOf(err) != tote.ReasonVoidAfterDeal {
					rt.Fatalf("a void in round %s: %v, want %s", r, err, tote.ReasonVoidAfterDeal)
				}
			}
		}
		d = h.RunUntil(h.Dealer, "finished", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
		checkDraw(rt, h, d, users, stakes, before)
	})
}

// setupMoneyRules draws the commission, the jackpot's balance and flag.
func setupMoneyRules(rt *rapid.T, h *totetest.Harness) {
	c := money.BasisPoints(rapid.IntRange(300, 2500).Draw(rt, "commission"))
	if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{Commission: &c}); err != nil {
		rt.Fatal(err)
	}
	if top := money.Amount(rapid.Int64Range(0, 5000).Draw(rt, "jackpot KZT")) * money.KZT; top > 0 {
		if err := h.Svc.JackpotTopUp(h.Ctx, 1, top, "seed"); err != nil {
			rt.Fatal(err)
		}
	}
	if err := h.Svc.SetJackpotEnabled(h.Ctx, 1, rapid.Bool().Draw(rt, "jackpot on")); err != nil {
		rt.Fatal(err)
	}
}

// checkDraw checks a finished draw's money: books balance, escrows are
// empty, wallets are deposits less stakes plus returns, the house side
// gained exactly what players lost, coefficients are at least 1.10,
// refunds are exact, and the result verifies.
func checkDraw(rt *rapid.T, h *totetest.Harness, d tote.Draw, users int, stakes, before money.Amount) {
	h.CheckBooks(d)
	bets, err := h.Env.Store.DrawBets(h.Ctx, d.ID)
	if err != nil {
		rt.Fatal(err)
	}
	var returned money.Amount
	perUser := map[ids.UserID]money.Amount{}
	for _, b := range bets {
		returned += b.Payout
		perUser[b.UserID] += b.Payout - b.Stake
		if b.Status == tote.BetRefunded && b.Payout != b.Stake {
			rt.Errorf("refund of bet %d: %s of %s", b.ID, b.Payout, b.Stake)
		}
	}
	for u := 1; u <= users; u++ {
		if got, want := h.Balance(ledger.UserWallet(ids.UserID(u))), 1_000_000*money.KZT+perUser[ids.UserID(u)]; got != want {
			rt.Errorf("wallet %d: %s, want %s", u, got, want)
		}
	}
	after := h.Balance(ledger.OrganiserAccount) + h.Balance(ledger.JackpotAccount)
	if after-before != stakes-returned {
		rt.Errorf("organiser and jackpot gained %s, players lost %s", after-before, stakes-returned)
	}
	for _, p := range d.Result.Pools {
		for _, c := range p.Categories {
			if c.NumBets > 0 && c.Coef < money.MinCoef {
				rt.Errorf("pool %s category %d pays %s", p.PoolID, c.Category, c.Coef)
			}
		}
	}
	if _, v, err := verify.Draw(h.Ctx, h.Svc, d.ID); err != nil || len(v.Problems) > 0 || !v.CommitmentValid || !v.PayoutsMatch {
		rt.Fatalf("verify: %+v %v", v, err)
	}
}
