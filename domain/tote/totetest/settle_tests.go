package totetest

import (
	"fmt"
	"github.com/pokertote/pokertote/domain/errs"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/dealer"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// testStreamedSettlementIsReference is the property test of streamed
// settlement on every store: random draws (bets of random
// players, markets, selections and stakes in every round, random
// commission, jackpot balance and flag, sometimes a void) are settled by
// the dealer, and every bet's status and payout, every pool's published
// figures and every wallet equal the reference arithmetic: SettlePool (or
// VoidPool) over the pool's individual bets.
func testStreamedSettlementIsReference(t *testing.T, env Env) {
	h := NewHarness(t, env, 5)
	// Each draw is played one step at a time, every round's bets placed
	// before the dealer ticks on: a pool check every 250 ms and a lease
	// renewal every second would re-read, some fifty times a round, what
	// has not changed. Two pool checks a round (the second publishes the
	// round's bets) and a lease renewed every 10 s leave every step of
	// the draw and cut the store's round trips of a draw tenfold.
	h.Dealer = dealer.New(h.Parts, dealer.Config{
		TableID: h.Table.ID, Owner: "A", LeaseTTL: 30 * time.Second, PoolTick: 5 * time.Second,
	})
	const users = 6
	for u := int64(1); u <= users; u++ {
		h.Deposit(u, money.Tenge(10_000_000))
	}
	markets := []parimutuel.Market{parimutuel.MarketWin, parimutuel.MarketCombination, parimutuel.MarketExpress}
	checks := 0
	rapid.Check(t, func(rt *rapid.T) {
		checks++
		hr := &Harness{T: rt, Env: h.Env, Ctx: h.Ctx, Svc: h.Svc, Dealer: h.Dealer, Clock: h.Clock, Table: h.Table, Pub: h.Pub}
		c := money.BasisPoints(rapid.IntRange(300, 2500).Draw(rt, "commission"))
		if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{Commission: &c}); err != nil {
			rt.Fatal(err)
		}
		if top := money.Amount(rapid.Int64Range(0, 3000).Draw(rt, "jackpot KZT")) * money.KZT; top > 0 {
			if err := h.Svc.JackpotTopUp(h.Ctx, 1, top, fmt.Sprintf("top %d", checks)); err != nil {
				rt.Fatal(err)
			}
		}
		if err := h.Svc.SetJackpotEnabled(h.Ctx, 1, rapid.Bool().Draw(rt, "jackpot on")); err != nil {
			rt.Fatal(err)
		}
		wallets := map[int64]money.Amount{}
		for u := int64(1); u <= users; u++ {
			wallets[u] = h.Balance(ledger.UserWallet(ids.UserID(u)))
		}
		voidIn := parimutuel.Round(rapid.IntRange(0, 10).Draw(rt, "void in round")) // 1..4: a void
		d := hr.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Phase == tote.PhasePreDeal })
		for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
			d = hr.RunUntil(h.Dealer, r.String(), func(x tote.Draw) bool { return x.ID == d.ID && x.OpenRound() == r })
			for range rapid.IntRange(0, 14).Draw(rt, "bets") {
				m := rapid.SampledFrom(markets).Draw(rt, "market")
				if !m.Offers(r) {
					continue
				}
				pos := func() string { return itoa(rapid.IntRange(1, 5).Draw(rt, "position")) }
				sel := pos()
				switch m {
				case parimutuel.MarketCombination:
					sel = rapid.SampledFrom([]string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH"}).Draw(rt, "category")
				case parimutuel.MarketExpress:
					sel = pos() + "-" + pos() + "-" + pos()
				}
				stake := d.MinStake + money.Amount(rapid.Int64Range(0, 500_000).Draw(rt, "stake"))
				hr.BetIfOffered(int64(rapid.IntRange(1, users).Draw(rt, "user")), d, m, sel, stake)
			}
			if r == voidIn { // only round 1 can be voided (void.go)
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
		d = hr.RunUntil(h.Dealer, "finished", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
		hr.CheckBooks(d)
		checkAgainstReference(rt, hr, d, wallets)
	})
}

// checkAgainstReference settles each pool of the finished draw d again
// bet by bet with SettlePool and compares.
func checkAgainstReference(rt *rapid.T, h *Harness, d tote.Draw, wallets map[int64]money.Amount) {
	bets, err := h.Env.Store.DrawBets(h.Ctx, d.ID)
	if err != nil {
		rt.Fatal(err)
	}
	checkSettledAnnounced(rt, h.Pub, bets)
	res := d.Result
	if res == nil || res.Version != tote.ResultVersion {
		rt.Fatalf("draw %d published no version-%d result: %+v", d.ID, tote.ResultVersion, res)
	}
	cfg := parimutuel.PoolConfig{Commission: res.Commission, JackpotEnabled: res.JackpotEnabled, JackpotRate: res.JackpotRate,
		ExpressShare1: res.ExpressShares[0], ExpressShare2: res.ExpressShares[1]}
	outcome := parimutuel.Outcome{Winners: res.Winners, Category: res.Category, FlopLeaders: res.FlopLeaders, TurnLeaders: res.TurnLeaders}
	byPool := map[string][]tote.Bet{}
	for _, b := range bets {
		id := tote.PoolID(b.DrawID, b.Round, b.Selection.Market)
		byPool[id] = append(byPool[id], b)
	}
	jackpot := res.JackpotBefore
	seen := 0
	for _, pr := range res.Pools {
		pb := byPool[pr.PoolID]
		seen += len(pb)
		p := parimutuel.Pool{ID: pr.PoolID, Market: pr.Market, Round: pr.Round, Positions: d.Positions, Config: cfg}
		for _, b := range pb {
			p.Bets = append(p.Bets, parimutuel.PoolBet{ID: itoa64(b.ID), Player: itoa64(int64(b.UserID)), Stake: b.Stake, Selection: b.Selection})
		}
		var st parimutuel.PoolSettlement
		if res.Void {
			st, err = parimutuel.VoidPool(p)
		} else {
			if pr.JackpotBefore != jackpot {
				rt.Errorf("pool %s settled against jackpot %s, the reference chain gives %s", pr.PoolID, pr.JackpotBefore, jackpot)
			}
			st, err = parimutuel.SettlePool(p, outcome, jackpot)
			jackpot += st.JackpotChange()
		}
		if err != nil {
			rt.Fatal(err)
		}
		for i, b := range pb {
			po := st.Payouts[i]
			want := tote.BetLost
			switch {
			case po.Refund:
				want = tote.BetRefunded
			case po.Amount > 0:
				want = tote.BetWon
			}
			if b.Payout != po.Amount || b.Status != want {
				rt.Errorf("bet %d (%s %s, stake %s): %s %s, the reference pays %s %s", b.ID, pr.PoolID, b.Selection, b.Stake, b.Status, b.Payout, want, po.Amount)
			}
			wallets[int64(b.UserID)] += po.Amount - b.Stake
		}
		got := []money.Amount{pr.Gross, pr.Commission, pr.JackpotContribution, pr.Net, pr.Paid, pr.Breakage, pr.TopUp, pr.JackpotPaid, pr.Rollover, pr.Refunds}
		want := []money.Amount{st.Gross, st.Commission, st.JackpotContribution, st.Net, st.Paid, st.Breakage, st.TopUp, st.JackpotPaid, st.Rollover, st.Refunds}
		if !slices.Equal(got, want) || pr.NumBets != st.NumBets || pr.Refunded != st.Refunded || pr.RefundReason != st.RefundReason {
			rt.Errorf("pool %s: published %v %d %v %s, the reference %v %d %v %s", pr.PoolID, got, pr.NumBets, pr.Refunded, pr.RefundReason, want, st.NumBets, st.Refunded, st.RefundReason)
		}
		cats := make([]tote.ResultCategory, len(st.Categories))
		for i, c := range st.Categories {
			cats[i] = tote.ResultCategory(c)
		}
		if !slices.Equal(pr.Categories, cats) {
			rt.Errorf("pool %s: categories %+v, the reference %+v", pr.PoolID, pr.Categories, cats)
		}
	}
	if seen != len(bets) {
		rt.Errorf("the result's pools hold %d of the draw's %d bets", seen, len(bets))
	}
	if !res.Void && jackpot != res.JackpotAfter {
		rt.Errorf("jackpot after %s, the reference %s", res.JackpotAfter, jackpot)
	}
	for u, want := range wallets {
		if got := h.Balance(ledger.UserWallet(ids.UserID(u))); got != want {
			rt.Errorf("wallet %d: %s, the reference %s", u, got, want)
		}
	}
	if _, v, err := verify.Draw(h.Ctx, h.Svc, d.ID); err != nil || len(v.Problems) > 0 || !v.PayoutsMatch {
		rt.Fatalf("verify: %+v %v", v, err)
	}
}

// checkSettledAnnounced checks that each of a finished draw's bets was
// announced to its player by exactly one BET_SETTLED (read back by the
// relay, or handed to it by the settlement's own pass over the bets).
func checkSettledAnnounced(rt *rapid.T, pub *Recorder, bets []tote.Bet) {
	if pub == nil {
		rt.Fatal("the harness records no messages")
	}
	announced := map[int64]int{}
	seenUser := map[ids.UserID]bool{}
	for _, b := range bets {
		if seenUser[b.UserID] {
			continue
		}
		seenUser[b.UserID] = true
		for _, m := range pub.Messages(event.UserTopic(b.UserID)) {
			e, err := event.DecodeUserEvent(m)
			if err != nil {
				rt.Fatal(err)
			}
			if e.Type == event.BetSettled {
				announced[e.BetID]++
			}
		}
	}
	for _, b := range bets {
		if n := announced[b.ID]; n != 1 {
			rt.Errorf("bet %d of player %d: %d BET_SETTLED, want 1", b.ID, b.UserID, n)
		}
	}
}
