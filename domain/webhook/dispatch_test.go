package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/domain/webhook/webhooktest"
)

func TestMemStoreConformance(t *testing.T) {
	webhooktest.Run(t, func(*testing.T) (webhook.Store, int64) { return webhooktest.NewMemStore(), 1 })
}

// fakeSource is a Source over in-memory tables of typed events.
type fakeSource struct {
	mu     sync.Mutex
	tables map[int64][]webhook.Message // seq i+1 at index i
}

func (f *fakeSource) add(table int64, typ webhook.Type, at time.Time) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	seq := int64(len(f.tables[table]) + 1)
	m := webhook.Message{ID: webhook.EventID(table, seq), Type: typ, Timestamp: at, TableID: table, Seq: seq}
	if typ != "" {
		m.Data = json.RawMessage(fmt.Sprintf(`{"tableId":%d,"seq":%d}`, table, seq))
	}
	f.tables[table] = append(f.tables[table], m)
	return m.ID
}

func (f *fakeSource) Tables(context.Context) ([]webhook.TableHead, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []webhook.TableHead
	for id, ms := range f.tables {
		out = append(out, webhook.TableHead{TableID: id, LastSeq: int64(len(ms))})
	}
	return out, nil
}

func (f *fakeSource) After(_ context.Context, table, after int64, limit int) ([]webhook.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ms := f.tables[table][after:]
	return append([]webhook.Message(nil), ms[:min(limit, len(ms))]...), nil
}

func (f *fakeSource) Created(_ context.Context, table int64) (webhook.Message, error) {
	return webhook.Message{ID: webhook.EventID(table, 0), Type: webhook.TableCreated, Timestamp: time.Unix(0, 0), Data: json.RawMessage(`{}`), TableID: table}, nil
}

// recorder is a Sender that fails while fail() says so and records what it
// acknowledged.
type recorder struct {
	mu   sync.Mutex
	got  []string
	sent int
	fail func(n int) bool
}

func (r *recorder) Send(_ context.Context, _ webhook.Endpoint, m webhook.Message) webhook.Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent++
	if r.fail != nil && r.fail(r.sent) {
		return webhook.Outcome{Status: 503, Err: errors.New("503 Service Unavailable")}
	}
	r.got = append(r.got, m.ID)
	return webhook.Outcome{Status: 200}
}

func (r *recorder) ids() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

var base = time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)

func setup(t *testing.T) (*webhooktest.MemStore, *fakeSource, *webhook.Service, webhook.Endpoint, *clock) {
	t.Helper()
	store, src := webhooktest.NewMemStore(), &fakeSource{tables: map[int64][]webhook.Message{}}
	src.add(1, "", base) // an event from before the endpoint: never sent
	clk := &clock{now: base}
	svc := webhook.NewService(store, src, clk.Now)
	e, err := svc.Create(context.Background(), 1, webhook.NewEndpoint{URL: "https://partner.example/hook", Types: []webhook.Type{webhook.DrawSettled, webhook.TableCreated}})
	if err != nil {
		t.Fatal(err)
	}
	return store, src, svc, e, clk
}

func TestDispatcherDeliversInOrderSkippingUnwanted(t *testing.T) {
	store, src, _, e, clk := setup(t)
	var want []string
	for i := range 5 {
		at := base.Add(time.Duration(i) * time.Second)
		want = append(want, src.add(1, webhook.DrawSettled, at))
		src.add(1, webhook.DrawVoided, at) // not subscribed
		src.add(1, "", at)                 // no type: cursor only
		want = append(want, src.add(2, webhook.DrawSettled, at.Add(time.Millisecond)))
	}
	// Table 2 is newer than the endpoint: its table.created comes first.
	want = append([]string{webhook.EventID(2, 0)}, want...)
	rec := &recorder{}
	d := webhook.NewDispatcher(store, src, rec, webhook.Config{Owner: "a", Now: clk.Now, Batch: 3})
	for range 10 {
		d.Serve(context.Background(), e.ID)
	}
	got := rec.ids()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("delivered\n %v\nwant\n %v", got, want)
	}
	cs, _ := store.Cursors(context.Background(), e.ID)
	for _, c := range cs {
		if last := map[int64]int64{1: 16, 2: 5}[c.TableID]; c.Seq != last {
			t.Errorf("table %d cursor %d, want %d", c.TableID, c.Seq, last)
		}
	}
}

func TestDispatcherRetriesWithBackoffThenParks(t *testing.T) {
	store, src, svc, e, clk := setup(t)
	first := src.add(1, webhook.DrawSettled, base)
	second := src.add(1, webhook.DrawSettled, base)
	failing := true
	rec := &recorder{fail: func(int) bool { return failing }}
	cfg := webhook.Config{Owner: "a", Now: clk.Now, RetryBase: time.Second, RetryMax: 8 * time.Second, RetryFor: time.Minute}
	d := webhook.NewDispatcher(store, src, rec, cfg)
	ctx := context.Background()
	var waits []time.Duration
	for attempt := 1; ; attempt++ {
		d.Serve(ctx, e.ID)
		got, _ := store.Endpoint(ctx, e.ID)
		if got.Parked != nil {
			if clk.Now().Sub(base) < time.Minute {
				t.Fatalf("parked after %v, before the retry window", clk.Now().Sub(base))
			}
			if got.LastError != "503 Service Unavailable" {
				t.Errorf("parked with %q", got.LastError)
			}
			break
		}
		if got.Attempts != attempt {
			t.Fatalf("attempt %d recorded as %d", attempt, got.Attempts)
		}
		wait := got.NextAttempt.Sub(clk.Now())
		lo, hi := min(time.Second<<(attempt-1), 8*time.Second)/2, min(time.Second<<(attempt-1), 8*time.Second)
		if wait < lo || wait >= hi {
			t.Fatalf("attempt %d waits %v, want [%v, %v)", attempt, wait, lo, hi)
		}
		waits = append(waits, wait)
		d.Serve(ctx, e.ID) // not due yet: no attempt
		if rec.sent != attempt {
			t.Fatalf("sent %d times before the wait ended", rec.sent)
		}
		clk.add(wait)
	}
	if len(rec.ids()) != 0 {
		t.Fatal("a failing receiver acknowledged something")
	}
	// Parked: nothing is tried until an admin replays.
	clk.add(time.Hour)
	sent := rec.sent
	d.Serve(ctx, e.ID)
	if rec.sent != sent {
		t.Fatal("a parked endpoint was tried")
	}
	failing = false
	if _, err := svc.Replay(ctx, 1, e.ID, first); err != nil {
		t.Fatal(err)
	}
	d.Serve(ctx, e.ID)
	if got := rec.ids(); fmt.Sprint(got) != fmt.Sprint([]string{first, second}) {
		t.Errorf("after replay delivered %v", got)
	}
	t.Logf("waits before parking: %v", waits)
}

func TestDispatcherLeaseHandsOverWithoutLoss(t *testing.T) {
	store, src, _, e, clk := setup(t)
	var want []string
	for i := range 6 {
		want = append(want, src.add(1, webhook.DrawSettled, base.Add(time.Duration(i)*time.Second)))
	}
	// Replica a dies after its third delivery reached the receiver but
	// before it recorded it: the receiver sees that event twice, the
	// cursor never skips one.
	recA := &recorder{}
	ctx, kill := context.WithCancel(context.Background())
	dieAt := 3
	a := webhook.NewDispatcher(store, src, senderFunc(func(c context.Context, en webhook.Endpoint, m webhook.Message) webhook.Outcome {
		out := recA.Send(c, en, m)
		if len(recA.ids()) == dieAt {
			kill()
		}
		return out
	}), webhook.Config{Owner: "a", Now: clk.Now, Lease: 30 * time.Second})
	a.Serve(ctx, e.ID)
	recB := &recorder{}
	b := webhook.NewDispatcher(store, src, recB, webhook.Config{Owner: "b", Now: clk.Now, Lease: 30 * time.Second})
	clk.add(31 * time.Second) // a's lease runs out
	b.Serve(context.Background(), e.ID)
	got := append(recA.ids(), recB.ids()...)
	seen := map[string]int{}
	for _, id := range got {
		seen[id]++
	}
	for _, id := range want {
		if seen[id] == 0 {
			t.Errorf("event %s lost (delivered %v)", id, got)
		}
	}
	if len(got) > len(want)+1 {
		t.Errorf("delivered %v: more than one repeat", got)
	}
	if recB.ids()[0] != want[dieAt-1] && recB.ids()[0] != want[dieAt] {
		t.Errorf("b started at %s", recB.ids()[0])
	}
}

type senderFunc func(ctx context.Context, e webhook.Endpoint, m webhook.Message) webhook.Outcome

func (f senderFunc) Send(ctx context.Context, e webhook.Endpoint, m webhook.Message) webhook.Outcome {
	return f(ctx, e, m)
}

func TestBackoffBounds(t *testing.T) {
	for n := 1; n <= 30; n++ {
		for _, r := range []float64{0, 0.5, 0.999} {
			w := webhook.Backoff(n, 5*time.Second, time.Hour, func() float64 { return r })
			full := min(5*time.Second<<min(n-1, 20), time.Hour)
			if w < full/2 || w >= full {
				t.Errorf("attempt %d, jitter %v: %v outside [%v, %v)", n, r, w, full/2, full)
			}
		}
	}
}
