package totetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// testBatchMixed hands the intake one batch in which some bets are bad
// (short wallet, empty wallet, the same key twice, a key reused for
// another bet, stake too high, a selection the table lacks, a taken key
// with another request): each gets its own result and the good ones
// commit, with exactly their money moved and the pool totals equal to the
// bets.
func testBatchMixed(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	h.Deposit(1, money.Tenge(100_000))
	h.Deposit(2, money.Tenge(150)) // enough for one bet of 100 only
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	bet := func(user int64, sel string, stake int64, key string) tote.PlaceBetRequest {
		return tote.PlaceBetRequest{UserID: ids.UserID(user), DrawID: d.ID, Market: parimutuel.MarketWin, Selection: sel, Stake: money.Tenge(stake), IdempotencyKey: key}
	}
	if _, err := h.Svc.PlaceBet(h.Ctx, bet(1, "1", 100, "earlier")); err != nil {
		t.Fatal(err)
	}
	reqs := []tote.PlaceBetRequest{
		bet(1, "1", 100, "a"),          // 0 ok
		bet(2, "2", 100, "b1"),         // 1 ok: the first of user 2's
		bet(2, "3", 100, "b2"),         // 2 INSUFFICIENT_FUNDS: 50 left
		bet(3, "4", 100, "c"),          // 3 INSUFFICIENT_FUNDS: no money at all
		bet(1, "5", 200, "dup"),        // 4 ok
		bet(1, "5", 200, "dup"),        // 5 the same bet again: same answer
		bet(1, "6", 300, "reuse"),      // 6 ok
		bet(1, "6", 400, "reuse"),      // 7 IDEMPOTENCY_KEY_REUSED
		bet(1, "2", 2_000_000, "high"), // 8 STAKE_TOO_HIGH
		bet(1, "7", 100, "nope"),       // 9 invalid selection on 6 positions
		bet(1, "1", 100, "earlier"),    // 10 a retry of the earlier bet: that bet
		bet(1, "1", 150, "earlier"),    // 11 the earlier key, another bet
		bet(1, "4", 50, "low"),         // 12 STAKE_TOO_LOW
		bet(3, "3", 5_000_000, "much"), // 13 STAKE_TOO_HIGH before funds
	}
	bets, errList := h.Svc.PlaceBets(h.Ctx, reqs)
	ok := func(i int) {
		t.Helper()
		if errList[i] != nil || bets[i].ID == 0 {
			t.Errorf("request %d: %+v, %v; want accepted", i, bets[i], errList[i])
		}
	}
	for _, i := range []int{0, 1, 4, 5, 6, 10} {
		ok(i)
	}
	errstest.Is(t, errList[2], errs.Conflict, ledger.ReasonInsufficientFunds)
	errstest.Is(t, errList[3], errs.Conflict, ledger.ReasonInsufficientFunds)
	errstest.Is(t, errList[7], errs.Conflict, "IDEMPOTENCY_KEY_REUSED")
	errstest.Is(t, errList[8], errs.Invalid, "STAKE_TOO_HIGH")
	errstest.Code(t, errList[9], errs.Invalid)
	errstest.Is(t, errList[11], errs.Conflict, "IDEMPOTENCY_KEY_REUSED")
	errstest.Is(t, errList[12], errs.Invalid, "STAKE_TOO_LOW")
	errstest.Is(t, errList[13], errs.Invalid, "STAKE_TOO_HIGH")
	if bets[4].ID != bets[5].ID {
		t.Errorf("the same key in one batch gave bets %d and %d", bets[4].ID, bets[5].ID)
	}
	if h.Balance(ledger.UserWallet(1)) != money.Tenge(100_000-100-100-200-300) {
		t.Errorf("wallet 1 holds %s", h.Balance(ledger.UserWallet(1)))
	}
	if h.Balance(ledger.UserWallet(2)) != money.Tenge(50) || h.Balance(ledger.UserWallet(3)) != 0 {
		t.Errorf("wallets 2 and 3 hold %s and %s", h.Balance(ledger.UserWallet(2)), h.Balance(ledger.UserWallet(3)))
	}
	stored, err := env.Store.DrawBets(h.Ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 5 {
		t.Errorf("%d bets stored, want 5 (earlier, a, b1, dup, reuse)", len(stored))
	}
	if got := h.Balance(ledger.EscrowOf(tote.PoolID(d.ID, 1, parimutuel.MarketWin))); got != money.Tenge(100+100+100+200+300) {
		t.Errorf("escrow holds %s", got)
	}
	checkTotals(h, d.ID)
	if err := h.Env.Ledger.Reconcile(h.Ctx); err != nil {
		t.Fatal(err)
	}
}

// testConcurrentMixed sends good and bad bets at once from many goroutines,
// however the intake happens to batch them: each answer is its own and
// the money matches the bets accepted.
func testConcurrentMixed(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	users := 12
	for u := range users {
		if u%4 > 0 {
			h.Deposit(int64(200+u), money.Tenge(int64(100*(u%4)))) // 0, 100, 200, 300 KZT
		}
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	var wg sync.WaitGroup
	var mu sync.Mutex
	accepted := map[int64]money.Amount{}
	betIDs := map[int64]bool{}
	for u := range users {
		for i := range 4 {
			wg.Go(func() {
				uid := int64(200 + u)
				b, err := h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: ids.UserID(uid), DrawID: d.ID, Market: parimutuel.MarketWin,
					Selection: itoa(1 + (u+i%3)%6), Stake: money.Tenge(100), IdempotencyKey: fmt.Sprintf("k%d", i%3)})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					if !betIDs[b.ID] {
						betIDs[b.ID] = true
						accepted[uid] += b.Stake
					}
				case errs.ReasonOf(err) != ledger.ReasonInsufficientFunds:
					t.Errorf("user %d bet %d: %v", uid, i, err)
				}
			})
		}
	}
	wg.Wait()
	for u := range users {
		uid := int64(200 + u)
		// Keys k0, k1, k2 (k0 twice): at most three bets, as many as the
		// money allows.
		if want := money.Tenge(int64(100 * min(u%4, 3))); accepted[uid] != want {
			t.Errorf("user %d: %s accepted, want %s", uid, accepted[uid], want)
		}
		if got, want := h.Balance(ledger.UserWallet(ids.UserID(uid))), money.Tenge(int64(100*(u%4)))-accepted[uid]; got != want {
			t.Errorf("user %d holds %s, want %s", uid, got, want)
		}
	}
	checkTotals(h, d.ID)
	if err := h.Env.Ledger.Reconcile(h.Ctx); err != nil {
		t.Fatal(err)
	}
}

// checkTotals compares the store's pool totals with a sum over the draw's
// bets and the escrows.
func checkTotals(h *Harness, drawID int64) {
	h.T.Helper()
	bets, err := h.Env.Store.DrawBets(h.Ctx, drawID)
	if err != nil {
		h.T.Fatal(err)
	}
	type key struct {
		r parimutuel.Round
		s parimutuel.Selection
	}
	want := map[key]tote.SelectionTotal{}
	escrow := map[tote.PoolKey]money.Amount{}
	for _, b := range bets {
		k := key{b.Round, b.Selection}
		st := want[k]
		st.Round, st.Selection = b.Round, b.Selection
		st.Stake += b.Stake
		st.Bets++
		want[k] = st
		escrow[b.PoolKey()] += b.Stake
	}
	got, err := h.Env.Store.PoolTotals(h.Ctx, drawID, 0)
	if err != nil {
		h.T.Fatal(err)
	}
	if len(got) != len(want) {
		h.T.Errorf("%d selection totals, the bets make %d", len(got), len(want))
	}
	for _, g := range got {
		if w := want[key{g.Round, g.Selection}]; g != w {
			h.T.Errorf("totals %+v, the bets sum to %+v", g, w)
		}
	}
	for k, sum := range escrow {
		if b := h.Balance(ledger.EscrowOf(tote.PoolID(drawID, k.Round, k.Market))); b != sum {
			h.T.Errorf("escrow of %v holds %s, its bets %s", k, b, sum)
		}
	}
}

// testTotalsProperty: after any sequence of batches (bets accepted, bets
// refused for money, keys repeated), the incrementally kept pool totals
// equal a full re-sum of the draw's bets.
func testTotalsProperty(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	for u := 1; u < 5; u++ {
		h.Deposit(int64(300+u), money.Tenge(int64(500*u)))
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	markets := []parimutuel.Market{parimutuel.MarketWin, parimutuel.MarketCombination, parimutuel.MarketExpress}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		reqs := rapid.SliceOfN(rapid.Custom(func(rt *rapid.T) tote.PlaceBetRequest {
			m := rapid.SampledFrom(markets).Draw(rt, "market")
			sel := itoa(rapid.IntRange(1, 6).Draw(rt, "pos"))
			switch m {
			case parimutuel.MarketCombination:
				sel = rapid.SampledFrom([]string{"PAIR", "FLUSH", "STRAIGHT"}).Draw(rt, "cat")
			case parimutuel.MarketExpress:
				sel = sel + "-" + sel + "-" + itoa(rapid.IntRange(1, 6).Draw(rt, "river"))
			}
			return tote.PlaceBetRequest{UserID: ids.UserID(300 + rapid.IntRange(0, 4).Draw(rt, "user")), DrawID: d.ID, Market: m, Selection: sel,
				Stake: money.Tenge(int64(rapid.IntRange(100, 400).Draw(rt, "stake"))), IdempotencyKey: fmt.Sprintf("p%d", rapid.IntRange(0, n+5).Draw(rt, "key"))}
		}), 1, 20).Draw(rt, "batch")
		n += len(reqs)
		_, errList := h.Svc.PlaceBets(h.Ctx, reqs)
		for _, err := range errList {
			if err != nil && !slices.Contains([]string{ledger.ReasonInsufficientFunds, "IDEMPOTENCY_KEY_REUSED"}, errs.ReasonOf(err)) {
				rt.Fatalf("unexpected refusal: %v", err)
			}
		}
		checkTotals(&Harness{T: rt, Env: h.Env, Ctx: h.Ctx}, d.ID)
	})
}
