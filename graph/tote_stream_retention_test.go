package graph_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// TestTableEventsResumeAfterPruning: once a settled draw's events are
// pruned, a resume from before the watermark starts with a snapshot of the
// table as it is now (it stands for the pruned events); a resume from the
// watermark replays the rest in order.
func TestTableEventsResumeAfterPruning(t *testing.T) {
	w := newStreamWorld(t)
	d1 := w.h.RunUntil(w.h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	w.h.RunUntil(w.h.Dealer, "the next draw", func(d tote.Draw) bool { return d.ID != d1.ID && d.Phase == tote.PhasePreDeal })
	ret := w.h.Env.Store.(tote.EventRetention)
	if _, err := ret.PruneEvents(w.h.Ctx, w.h.Clock.Now().Add(time.Hour), 1000); err != nil {
		t.Fatal(err)
	}
	first, err := ret.FirstRetainedSeq(w.h.Ctx, w.h.Table.ID)
	if err != nil || first <= 1 {
		t.Fatalf("nothing pruned: first retained %d, %v", first, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := w.h.Events()
	w.caughtUp(evs) // the read model, which the snapshot shows, has seen everything
	for _, after := range []int64{0, first - 2} {
		ch := w.subscribe(t, ctx, &after)
		expectSnapshot(t, ch, evs[len(evs)-1].Seq)
	}
	after := first - 1
	ch := w.subscribe(t, ctx, &after)
	expect(t, ch, first, first+1)
}
