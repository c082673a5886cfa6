package totetest

import (
	"fmt"
	"sync"
	"sync/atomic"
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
)

// testSuspendedSelections (SPEC 1.9): SUSPEND_AT lowered to 50 % applies
// from the next draw; on two positions some WIN selection then reaches it
// in every round after the deal (the two positions' chances of winning or
// tying add up to at least 1), and a bet on it is refused with
// SELECTION_SUSPENDED, is not stored and moves no money, while the same
// round takes bets on selections below the line.
func testSuspendedSelections(t *testing.T, env Env) {
	h := NewHarness(t, env, 2)
	h.Deposit(1, money.Tenge(100_000))
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	half := money.BasisPoints(5000)
	if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{SuspendAt: &half}); err != nil {
		t.Fatal(err)
	}
	above := money.BasisPoints(9001)
	_, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{SuspendAt: &above})
	errstest.Is(t, err, errs.Invalid, tote.ReasonInvalidSuspendAt)
	if d.SuspendAt != tote.SuspendAtMax || h.Draw().SuspendAt != tote.SuspendAtMax {
		t.Fatalf("the open draw's SUSPEND_AT changed: %d", h.Draw().SuspendAt)
	}
	h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	d = h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 && x.Phase == tote.PhasePreDeal })
	if d.SuspendAt != half {
		t.Fatalf("draw 2 opened with SUSPEND_AT %d, want %d", d.SuspendAt, half)
	}
	for _, phase := range []tote.Phase{tote.PhasePocket, tote.PhaseFlop, tote.PhaseTurn} {
		d = h.RunUntil(h.Dealer, string(phase), InPhase(phase))
		r := d.OpenRound()
		if len(d.Chances) == 0 || d.Chances[len(d.Chances)-1].Round != r {
			t.Fatalf("round %s opened without its chances: %+v", r, d.Chances)
		}
		suspended := 0
		for p := 1; p <= 2; p++ {
			sel := parimutuel.WinSelection(p)
			c, sus := d.Suspended(r, sel)
			if c.Of == 0 {
				t.Fatalf("round %s has no chance for WIN %d", r, p)
			}
			before := h.Balance(ledger.UserWallet(1))
			key := fmt.Sprintf("suspended-%s-%d", r, p)
			_, err := h.Svc.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: 1, DrawID: d.ID, Market: parimutuel.MarketWin, Selection: sel.String(), Stake: money.Tenge(1000), IdempotencyKey: key})
			if !sus {
				if err != nil {
					t.Fatalf("round %s WIN %d below the line (%d of %d): %v", r, p, c.Paid, c.Of, err)
				}
				continue
			}
			suspended++
			errstest.Is(t, err, errs.Conflict, tote.ReasonSelectionSuspended)
			if _, err := env.Store.BetByKey(h.Ctx, 1, key); !errs.Is(err, errs.NotFound) {
				t.Errorf("a refused bet was stored: %v", err)
			}
			if after := h.Balance(ledger.UserWallet(1)); after != before {
				t.Errorf("a refused bet moved money: %s → %s", before, after)
			}
		}
		if suspended == 0 {
			t.Fatalf("round %s: no WIN selection at 50 %% on two positions: %+v", r, d.Chances)
		}
		var opened *tote.TableEvent
		for _, e := range h.Events() {
			if e.Type == tote.EventRoundOpened && e.DrawID == d.ID && e.Round == r {
				opened = &e
			}
		}
		if opened == nil || opened.Chances == nil || opened.SuspendAt != half || len(opened.Chances.Chances) != len(d.Chances[len(d.Chances)-1].Chances) {
			t.Fatalf("ROUND_OPENED of round %s does not publish the chances: %+v", r, opened)
		}
	}
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	h.CheckBooks(d)
	if len(d.Result.Chances) != 3 || d.Result.SuspendAt != half {
		t.Fatalf("the result publishes %d rounds of chances at %d", len(d.Result.Chances), d.Result.SuspendAt)
	}
	if v := verify.Result(*d.Result); len(v.Problems) > 0 || !v.SuspensionsMatch {
		t.Fatalf("the result does not verify: %v", v.Problems)
	}
}

// testSuspendedRace: bets on both positions of a two-position table at
// SUSPEND_AT 50 % stream in while the dealer deals the last pocket and
// opens round 2; no bet on a selection the round opened suspended is ever
// accepted, whichever path (the intake's transaction, the Postgres fast
// path) took it, and every refusal moved no money.
func testSuspendedRace(t *testing.T, env Env) {
	h := NewHarness(t, env, 2)
	half := money.BasisPoints(5000)
	if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{SuspendAt: &half}); err != nil {
		t.Fatal(err)
	}
	workers, per := 4, 60
	if env.Concurrent {
		workers, per = 12, 80
	}
	for u := range workers {
		h.Deposit(int64(100+u), money.Tenge(1_000_000))
	}
	d := h.RunUntil(h.Dealer, "DEALING_POCKET", InPhase(tote.PhaseDealingPocket))
	d = h.RunUntil(h.Dealer, "the last pocket due", func(x tote.Draw) bool { return len(x.Pockets) == x.Positions-1 })
	bettors, err := service.New(service.Config{Store: env.Store, Ledger: env.Ledger, Gate: AllowAll{}, Publisher: h.Pub, Clock: h.Clock, Pools: h.Parts.Signals})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var accepted []tote.Bet
	var closed, refused atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Go(func() {
			<-start
			answered := 0
			for i := 0; answered < per && i < 100_000; i++ {
				b, err := bettors.PlaceBet(h.Ctx, tote.PlaceBetRequest{UserID: ids.UserID(100 + w), DrawID: d.ID, Market: parimutuel.MarketWin,
					Selection: itoa(1 + (w+i)%2), Stake: money.Tenge(100) + money.Amount(i), IdempotencyKey: fmt.Sprintf("srace-%d-%d", w, i)})
				switch errs.ReasonOf(err) {
				case tote.ReasonRoundClosed:
					closed.Add(1)
					continue
				case tote.ReasonSelectionSuspended:
					refused.Add(1)
				case "":
					mu.Lock()
					accepted = append(accepted, b)
					mu.Unlock()
				default:
					t.Errorf("bet: %v", err)
					return
				}
				answered++
			}
		})
	}
	close(start)
	for closed.Load() < int64(workers) { // bets are knocking on the closed round
		h.Dealer.Tick(h.Ctx)
		if h.Draw().Phase == tote.PhasePocket {
			break
		}
	}
	opened := h.RunUntil(h.Dealer, "POCKET", InPhase(tote.PhasePocket))
	wg.Wait()
	if refused.Load() == 0 {
		t.Fatalf("no bet met a suspended selection (%d accepted, %d before the opening)", len(accepted), closed.Load())
	}
	var sum money.Amount
	for _, b := range accepted {
		if _, sus := opened.Suspended(b.Round, b.Selection); sus {
			t.Errorf("bet %d on suspended %s %s accepted", b.ID, b.Selection.Market, b.Selection)
		}
		sum += b.Stake
	}
	if got := h.Balance(ledger.EscrowOf(tote.PoolID(d.ID, parimutuel.RoundPocket, parimutuel.MarketWin))); got != sum {
		t.Errorf("escrow holds %s, accepted stakes %s", got, sum)
	}
	t.Logf("%d refused before the opening, %d refused as suspended, %d accepted", closed.Load(), refused.Load(), len(accepted))
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	h.CheckBooks(d)
}
