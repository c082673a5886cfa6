package totetest

import (
	"slices"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// RunRetention is the conformance test of tote.EventRetention: newEnv's
// store must implement it. A finished draw's events older than the cut-off
// go, in seq order, batch by batch; the draw in progress keeps its events
// whatever their age; results stay; a resume from a pruned seq is refused
// with EVENTS_PRUNED and one from the watermark replays without a gap.
func RunRetention(t *testing.T, newEnv func(t *testing.T) Env) {
	env := newEnv(t)
	ret, ok := env.Store.(tote.EventRetention)
	if !ok {
		t.Fatalf("%T does not implement tote.EventRetention", env.Store)
	}
	h := NewHarness(t, env, 2)
	h.Deposit(1, money.Tenge(10_000))
	d1 := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	h.MustBet(1, d1, parimutuel.MarketWin, "1", money.Tenge(100))
	h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	d2 := h.RunUntil(h.Dealer, "the next draw", func(d tote.Draw) bool { return d.ID != d1.ID && d.Phase == tote.PhasePreDeal })
	all := h.Events()
	d2First := int64(0)
	for _, e := range all {
		if e.DrawID == d2.ID {
			d2First = e.Seq
			break
		}
	}
	if d2First <= 3 {
		t.Fatalf("draw %d starts at seq %d of %d events; the test needs a finished draw before it", d2.ID, d2First, len(all))
	}
	first := func() int64 {
		t.Helper()
		f, err := ret.FirstRetainedSeq(h.Ctx, h.Table.ID)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	prune := func(before time.Time, batch int) int {
		t.Helper()
		n, err := ret.PruneEvents(h.Ctx, before, batch)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if f := first(); f != 1 {
		t.Fatalf("FirstRetainedSeq before pruning = %d, want 1", f)
	}
	if n := prune(Start.Add(-time.Hour), 1000); n != 0 || first() != 1 {
		t.Fatalf("pruning before every event deleted %d, first %d", n, first())
	}
	if err := tote.ResumeFrom(h.Ctx, env.Store, h.Table.ID, 0); err != nil {
		t.Fatalf("resume from 0 before pruning: %v", err)
	}

	future := h.Clock.Now().Add(time.Hour)
	if n := prune(future, 3); n != 3 || first() != 4 {
		t.Fatalf("a batch of 3 deleted %d, first retained %d; want 3 and 4", n, first())
	}
	for prune(future, 2) > 0 {
	}
	if f := first(); f != d2First {
		t.Fatalf("after pruning everything due the first retained seq is %d; want %d, the first of the unfinished draw %d", f, d2First, d2.ID)
	}
	rest := h.Events()
	if len(rest) != len(all)-int(d2First-1) || rest[0].Seq != d2First || rest[len(rest)-1].Seq != all[len(all)-1].Seq {
		t.Fatalf("%d events remain from seq %d; want %d from %d", len(rest), rest[0].Seq, len(all)-int(d2First-1), d2First)
	}
	if n := prune(future, 1000); n != 0 {
		t.Fatalf("pruned %d events of the draw in progress", n)
	}

	err := tote.ResumeFrom(h.Ctx, env.Store, h.Table.ID, d2First-2)
	if errs.CodeOf(err) != errs.Invalid || errs.ReasonOf(err) != tote.ReasonEventsPruned {
		t.Fatalf("resume after pruned seq %d: %v, want BAD_USER_INPUT %s", d2First-2, err, tote.ReasonEventsPruned)
	}
	if err := tote.ResumeFrom(h.Ctx, env.Store, h.Table.ID, d2First-1); err != nil {
		t.Fatalf("resume from the watermark refused: %v", err)
	}
	if page, err := env.Store.EventsAfter(h.Ctx, h.Table.ID, d2First-1, 2); err != nil || len(page) != 2 || page[0].Seq != d2First {
		t.Fatalf("EventsAfter(watermark) = %v, %v", page, err)
	}

	got, err := env.Store.Draw(h.Ctx, d1.ID)
	if err != nil || got.Phase != tote.PhaseSettled || got.Result == nil {
		t.Fatalf("the pruned draw's result is gone: %+v, %v", got, err)
	}
	res, err := env.Store.Results(h.Ctx, tote.ResultQuery{TableID: h.Table.ID, Limit: 10})
	if err != nil || len(res) != 1 || res[0].ID != d1.ID {
		t.Fatalf("results after pruning = %v, %v", drawIDs(res), err)
	}
	checkWitnessesKept(t, got, all)
	h.CheckJackpotChain()
}

// checkWitnessesKept: once a draw's DRAW_OPENED and ROUND_CLOSED events
// are pruned, the draw itself still holds what they published (SPEC 4:
// never a draw's commitment, beacon rounds or bet roots), so a player's
// record of them can be checked however old the draw.
func checkWitnessesKept(t *testing.T, d tote.Draw, events []tote.TableEvent) {
	t.Helper()
	var roots int
	for _, e := range events {
		if e.DrawID != d.ID {
			continue
		}
		switch e.Type {
		case tote.EventDrawOpened:
			if e.Commitment == "" || cards.FormatCommitment(d.Commitment) != e.Commitment {
				t.Errorf("draw %d: commitment %s kept, DRAW_OPENED published %s", d.ID, cards.FormatCommitment(d.Commitment), e.Commitment)
			}
			if e.Beacons == nil || d.Beacons == nil || d.Beacons.Rounds != e.Beacons.Rounds ||
				slices.ContainsFunc([]int{0, 1, 2, 3}, func(i int) bool { return !d.Beacons.ClosesAt[i].Equal(e.Beacons.ClosesAt[i]) }) {
				t.Errorf("draw %d: beacons %+v kept, DRAW_OPENED published %+v", d.ID, d.Beacons, e.Beacons)
			}
			if d.Result == nil || d.Result.Commitment != e.Commitment || d.Result.Beacons == nil || d.Result.Beacons.Rounds != e.Beacons.Rounds {
				t.Errorf("draw %d: the result's commitment and rounds are not DRAW_OPENED's", d.ID)
			}
		case tote.EventRoundClosed:
			if e.BetRoot == nil {
				continue
			}
			roots++
			if !slices.ContainsFunc(d.BetRoots, func(r betroot.Root) bool { return r.Round == e.BetRoot.Round && r.Root == e.BetRoot.Root }) {
				t.Errorf("draw %d: bet roots %+v kept, ROUND_CLOSED published %+v", d.ID, d.BetRoots, e.BetRoot)
			}
		}
	}
	if roots == 0 || len(d.BetRoots) != roots {
		t.Errorf("draw %d: %d bet roots kept, %d published", d.ID, len(d.BetRoots), roots)
	}
}
