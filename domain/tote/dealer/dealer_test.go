package dealer_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/dealer"
	"github.com/pokertote/pokertote/domain/tote/liveodds"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/internal/clocktest"
)

// A table of two positions deals one draw on a fake clock: the dealer's
// steps, each one transaction, with the events each appends to the outbox.
func ExampleDealer() {
	ctx := context.Background()
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	clock := clocktest.New(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	pub := &totetest.Recorder{}
	svc, _ := service.New(service.Config{Store: store, Ledger: led, Gate: totetest.AllowAll{}, Publisher: pub, Clock: clock})
	table, _ := svc.CreateTable(ctx, 1, service.NewTable{Name: "Example", Positions: 2})
	d := dealer.New(dealer.Parts{
		Store: store, Leases: store, Odds: &liveodds.Exact{Samples: 1000}, Beacon: totetest.LocalBeacon(clock), Clock: clock,
		Relay: outbox.NewRelay(store, pub, clock, nil, svc.Stats()), Stats: svc.Stats(),
	}, dealer.Config{TableID: table.ID, Owner: "replica-1"})

	start, seen := clock.Now(), int64(0)
	for {
		wait := d.Tick(ctx)
		evs, _ := store.EventsAfter(ctx, table.ID, seen, 100)
		var kinds []string
		for _, e := range evs {
			kinds = append(kinds, string(e.Type))
			seen = e.Seq
		}
		dr, _ := store.LatestDraw(ctx, table.ID)
		if len(kinds) > 0 {
			fmt.Printf("%5.1fs %-14s %s\n", clock.Now().Sub(start).Seconds(), dr.Phase.Public(), strings.Join(kinds, " "))
		}
		if dr.Phase == tote.PhaseSettled {
			break
		}
		clock.Advance(wait)
	}
	// Output:
	//   0.0s PRE_DEAL       DRAW_OPENED ROUND_OPENED
	//  30.0s DEALING_POCKET ROUND_CLOSED
	//  33.0s DEALING_POCKET CARDS_DEALT
	//  35.0s POCKET         CARDS_DEALT ROUND_OPENED ODDS_UPDATED
	//  55.0s DEALING_FLOP   ROUND_CLOSED
	//  58.0s FLOP           CARDS_DEALT ROUND_OPENED ODDS_UPDATED
	//  78.0s DEALING_TURN   ROUND_CLOSED
	//  81.0s TURN           CARDS_DEALT ROUND_OPENED ODDS_UPDATED
	// 101.0s DEALING_RIVER  ROUND_CLOSED
	// 104.0s DEALING_RIVER  CARDS_DEALT ODDS_UPDATED
	// 106.0s SETTLED        DRAW_SETTLED
}

func newHarness(t *testing.T, n int) *totetest.Harness {
	return totetest.NewHarness(t, totetest.MemEnv(t), n)
}

// TestPoolUpdatesCoalesce: bets arriving faster than the pool tick are
// published at most once per tick, and nothing is published while the pool
// does not change.
func TestPoolUpdatesCoalesce(t *testing.T) {
	h := newHarness(t, 6)
	h.Deposit(1, 1_000_000*money.KZT)
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	count := func() int {
		n := 0
		for _, e := range h.Events() {
			if e.Type == tote.EventPoolUpdated {
				n++
			}
		}
		return n
	}
	for tick := range 8 {
		for i := range 10 {
			h.MustBet(1, d, parimutuel.MarketWin, fmt.Sprint(1+(tick+i)%6), 100*money.KZT)
		}
		h.Clock.Advance(250 * time.Millisecond)
		h.Dealer.Tick(h.Ctx)
	}
	if got := count(); got != 8 {
		t.Fatalf("%d POOL_UPDATED for 8 ticks of new money, want 8", got)
	}
	for range 8 { // no new money: nothing published
		h.Clock.Advance(h.Dealer.Tick(h.Ctx))
	}
	if got := count(); got != 8 {
		t.Fatalf("%d POOL_UPDATED after quiet ticks, want still 8", got)
	}
	var last *tote.PoolView
	for _, e := range h.Events() {
		if e.Type == tote.EventPoolUpdated {
			last = e.Pool
		}
	}
	if last.Bets != 80 || last.Gross != 8000*money.KZT || len(last.Selections) != 6 {
		t.Fatalf("last pool %+v", last)
	}
	net := last.Gross - last.Gross*3/100 - last.Gross/10000 // N = G - 3% - 0.01%
	if last.Net != net {
		t.Errorf("net %s, want %s", last.Net, net)
	}
	for _, s := range last.Selections {
		if s.Implied != money.CoefOf(net, s.Stake) {
			t.Errorf("selection %s: implied %s, want %s", s.Selection, s.Implied, money.CoefOf(net, s.Stake))
		}
	}
}

// failingOdds fails every live computation, so the dealer cannot finish
// dealing the pockets.
type failingOdds struct{ totetest.SimpleOdds }

func (failingOdds) Live(context.Context, [][2]cards.Card, []cards.Card) (tote.LiveOdds, error) {
	return tote.LiveOdds{}, errors.New("odds engine down")
}

// TestDealerFailureNeverVoids: a failing odds engine does not stop the
// deal: after round 1 closes nothing but a missing beacon may void a draw
// (void.go), so the draw is dealt to the end and settled, without odds.
func TestDealerFailureNeverVoids(t *testing.T) {
	h := newHarness(t, 2)
	h.Deposit(1, 1000*money.KZT)
	parts := h.Parts
	parts.Odds = failingOdds{}
	broken := dealer.New(parts, dealer.Config{TableID: h.Table.ID, Owner: "A", LeaseTTL: 3 * time.Second})
	d := h.RunUntil(broken, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	h.MustBet(1, d, parimutuel.MarketWin, "1", 300*money.KZT)
	v := h.RunUntil(broken, "finished", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
	if v.Phase != tote.PhaseSettled {
		t.Fatalf("the draw ended %s: %q", v.Phase, v.VoidReason)
	}
	h.CheckBooks(v)
}

// TestTimeScale: a service with TimeScale 50 runs 30 s rounds in 600 ms.
func TestTimeScale(t *testing.T) {
	env := totetest.MemEnv(t)
	clock := clocktest.New(totetest.Start)
	pub := &totetest.Recorder{}
	svc, err := service.New(service.Config{Store: env.Store, Ledger: env.Ledger, Gate: totetest.AllowAll{}, Publisher: pub, Clock: clock, TimeScale: 50})
	if err != nil {
		t.Fatal(err)
	}
	table, err := svc.CreateTable(context.Background(), 1, service.NewTable{Name: "fast", Positions: 6})
	if err != nil {
		t.Fatal(err)
	}
	d := dealer.New(dealer.Parts{
		Store: env.Store, Leases: env.Leases, Odds: totetest.SimpleOdds{}, Beacon: totetest.LocalBeacon(clock), Clock: clock, TimeScale: 50,
		Relay: outbox.NewRelay(env.Store, pub, clock, nil, svc.Stats()), Stats: svc.Stats(),
	}, dealer.Config{TableID: table.ID, Owner: "A"})
	d.Tick(context.Background())
	dr, err := env.Store.LatestDraw(context.Background(), table.ID)
	if err != nil || dr.RoundClosesAt.Sub(dr.OpenedAt) != 600*time.Millisecond {
		t.Fatalf("round 1 lasts %s (%v), want 600ms", dr.RoundClosesAt.Sub(dr.OpenedAt), err)
	}
}

// TestExactOddsInEvents: the production odds engine's figures reach the
// events and the draw.
func TestExactOddsInEvents(t *testing.T) {
	h := newHarness(t, 3)
	parts := h.Parts
	parts.Odds = &liveodds.Exact{Samples: 2000}
	exact := dealer.New(parts, dealer.Config{TableID: h.Table.ID, Owner: "X"})
	d := h.RunUntil(exact, "FLOP", totetest.InPhase(tote.PhaseFlop))
	if d.Odds == nil || !d.Odds.Exact || d.Odds.Boards != 903 || len(d.Odds.Positions) != 3 || len(d.Odds.Leaders) == 0 {
		t.Fatalf("flop odds %+v", d.Odds) // 43 unseen cards, 2 to come: C(43,2) = 903
	}
	var eq float64
	for _, p := range d.Odds.Positions {
		eq += p.Equity
	}
	if eq < 0.999999 || eq > 1.000001 {
		t.Errorf("equities sum to %v", eq)
	}
	first := h.Events()[0]
	if first.Type != tote.EventDrawOpened || first.Odds == nil || first.Odds.SampleSize != 2000 || first.Odds.Exact {
		t.Errorf("pre-deal odds %+v", first.Odds)
	}
}

// Round 4's close leaves the draw DEALING_RIVER with four board cards; the
// river moves it to SETTLING, its own phase, which the API still shows as
// DEALING_RIVER; the settlement follows from there.
func TestRiverThenSettling(t *testing.T) {
	h := newHarness(t, 3)
	d := h.RunUntil(h.Dealer, "DEALING_RIVER", totetest.InPhase(tote.PhaseDealingRiver))
	if len(d.Board) != 4 {
		t.Fatalf("DEALING_RIVER with %d board cards, want 4", len(d.Board))
	}
	d = h.RunUntil(h.Dealer, "SETTLING", totetest.InPhase(tote.PhaseSettling))
	if len(d.Board) != 5 || d.Result != nil {
		t.Fatalf("SETTLING with %d board cards, result %v; want the river and no result yet", len(d.Board), d.Result)
	}
	if got := d.Phase.Public(); got != tote.PhaseDealingRiver {
		t.Fatalf("SETTLING is published as %s, want DEALING_RIVER", got)
	}
	tbl, err := h.Env.Store.Table(h.Ctx, d.TableID)
	if err != nil {
		t.Fatal(err)
	}
	v, err := readmodel.ViewOf(tbl, &d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Draw == nil || v.Draw.Phase != tote.PhaseDealingRiver {
		t.Fatalf("the read model's view of a SETTLING draw is %+v, want phase DEALING_RIVER", v.Draw)
	}
	d = h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	if len(d.Board) != 5 || d.Result == nil {
		t.Fatalf("SETTLED with %d board cards, result %v", len(d.Board), d.Result)
	}
}
