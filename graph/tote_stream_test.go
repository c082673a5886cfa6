package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/graph/model"
)

// hubPublisher delivers straight to a local hub, as the in-process broker
// does.
type hubPublisher struct{ hub *event.Hub }

func (p hubPublisher) Publish(_ context.Context, topic string, data []byte) error {
	p.hub.Deliver(topic, data)
	return nil
}

// streamWorld is a table whose dealer records its events (not delivered to
// the hub, so each test decides what arrives live) and a ToteAPI on a hub.
type streamWorld struct {
	h    *totetest.Harness
	hub  *event.Hub
	live *readmodel.Model
	svc  *service.Service
	api  *graph.ToteAPI
	// events is myEvents over the hub: the bets' and the wallet's events.
	events *graph.UserEventsAPI
}

func newStreamWorld(t *testing.T) *streamWorld {
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	h := totetest.NewHarness(t, totetest.Env{Store: store, Leases: store, Ledger: led}, 2)
	hub := event.NewHub()
	t.Cleanup(hub.Close)
	svc, err := service.New(service.Config{Store: store, Ledger: led, Gate: totetest.AllowAll{}, Publisher: hubPublisher{hub}, Clock: h.Clock})
	if err != nil {
		t.Fatal(err)
	}
	live := readmodel.New(store, hub, nil, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = live.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	<-live.Ready()
	api := graph.NewToteAPI(svc, live, nil)
	return &streamWorld{h: h, hub: hub, live: live, svc: svc, api: api, events: graph.NewUserEventsAPI(hub, nil, api, &graph.AccountsAPI{})}
}

// advance runs the dealer until the outbox holds at least n events.
func (w *streamWorld) advance(n int) []tote.TableEvent {
	w.h.T.Helper()
	for range 20 * n {
		if evs := w.h.Events(); len(evs) >= n {
			return evs
		}
		w.h.Clock.Advance(w.h.Dealer.Tick(w.h.Ctx))
	}
	w.h.T.Fatalf("fewer than %d events", n)
	return nil
}

func (w *streamWorld) deliver(e tote.TableEvent) {
	w.hub.Deliver(event.TableTopic(e.TableID), e.Encode())
}

// caughtUp delivers evs as the broker would and waits until the read model
// has applied the last.
func (w *streamWorld) caughtUp(evs []tote.TableEvent) {
	w.h.T.Helper()
	for _, e := range evs {
		w.deliver(e)
	}
	for range 200 {
		if lt, ok := w.live.Table(w.h.Table.ID); ok && lt.View.Seq >= evs[len(evs)-1].Seq {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.h.T.Fatal("the read model did not catch up")
}

func (w *streamWorld) subscribe(t *testing.T, ctx context.Context, after *int64) <-chan model.TableEvent {
	t.Helper()
	ch, err := w.api.TableEvents(ctx, id(w.h.Table.ID), after)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func id(n int64) string   { return strconv.FormatInt(n, 10) }
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// seqOf is a typed event's seq and a name for messages.
func seqOf(e model.TableEvent) (int64, string) {
	b, _ := json.Marshal(e)
	var m struct{ Seq int64 }
	_ = json.Unmarshal(b, &m)
	return m.Seq, fmt.Sprintf("%T", e)
}

// expect reads the next events and checks their seqs.
func expect(t *testing.T, ch <-chan model.TableEvent, seqs ...int64) {
	t.Helper()
	for _, want := range seqs {
		select {
		case e, ok := <-ch:
			if !ok {
				t.Fatalf("stream ended, want seq %d", want)
			}
			if seq, typ := seqOf(e); seq != want {
				t.Fatalf("got seq %d (%s), want %d", seq, typ, want)
			}
			if _, snap := e.(*model.TableSnapshot); snap {
				t.Fatalf("got a snapshot at seq %d, want the event", want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("no event, want seq %d", want)
		}
	}
}

// expectSnapshot reads the next event and checks it is a snapshot at seq.
func expectSnapshot(t *testing.T, ch <-chan model.TableEvent, seq int64) *model.TableSnapshot {
	t.Helper()
	select {
	case e := <-ch:
		s, ok := e.(*model.TableSnapshot)
		if !ok || s.Seq != seq {
			got, typ := seqOf(e)
			t.Fatalf("got %s at seq %d, want a snapshot at %d", typ, got, seq)
		}
		return s
	case <-time.After(2 * time.Second):
		t.Fatalf("no snapshot, want one at seq %d", seq)
	}
	return nil
}

func expectNothing(t *testing.T, ch <-chan model.TableEvent) {
	t.Helper()
	select {
	case e := <-ch:
		seq, typ := seqOf(e)
		t.Fatalf("unexpected %s seq %d", typ, seq)
	case <-time.After(50 * time.Millisecond):
	}
}

// TestTableEventsReplayDedupGap: a client resuming after seq 2 gets 3..n
// from the outbox, then live events, with duplicates dropped and a gap
// filled from the outbox before the event that revealed it.
func TestTableEventsReplayDedupGap(t *testing.T) {
	w := newStreamWorld(t)
	evs := w.advance(5)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	after := int64(2)
	ch := w.subscribe(t, ctx, &after)
	var seqs []int64
	for _, e := range evs[2:] {
		seqs = append(seqs, e.Seq)
	}
	expect(t, ch, seqs...)
	n := len(evs)
	w.deliver(evs[n-1]) // a duplicate
	expectNothing(t, ch)
	more := w.advance(n + 3)
	w.deliver(more[n+2]) // n+1 and n+2 were never delivered: filled from the outbox
	expect(t, ch, int64(n+1), int64(n+2), int64(n+3))
	w.deliver(more[n]) // late arrival of a filled one
	expectNothing(t, ch)
}

// TestTableEventsFromNow: without afterSeq the stream starts with one
// snapshot at the table's current sequence, with no replay.
func TestTableEventsFromNow(t *testing.T) {
	w := newStreamWorld(t)
	evs := w.advance(3)
	w.caughtUp(evs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := w.subscribe(t, ctx, nil)
	snap := expectSnapshot(t, ch, int64(len(evs)))
	d, err := w.svc.LatestDraw(ctx, w.h.Table.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Every pool of the draw, WIN and COMBINATION with a zero row per
	// selection: 4 rounds × 2 markets + EXPRESS in 2 rounds.
	if snap.Draw == nil || snap.Draw.DrawID != id(d.ID) || string(snap.Draw.Phase) != string(d.Phase) || len(snap.Draw.Positions) != 2 ||
		len(snap.Draw.Pools) != 10 || len(snap.Draw.Pools[0].Selections) != 2 || len(snap.Draw.Pools[1].Selections) != 10 {
		t.Fatalf("snapshot draw %+v, store draw %d in %s", snap.Draw, d.ID, d.Phase)
	}
	expectNothing(t, ch)
	more := w.advance(len(evs) + 1)
	w.deliver(more[len(evs)])
	expect(t, ch, int64(len(evs)+1))
	bad := int64(len(more) + 5)
	if _, err := w.api.TableEvents(ctx, id(w.h.Table.ID), &bad); err == nil {
		t.Fatal("afterSeq beyond the stream accepted")
	}
}

// TestTableEventsSlowClientDropped: a client that stops reading is dropped
// by the hub (its buffer overflows) and its stream ends after what was
// buffered; it reconnects with its last seq. Delivery never blocks.
func TestTableEventsSlowClientDropped(t *testing.T) {
	w := newStreamWorld(t)
	evs := w.advance(1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow := w.subscribe(t, ctx, nil)
	var fakes []tote.TableEvent
	for i := range 400 { // the client reads none of these meanwhile
		e := evs[0]
		e.Seq = evs[len(evs)-1].Seq + int64(i) + 1
		fakes = append(fakes, e)
	}
	w.caughtUp(fakes)
	n := 0
	deadline := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-slow:
			if !ok {
				if n >= 400 {
					t.Fatalf("all %d events arrived: the client was never dropped", n)
				}
				return
			}
			n++
		case <-deadline:
			t.Fatalf("the slow stream was not ended after %d events", n)
		}
	}
}

// TestMyEvents: a player's bet and balance events arrive with the bet
// loaded; another player's bet is never shown.
func TestMyEvents(t *testing.T) {
	w := newStreamWorld(t)
	w.h.Deposit(7, 1000*money.KZT)
	d := w.h.RunUntil(w.h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	ctx, cancel := context.WithCancel(graph.WithViewer(context.Background(), graph.Viewer{UserID: 7}))
	defer cancel()
	ch, err := w.events.MyEvents(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.svc.PlaceBet(ctx, tote.PlaceBetRequest{UserID: 7, DrawID: d.ID, Market: parimutuel.MarketWin, Selection: "1", Stake: 100 * money.KZT, IdempotencyKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	got := []model.UserEvent{<-ch, <-ch}
	if e, ok := got[0].(*model.BetAccepted); !ok || e.Bet == nil || e.Bet.ID != itoa(b.ID) {
		t.Errorf("first event %#v", got[0])
	}
	if e, ok := got[1].(*model.BalanceChanged); !ok || e.Balance != model.Money(900*money.KZT) {
		t.Errorf("second event %#v", got[1])
	}
	// Someone else's bet id on this user's topic is not forwarded, nor a
	// Hold'em update without a loader; the balance change after them is.
	w.hub.Deliver(event.UserTopic(7), event.UserEvent{Type: event.BetSettled, BetID: b.ID + 1000}.Encode())
	w.hub.Deliver(event.UserTopic(7), event.UserEvent{Type: event.HoldemUpdated, HoldemHandID: 3}.Encode())
	w.hub.Deliver(event.UserTopic(7), event.UserEvent{Type: event.BalanceChanged, Balance: 5}.Encode())
	if e, ok := (<-ch).(*model.BalanceChanged); !ok || e.Balance != 5 {
		t.Errorf("after skipped events got %#v", e)
	}
}

// TestTableEventsReplayIsBounded: a client resuming further behind than
// readmodel.ReplayBound gets one snapshot at the table's current seq instead of
// hundreds of historic events, then live events; one resuming within the
// bound gets the replay.
func TestTableEventsReplayIsBounded(t *testing.T) {
	w := newStreamWorld(t)
	evs := w.advance(readmodel.ReplayBound + 20)
	w.caughtUp(evs)
	last := evs[len(evs)-1].Seq
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	old := int64(3)
	ch := w.subscribe(t, ctx, &old)
	snap := expectSnapshot(t, ch, last)
	if snap.Draw == nil {
		t.Fatal("snapshot without the current draw")
	}
	expectNothing(t, ch)
	more := w.advance(len(evs) + 1)
	w.caughtUp(more[len(evs):])
	expect(t, ch, last+1)

	recent := last - 5
	ch2 := w.subscribe(t, ctx, &recent)
	expect(t, ch2, last-4, last-3, last-2, last-1, last, last+1)
}

// TestReadModelAppliesInThePublishersGoroutine: events that follow the
// view are folded and handed to the subscribers before the hub's delivery
// returns (no goroutine of the read model's in between), a batch reaches
// each subscriber whole, and an event after a gap still arrives in order,
// the gap filled from the outbox by the read model's own goroutine.
func TestReadModelAppliesInThePublishersGoroutine(t *testing.T) {
	w := newStreamWorld(t)
	evs := w.advance(6)
	table := w.h.Table.ID
	lt, _ := w.live.Table(table)
	start := lt.View.Seq
	if int(start)+5 > len(evs) {
		t.Fatalf("the read model starts at seq %d of %d events", start, len(evs))
	}
	sub := w.live.Subscribe(table, 16)
	defer sub.Close()
	next := evs[start : start+2]
	w.hub.DeliverBatch(event.TableTopic(table), [][]byte{next[0].Encode(), next[1].Encode()})
	if lt, _ := w.live.Table(table); lt.View.Seq != next[1].Seq {
		t.Fatalf("after the delivery returned the view is at seq %d, want %d", lt.View.Seq, next[1].Seq)
	}
	if len(sub.C) != 2 {
		t.Fatalf("the subscriber holds %d events when the delivery returned, want 2", len(sub.C))
	}
	for _, want := range []int64{next[0].Seq, next[1].Seq} {
		if e := <-sub.C; e.Seq != want {
			t.Fatalf("got seq %d, want %d", e.Seq, want)
		}
	}
	w.deliver(next[1]) // a duplicate: nothing
	w.deliver(evs[start+3])
	for _, want := range []int64{evs[start+2].Seq, evs[start+3].Seq} {
		select {
		case e := <-sub.C:
			if e.Seq != want {
				t.Fatalf("got seq %d, want %d", e.Seq, want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("no event, want seq %d (the gap filled from the outbox)", want)
		}
	}
	select {
	case e := <-sub.C:
		t.Fatalf("unexpected seq %d", e.Seq)
	case <-time.After(50 * time.Millisecond):
	}
}

// playerToken authenticates the stream tests' tokens: "u<N>" is player N.
func playerToken(ctx context.Context, token string) (context.Context, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(token, "u"), 10, 64)
	if err != nil {
		return ctx, err
	}
	return graph.WithViewer(ctx, graph.Viewer{UserID: n, Role: account.Player}), nil
}
