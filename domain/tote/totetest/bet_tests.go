package totetest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/verify"
	"github.com/pokertote/pokertote/internal/clocktest"
)

func testBetChecks(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	h.Deposit(1, money.Tenge(10_000))
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	cases := []struct {
		name         string
		m            parimutuel.Market
		sel          string
		stake        money.Amount
		code         errs.Code
		reason       string
		user, drawID int64
	}{
		{"below the minimum", parimutuel.MarketWin, "1", money.Tenge(100) - 1, errs.Invalid, "STAKE_TOO_LOW", 1, 0},
		{"above the maximum", parimutuel.MarketWin, "1", money.Tenge(1_000_000) + 1, errs.Invalid, "STAKE_TOO_HIGH", 1, 0},
		{"position off the table", parimutuel.MarketWin, "7", money.Tenge(100), errs.Invalid, "POSITION_OUT_OF_RANGE", 1, 0},
		{"malformed selection", parimutuel.MarketCombination, "flush", money.Tenge(100), errs.Invalid, "INVALID_SELECTION", 1, 0},
		{"unknown market", "PLACE", "1", money.Tenge(100), errs.Invalid, "UNKNOWN_MARKET", 1, 0},
		{"no money", parimutuel.MarketWin, "1", money.Tenge(100), errs.Conflict, "INSUFFICIENT_FUNDS", 9, 0},
		{"no such draw", parimutuel.MarketWin, "1", money.Tenge(100), errs.NotFound, "NOT_FOUND", 1, d.ID + 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := d.ID
			if c.drawID != 0 {
				id = c.drawID
			}
			key := "checks-" + c.name
			_, err := h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: ids.UserID(c.user), DrawID: id, Market: c.m, Selection: c.sel, Stake: c.stake, IdempotencyKey: key})
			errstest.Is(t, err, c.code, c.reason)
			if _, err := env.Store.BetByKey(h.Ctx, ids.UserID(c.user), key); !errs.Is(err, errs.NotFound) {
				t.Errorf("a refused bet was stored: %v", err)
			}
		})
	}
	if b := h.Balance(ledger.UserWallet(1)); b != money.Tenge(10_000) {
		t.Fatalf("refused bets moved money: wallet %s", b)
	}
}

// testBetTiming: bets after the deadline, while cards are dealt, on a
// market the round does not offer, on a finished draw; and a minimum stake
// changed during a draw applies from the next one.
func testBetTiming(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	h.Deposit(1, money.Tenge(10_000))
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	// The deadline has passed but the dealer has not closed the round yet.
	h.Clock.Advance(d.RoundClosesAt.Sub(h.Clock.Now()))
	_, err := h.Bet(1, d, parimutuel.MarketWin, "1", money.Tenge(100))
	errstest.Is(t, err, errs.Conflict, "ROUND_CLOSED")
	d = h.RunUntil(h.Dealer, "DEALING_POCKET", InPhase(tote.PhaseDealingPocket))
	_, err = h.Bet(1, d, parimutuel.MarketWin, "1", money.Tenge(100))
	errstest.Is(t, err, errs.Conflict, "ROUND_CLOSED")
	d = h.RunUntil(h.Dealer, "FLOP", InPhase(tote.PhaseFlop))
	_, err = h.Bet(1, d, parimutuel.MarketExpress, "1-1-1", money.Tenge(100))
	errstest.Is(t, err, errs.Invalid, "MARKET_NOT_OFFERED_IN_ROUND")

	// The minimum stake changes from the next draw only (rule 9).
	two := money.Tenge(200)
	if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{MinStake: &two}); err != nil {
		t.Fatal(err)
	}
	// The old minimum still holds in this draw, on a position the deal has
	// not suspended (SPEC 1.9: one of six may be at 90 % after the flop).
	h.MustBet(1, d, parimutuel.MarketWin, h.OpenWin(d), money.Tenge(150))
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	_, err = h.Bet(1, d, parimutuel.MarketWin, "1", money.Tenge(100))
	errstest.Is(t, err, errs.Conflict, "DRAW_FINISHED")
	d = h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 })
	if d.MinStake != two {
		t.Fatalf("draw 2 min stake %s, want %s", d.MinStake, two)
	}
	_, err = h.Bet(1, d, parimutuel.MarketWin, "1", money.Tenge(150))
	errstest.Is(t, err, errs.Invalid, "STAKE_TOO_LOW")
}

func testBetIdempotency(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	h.Deposit(1, money.Tenge(10_000))
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	req := tote.PlaceBetRequest{UserID: 1, DrawID: d.ID, Market: parimutuel.MarketWin, Selection: "3", Stake: money.Tenge(250), IdempotencyKey: "same"}
	n := 1
	if env.Concurrent {
		n = 8
	}
	ids := make(chan int64, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			b, err := h.Svc.PlaceBet(h.Ctx, req)
			if err != nil {
				t.Errorf("place: %v", err)
			}
			ids <- b.ID
		})
	}
	wg.Wait()
	close(ids)
	first := <-ids
	for id := range ids {
		if id != first {
			t.Fatalf("same key gave bets %d and %d", first, id)
		}
	}
	again, err := h.Svc.PlaceBet(h.Ctx, req)
	if err != nil || again.ID != first {
		t.Fatalf("retry gave %+v, %v", again, err)
	}
	if b := h.Balance(ledger.UserWallet(1)); b != money.Tenge(10_000-250) {
		t.Fatalf("wallet %s after one bet placed %d times", b, n+1)
	}
	other := req
	other.Stake = money.Tenge(300)
	_, err = h.Svc.PlaceBet(h.Ctx, other)
	errstest.Is(t, err, errs.Conflict, "IDEMPOTENCY_KEY_REUSED")
}

// testCloseRace races many bets against the close of round 1. The bettors'
// service runs on a clock that never reaches the deadline, so only the
// database check decides; every bet must either be in the closed round's
// pools (and the public seed the close fixed) or have moved no money.
func testCloseRace(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	workers, before := 4, 20
	if env.Concurrent {
		workers, before = 16, 300
	}
	for u := range workers {
		h.Deposit(int64(100+u), money.Tenge(1_000_000))
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	bettors, err := service.New(service.Config{Store: env.Store, Ledger: env.Ledger, Gate: AllowAll{}, Publisher: h.Pub, Clock: clocktest.New(Start), Pools: h.Parts.Signals})
	if err != nil {
		t.Fatal(err)
	}
	accepted := raceBets(t, h, bettors, d, workers, before, func() {
		h.Clock.Advance(d.RoundClosesAt.Sub(h.Clock.Now()))
		h.Dealer.Tick(h.Ctx) // closes round 1 while bets are in flight
	})
	closed := h.Draw()
	if closed.Phase != tote.PhaseDealingPocket {
		t.Fatalf("round 1 not closed: %s", closed.Phase)
	}
	var sum money.Amount
	for _, b := range accepted {
		sum += b.Stake
	}
	if closed.Beacons == nil || closed.Beacons.Signatures != [4]string{} {
		t.Errorf("at the close of round 1 no beacon may be known yet: %+v", closed.Beacons)
	}
	if got := h.Balance(ledger.EscrowOf(tote.PoolID(d.ID, 1, parimutuel.MarketWin))); got != sum {
		t.Errorf("escrow holds %s, accepted stakes %s", got, sum)
	}
	t.Logf("%d bets accepted, the close came after %d", len(accepted), before)
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	h.CheckBooks(d)
	checkSettledBets(h, d, accepted)
	deposits := map[int64]money.Amount{}
	for u := range workers {
		deposits[int64(100+u)] = money.Tenge(1_000_000)
	}
	checkWallets(h, deposits, d.ID)
}

// raceBets has workers place bets on d until the round closes; closeRound runs
// once `before` bets are in. It returns the accepted bets.
func raceBets(t *testing.T, h *Harness, bettors *service.Service, d tote.Draw, workers, before int, closeRound func()) []tote.Bet {
	var mu sync.Mutex
	var accepted []tote.Bet
	enough := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range 5000 {
				b, err := bettors.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: ids.UserID(100 + w), DrawID: d.ID, Market: parimutuel.MarketWin,
					Selection: itoa(1 + (w+i)%6), Stake: money.Tenge(100) + money.Amount(i), IdempotencyKey: fmt.Sprintf("race-%d-%d", w, i)})
				if errs.ReasonOf(err) == "ROUND_CLOSED" {
					return
				}
				if err != nil {
					t.Errorf("bet: %v", err)
					return
				}
				mu.Lock()
				accepted = append(accepted, b)
				if len(accepted) == before {
					close(enough)
				}
				mu.Unlock()
			}
		})
	}
	<-enough // bets are streaming in: close the round under them
	closeRound()
	wg.Wait()
	return accepted
}

func testAdminVoid(t *testing.T, env Env) {
	h := NewHarness(t, env, 6)
	for u := int64(1); u <= 3; u++ {
		h.Deposit(u, money.Tenge(100_000))
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	placed := placeEverywhere(h, d)
	_, err := h.Svc.VoidDraw(h.Ctx, 1, d.ID, "")
	errstest.Is(t, err, errs.Invalid, "INVALID_REASON")
	v, err := h.Svc.VoidDraw(h.Ctx, 1, d.ID, "camera failure")
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase != tote.PhaseVoid || !v.Revealed || v.Result == nil || !v.Result.Void || v.VoidKind != tote.VoidAdminBeforeDeal {
		t.Fatalf("voided draw %+v", v)
	}
	if vd := v.Result.VoidDetail; vd == nil || vd.Kind != tote.VoidAdminBeforeDeal || vd.Why != "camera failure" {
		t.Errorf("void detail %+v", vd)
	}
	h.CheckBooks(v)
	checkSettledBets(h, v, placed)
	for u := int64(1); u <= 3; u++ {
		if b := h.Balance(ledger.UserWallet(ids.UserID(u))); b != money.Tenge(100_000) {
			t.Errorf("user %d has %s after the void, want every stake back", u, b)
		}
	}
	bets, _ := env.Store.DrawBets(h.Ctx, v.ID)
	for _, b := range bets {
		if b.Status != tote.BetRefunded || b.Payout != b.Stake {
			t.Errorf("bet %d: %s %s of %s", b.ID, b.Status, b.Payout, b.Stake)
		}
	}
	if _, ver, err := verify.Draw(h.Ctx, h.Svc, v.ID); err != nil || len(ver.Problems) > 0 || !ver.CardsMatch {
		t.Errorf("verify void draw: %+v %v", ver, err)
	}
	_, err = h.Svc.VoidDraw(h.Ctx, 1, d.ID, "again")
	errstest.Is(t, err, errs.Conflict, "DRAW_FINISHED")
	evs := h.Events()
	if last := evs[len(evs)-1]; last.Type != tote.EventDrawVoided || last.Reason != "voided by an admin before betting round 1 closed: camera failure" {
		t.Errorf("last event %+v", last)
	}
	// The dealer notices and goes on with the next draw; once its round 1
	// has closed, no admin can void it: not while the pockets are dealt,
	// not in a later round, not after the river.
	d2 := h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 && x.Phase == tote.PhasePreDeal })
	placeEverywhere(h, d2)
	for _, ph := range []tote.Phase{tote.PhaseDealingPocket, tote.PhasePocket, tote.PhaseTurn, tote.PhaseSettling} {
		x := h.RunUntil(h.Dealer, string(ph), func(x tote.Draw) bool { return x.ID == d2.ID && (x.Phase == ph || x.Phase.Finished()) })
		if x.Phase.Finished() {
			break
		}
		_, err = h.Svc.VoidDraw(h.Ctx, 1, d2.ID, "the house dislikes the cards")
		errstest.Is(t, err, errs.Conflict, "VOID_AFTER_DEAL")
	}
	s := h.RunUntil(h.Dealer, "settled", func(x tote.Draw) bool { return x.ID == d2.ID && x.Phase.Finished() })
	if s.Phase != tote.PhaseSettled {
		t.Errorf("draw 2 ended %s (%s)", s.Phase, s.VoidReason)
	}
	counts, err := h.Svc.VoidCounts(h.Ctx, h.Table.ID)
	if err != nil || len(counts) != len(tote.VoidKinds) || counts[0] != (tote.VoidCount{Kind: tote.VoidAdminBeforeDeal, Count: 1}) || counts[1].Count != 0 {
		t.Errorf("void counts %+v %v", counts, err)
	}
}
