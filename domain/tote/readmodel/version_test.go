package readmodel_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// TestVersionCoversEveryChange checks what the lobby's cached answer relies
// on: while events are folded, draws reloaded and settings refreshed, every
// listing of the tables made while Version said, before and after it, the
// same count with no change under way is the same listing; and the count
// moves with each kind of change.
func TestVersionCoversEveryChange(t *testing.T) {
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: store, Ledger: led}, 2)
	hub := event.NewHub()
	t.Cleanup(hub.Close)
	live := readmodel.New(store, hub, nil, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = live.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	<-live.Ready()

	var (
		mu    sync.Mutex
		seen  = map[uint64][]*readmodel.LiveTable{}
		wrong []string
		stop  = make(chan struct{})
		ended = make(chan struct{})
	)
	go func() {
		defer close(ended)
		for {
			select {
			case <-stop:
				return
			default:
			}
			n0, ok0 := live.Version()
			ts := live.Tables()
			n1, ok1 := live.Version()
			if !ok0 || !ok1 || n0 != n1 {
				continue
			}
			mu.Lock()
			if first, ok := seen[n0]; !ok {
				seen[n0] = ts
			} else if fmt.Sprint(first) != fmt.Sprint(ts) && len(wrong) < 5 {
				wrong = append(wrong, fmt.Sprintf("at version %d the tables were %v, then %v", n0, first, ts))
			}
			mu.Unlock()
		}
	}()
	moved := func(what string, before uint64, change func()) uint64 {
		t.Helper()
		change()
		for range 400 {
			// Wait until the reader has listed the tables at the new
			// version too: the next change is then compared with it.
			n, ok := live.Version()
			mu.Lock()
			_, read := seen[n]
			mu.Unlock()
			if ok && n > before && read {
				return n
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("%s: the version stayed at %d, or the reader did not list the tables at the new one", what, before)
		return 0
	}

	v, ok := live.Version()
	if !ok {
		t.Fatal("a change under way with nothing happening")
	}
	// Events, each folded, and the draw reloaded after them.
	h.RunUntil(h.Dealer, "the flop", totetest.InPhase(tote.PhaseFlop))
	evs := h.Events()
	if len(evs) < 3 {
		t.Fatalf("%d events", len(evs))
	}
	for _, e := range evs {
		v = moved("event "+string(e.Type), v, func() { hub.Deliver(event.TableTopic(e.TableID), e.Encode()) })
	}
	// Settings, which publish no event: a mutation's Sync.
	minStake := money.Tenge(500)
	tb, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{MinStake: &minStake})
	if err != nil {
		t.Fatal(err)
	}
	moved("settings", v, func() { live.Sync(h.Ctx, tb) })
	lt, _ := live.Table(h.Table.ID)
	if lt.Table.Settings.MinStake != minStake {
		t.Fatalf("min stake %s after Sync", lt.Table.Settings.MinStake)
	}
	close(stop)
	<-ended
	mu.Lock()
	defer mu.Unlock()
	for _, s := range wrong {
		t.Error(s)
	}
	if len(seen) < len(evs)+1 {
		t.Errorf("the reader saw %d versions, want at least %d", len(seen), len(evs)+1)
	}
}
