package totetest

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

func testLeaseTakeover(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	for u := int64(1); u <= 3; u++ {
		h.Deposit(u, money.Tenge(100_000))
	}
	var bets []tote.Bet
	for _, p := range []tote.Phase{tote.PhasePreDeal, tote.PhasePocket, tote.PhaseFlop} {
		d := h.RunUntil(h.Dealer, string(p), InPhase(p))
		bets = append(bets, placeEverywhere(h, d)...)
	}
	// Dealer A dies mid-draw. B must wait for A's lease to expire.
	b := h.NewDealer("B")
	before := h.Draw()
	b.Tick(h.Ctx)
	if got := h.Draw(); got.Version != before.Version {
		t.Fatal("B dealt while A's lease was valid")
	}
	h.Clock.Advance(4 * time.Second) // past A's 3 s lease; the round is still open
	d := h.RunUntil(b, "SETTLED by B", InPhase(tote.PhaseSettled))
	// A wakes up: its lease is gone, it must write nothing.
	n := len(h.Events())
	version := h.Draw().Version
	h.Dealer.Tick(h.Ctx)
	if len(h.Events()) != n || h.Draw().Version != version {
		t.Fatal("the dealer that lost its lease wrote")
	}
	h.CheckBooks(d)
	checkSettledBets(h, d, bets)
	checkWallets(h, map[int64]money.Amount{1: money.Tenge(100_000), 2: money.Tenge(100_000), 3: money.Tenge(100_000)}, d.ID)
	if _, v, err := verify.Draw(h.Ctx, h.Svc, d.ID); err != nil || len(v.Problems) > 0 {
		t.Fatalf("verify after takeover: %+v %v", v, err)
	}
	testFencing(t, env, h.Table.ID+1000)
}

// testFencing checks the lease store's rules directly: a newer holder's
// fence is higher, and the old holder can neither renew nor write.
func testFencing(t *testing.T, env Env, tableID int64) {
	ctx := context.Background()
	now := Start.Add(time.Hour)
	x, err := env.Leases.AcquireLease(ctx, tableID, "X", now, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Leases.AcquireLease(ctx, tableID, "Y", now.Add(500*time.Millisecond), time.Second); errs.ReasonOf(err) != tote.ReasonLeaseHeld {
		t.Fatalf("Y took a held lease: %v", err)
	}
	if x2, err := env.Leases.AcquireLease(ctx, tableID, "X", now.Add(500*time.Millisecond), time.Second); err != nil || x2.Fence != x.Fence {
		t.Fatalf("X re-acquiring its own lease: %+v %v", x2, err)
	}
	y, err := env.Leases.AcquireLease(ctx, tableID, "Y", now.Add(2*time.Second), time.Second)
	if err != nil || y.Fence <= x.Fence {
		t.Fatalf("Y after expiry: %+v %v", y, err)
	}
	if _, err := env.Leases.RenewLease(ctx, x, now.Add(2*time.Second), time.Second); errs.ReasonOf(err) != tote.ReasonLeaseLost {
		t.Fatalf("X renewed a lost lease: %v", err)
	}
	err = env.Store.Within(ctx, func(ctx context.Context, tx tote.Tx) error { return tx.CheckLease(ctx, x) })
	if errs.ReasonOf(err) != tote.ReasonLeaseLost {
		t.Fatalf("X's fence still accepted: %v", err)
	}
	if err := env.Store.Within(ctx, func(ctx context.Context, tx tote.Tx) error { return tx.CheckLease(ctx, y) }); err != nil {
		t.Fatalf("Y's fence refused: %v", err)
	}
	if err := env.Leases.ReleaseLease(ctx, y); err != nil {
		t.Fatal(err)
	}
	if z, err := env.Leases.AcquireLease(ctx, tableID, "Z", now.Add(2*time.Second), time.Second); err != nil || z.Fence <= y.Fence {
		t.Fatalf("Z after release: %+v %v", z, err)
	}
}

func testStalledTakeover(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	for u := int64(1); u <= 3; u++ {
		h.Deposit(u, money.Tenge(100_000))
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	placeEverywhere(h, d)
	h.RunUntil(h.Dealer, "POCKET", InPhase(tote.PhasePocket))
	h.Clock.Advance(10 * time.Minute) // A is gone for long
	// B takes over and finishes the draw: once round 1 has closed, a
	// stall is no cause to void it (its cards are known to the seed's
	// holder; a void would be an option on the outcome).
	b := h.NewDealer("B")
	v := h.RunUntil(b, "finished", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
	if v.Phase != tote.PhaseSettled {
		t.Fatalf("the stalled draw ended %s: %q", v.Phase, v.VoidReason)
	}
	h.CheckBooks(v)
	if _, ver, err := verify.Draw(h.Ctx, h.Svc, v.ID); err != nil || len(ver.Problems) > 0 {
		t.Errorf("verify: %v %v", err, ver.Problems)
	}
}

func testJackpotPaid(t *testing.T, env Env) {
	h := NewHarness(t, env, 3)
	h.Deposit(1, money.Tenge(100_000))
	top := money.Tenge(1000)
	if err := h.Svc.JackpotTopUp(h.Ctx, 7, top, "t1"); err != nil {
		t.Fatal(err)
	}
	if err := h.Svc.JackpotTopUp(h.Ctx, 7, top, "t1"); err != nil { // a retry moves nothing
		t.Fatal(err)
	}
	if bal, on, err := h.Svc.Jackpot(h.Ctx); err != nil || bal != top || !on {
		t.Fatalf("jackpot %s %v %v", bal, on, err)
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	for f := 1; f <= 3; f++ { // every coupon: someone guesses 3 of 3
		for tu := 1; tu <= 3; tu++ {
			for r := 1; r <= 3; r++ {
				h.MustBet(1, d, parimutuel.MarketExpress, itoa(f)+"-"+itoa(tu)+"-"+itoa(r), money.Tenge(100))
			}
		}
	}
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	h.CheckBooks(d)
	var express *tote.PoolResult
	for i, p := range d.Result.Pools {
		if p.Market == parimutuel.MarketExpress && p.Round == parimutuel.RoundPreDeal {
			express = &d.Result.Pools[i]
		}
	}
	if express == nil || express.JackpotPaid != top || express.Categories[0].Jackpot != top {
		t.Fatalf("the 3-of-3 coupons did not take the jackpot: %+v", express)
	}
	bal, _, _ := h.Svc.Jackpot(h.Ctx)
	if bal != d.Result.JackpotAfter || bal != express.JackpotContribution {
		t.Errorf("jackpot after %s, result says %s, contribution %s", bal, d.Result.JackpotAfter, express.JackpotContribution)
	}
	if err := h.Svc.SetJackpotEnabled(h.Ctx, 7, false); err != nil {
		t.Fatal(err)
	}
	d = h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 && x.Phase == tote.PhasePreDeal })
	h.MustBet(1, d, parimutuel.MarketWin, "1", money.Tenge(100))
	h.MustBet(1, d, parimutuel.MarketWin, "2", money.Tenge(100))
	h.MustBet(1, d, parimutuel.MarketWin, "3", money.Tenge(100))
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	if d.Result.JackpotEnabled || d.Result.Pools[0].JackpotContribution != 0 {
		t.Errorf("a disabled jackpot took a contribution: %+v", d.Result.Pools[0])
	}
	if after, _, _ := h.Svc.Jackpot(h.Ctx); after != bal {
		t.Errorf("disabled jackpot moved from %s to %s", bal, after)
	}
}

func testTablesAdmin(t *testing.T, env Env) {
	h := NewHarness(t, env, 2)
	bad := []struct {
		nt     service.NewTable
		reason string
	}{
		{service.NewTable{Name: "big", Positions: 11}, "INVALID_TABLE_SIZE"},
		{service.NewTable{Name: " padded", Positions: 6}, "INVALID_TABLE_NAME"},
		{service.NewTable{Name: "cheap", Positions: 6, Update: tote.SettingsUpdate{MinStake: ptr(money.Tenge(100) - 1)}}, "MIN_STAKE_TOO_LOW"},
		{service.NewTable{Name: "greedy", Positions: 6, Update: tote.SettingsUpdate{Commission: ptr(money.BasisPoints(299))}}, "COMMISSION_TOO_LOW"},
		{service.NewTable{Name: "shares", Positions: 6, Update: tote.SettingsUpdate{ExpressShares: &[2]money.BasisPoints{5000, 4000}}}, "INVALID_POOL_CONFIG"},
		{service.NewTable{Name: h.Table.Name, Positions: 6}, ""},
	}
	for _, c := range bad {
		_, err := h.Svc.CreateTable(h.Ctx, 1, c.nt)
		if c.reason == "" {
			errstest.Code(t, err, errs.Conflict)
		} else {
			errstest.Is(t, err, errs.Invalid, c.reason)
		}
	}
	h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	if _, err := h.Svc.PauseTable(h.Ctx, 1, h.Table.ID); err != nil {
		t.Fatal(err)
	}
	d := h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	for range 50 { // a paused table opens nothing
		h.Clock.Advance(h.Dealer.Tick(h.Ctx))
	}
	if got := h.Draw(); got.ID != d.ID {
		t.Fatalf("paused table opened draw %d", got.Number)
	}
	if _, err := h.Svc.ResumeTable(h.Ctx, 1, h.Table.ID); err != nil {
		t.Fatal(err)
	}
	h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 })
	var seen []tote.EventType
	for _, e := range h.Events() {
		if e.Type == tote.EventTablePaused || e.Type == tote.EventTableResumed {
			seen = append(seen, e.Type)
		}
	}
	if len(seen) != 2 || seen[0] != tote.EventTablePaused {
		t.Errorf("pause/resume events %v", seen)
	}
}

func ptr[T any](v T) *T { return &v }

func testResults(t *testing.T, env Env) {
	h := NewHarness(t, env, 2)
	first := h.RunUntil(h.Dealer, "SETTLED 1", InPhase(tote.PhaseSettled))
	second := h.RunUntil(h.Dealer, "SETTLED 2", func(x tote.Draw) bool { return x.Number == 2 && x.Phase == tote.PhaseSettled })
	h.RunUntil(h.Dealer, "draw 3", func(x tote.Draw) bool { return x.Number == 3 })
	got, err := env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, Limit: 10})
	if err != nil || len(got) != 2 || got[0].ID != second.ID || got[1].ID != first.ID {
		t.Fatalf("results %v %v", drawIDs(got), err)
	}
	if resultJSON(t, got[0].Result) != resultJSON(t, second.Result) {
		t.Error("stored result changed")
	}
	got, _ = env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, Before: second.ID, Limit: 10})
	if len(got) != 1 || got[0].ID != first.ID {
		t.Errorf("page after %d: %v", second.ID, drawIDs(got))
	}
	got, _ = env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, Oldest: true, Limit: 1})
	if len(got) != 1 || got[0].ID != first.ID {
		t.Errorf("oldest first: %v", drawIDs(got))
	}
	got, _ = env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, After: first.ID, Oldest: true, Limit: 10})
	if len(got) != 1 || got[0].ID != second.ID {
		t.Errorf("page newer than %d: %v", first.ID, drawIDs(got))
	}
	got, _ = env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, From: first.SettledAt.Add(time.Second), Limit: 10})
	if len(got) != 1 || got[0].ID != second.ID {
		t.Errorf("from filter: %v", drawIDs(got))
	}
	got, _ = env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, To: second.SettledAt, Limit: 10})
	if len(got) != 1 || got[0].ID != first.ID {
		t.Errorf("to filter: %v", drawIDs(got))
	}
	got, _ = env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID + 999, Limit: 10})
	if len(got) != 0 {
		t.Errorf("other table: %v", drawIDs(got))
	}
}

func drawIDs(ds []tote.Draw) []int64 {
	var out []int64
	for _, d := range ds {
		out = append(out, d.ID)
	}
	return out
}
