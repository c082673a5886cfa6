package webhook

import (
	"cmp"
	"context"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// Config tunes a Dispatcher; zero fields take the defaults of
// DefaultConfig.
type Config struct {
	// Owner names this replica in the leases it takes.
	Owner string
	// Poll is how often the endpoints are looked at for due work.
	Poll time.Duration
	// Lease is how long a claimed endpoint stays this replica's without a
	// renewal: after a crash, another replica resumes it that much later.
	Lease time.Duration
	// RetryBase and RetryMax bound the backoff between attempts at one
	// event: RetryBase doubling per attempt up to RetryMax, each wait
	// jittered down to half of it so that failing endpoints spread out.
	RetryBase, RetryMax time.Duration
	// RetryFor is how long one event is retried before the endpoint is
	// parked (dead-lettered) with its last error.
	RetryFor time.Duration
	// Batch is how many events of one table a pass reads.
	Batch int
	Now   func() time.Time
	Log   *slog.Logger
	// Observe is told of each attempt: the endpoint, its outcome
	// ("delivered", "failed", "parked") and, when delivered, how long after
	// the event it arrived. Nil: nothing.
	Observe func(endpointID int64, outcome string, lag time.Duration)
}

// DefaultConfig is what a production replica runs with: events retried for
// 25 hours (a partner's receiver down for a day loses nothing), waits from
// 5 seconds up to an hour.
func DefaultConfig() Config {
	return Config{
		Poll: time.Second, Lease: 30 * time.Second,
		RetryBase: 5 * time.Second, RetryMax: time.Hour, RetryFor: 25 * time.Hour,
		Batch: 200, Now: time.Now,
	}
}

// Dispatcher delivers every endpoint's due events. Any number of replicas
// may run one over the same store: an endpoint is served by the holder of
// its lease only.
type Dispatcher struct {
	store Store
	src   Source
	send  Sender
	cfg   Config

	mu      sync.Mutex
	running map[int64]bool
	wg      sync.WaitGroup
}

// NewDispatcher returns a Dispatcher over store, src and send.
func NewDispatcher(store Store, src Source, send Sender, cfg Config) *Dispatcher {
	def := DefaultConfig()
	cfg.Poll = cmp.Or(cfg.Poll, def.Poll)
	cfg.Lease = cmp.Or(cfg.Lease, def.Lease)
	cfg.RetryBase = cmp.Or(cfg.RetryBase, def.RetryBase)
	cfg.RetryMax = cmp.Or(cfg.RetryMax, def.RetryMax)
	cfg.RetryFor = cmp.Or(cfg.RetryFor, def.RetryFor)
	cfg.Batch = cmp.Or(cfg.Batch, def.Batch)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Observe == nil {
		cfg.Observe = func(int64, string, time.Duration) {}
	}
	return &Dispatcher{store: store, src: src, send: send, cfg: cfg, running: map[int64]bool{}}
}

// Run serves the endpoints until ctx ends, then waits for the deliveries in
// flight and gives their leases up.
func (d *Dispatcher) Run(ctx context.Context) error {
	t := time.NewTicker(d.cfg.Poll)
	defer t.Stop()
	for {
		d.tick(ctx)
		select {
		case <-ctx.Done():
			d.wg.Wait()
			return nil
		case <-t.C:
		}
	}
}

// tick starts a worker for every due endpoint that has none here.
func (d *Dispatcher) tick(ctx context.Context) {
	eps, err := d.store.Endpoints(ctx)
	if err != nil {
		if ctx.Err() == nil {
			d.cfg.Log.WarnContext(ctx, "webhook endpoints not read", "err", err)
		}
		return
	}
	now := d.cfg.Now()
	for _, e := range eps {
		if e.Parked != nil || e.NextAttempt.After(now) {
			continue
		}
		d.mu.Lock()
		busy := d.running[e.ID]
		d.running[e.ID] = true
		d.mu.Unlock()
		if busy {
			continue
		}
		d.wg.Add(1)
		go func(id int64) {
			defer d.wg.Done()
			defer func() { d.mu.Lock(); delete(d.running, id); d.mu.Unlock() }()
			d.Serve(ctx, id)
		}(e.ID)
	}
}

// Serve claims one endpoint and delivers its due events until it has none,
// one fails, or ctx ends.
func (d *Dispatcher) Serve(ctx context.Context, id int64) {
	now := d.cfg.Now()
	l, ok, err := d.store.Claim(ctx, id, d.cfg.Owner, now, now.Add(d.cfg.Lease))
	if err != nil || !ok {
		return
	}
	defer func() {
		// A clean stop hands the endpoint on at once; a crash leaves it to
		// the lease's end.
		_ = d.store.Release(context.WithoutCancel(ctx), l)
	}()
	for ctx.Err() == nil {
		more, err := d.pass(ctx, &l)
		if err != nil {
			if ctx.Err() == nil && !errs.Is(err, errs.Conflict) {
				d.cfg.Log.WarnContext(ctx, "webhook pass failed", "endpoint", id, "err", err)
			}
			return
		}
		if !more {
			return
		}
	}
}

// pass delivers one batch of the endpoint's pending messages in order;
// more reports whether everything read was acknowledged (so another batch
// may follow).
func (d *Dispatcher) pass(ctx context.Context, l *Lease) (more bool, err error) {
	e, err := d.store.Endpoint(ctx, l.EndpointID)
	if err != nil {
		return false, err
	}
	msgs, err := d.pending(ctx, e)
	if err != nil || len(msgs) == 0 {
		return false, err
	}
	var skipped []Cursor
	for _, m := range msgs {
		if !e.Wants(m.Type) {
			skipped = append(skipped, Cursor{m.TableID, m.Seq})
			continue
		}
		if err := d.flushSkipped(ctx, *l, &skipped); err != nil {
			return false, err
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if err := d.renew(ctx, l); err != nil {
			return false, err
		}
		if ok, err := d.deliver(ctx, *l, e, m); !ok || err != nil {
			return false, err
		}
		e.FailingSince, e.Attempts = nil, 0
	}
	return true, d.flushSkipped(ctx, *l, &skipped)
}

// deliver sends m once and records the outcome; ok is false when it failed.
func (d *Dispatcher) deliver(ctx context.Context, l Lease, e Endpoint, m Message) (ok bool, err error) {
	out := d.send.Send(ctx, e, m)
	now := d.cfg.Now()
	if out.Err == nil {
		if err := d.store.Delivered(ctx, l, Cursor{m.TableID, m.Seq}, now); err != nil {
			return false, err
		}
		d.cfg.Observe(e.ID, "delivered", now.Sub(m.Timestamp))
		return true, nil
	}
	if ctx.Err() != nil {
		return false, ctx.Err() // stopping: the attempt does not count
	}
	f := d.failure(e, now, out.Err.Error())
	d.cfg.Observe(e.ID, map[bool]string{true: "parked", false: "failed"}[f.Park], 0)
	if f.Park {
		d.cfg.Log.WarnContext(ctx, "webhook endpoint parked", "endpoint", e.ID, "event", m.ID, "err", out.Err)
	}
	return false, d.store.Failed(ctx, l, f)
}

// failure plans the next attempt after a failed one: exponential backoff
// with jitter, or parking once the head event has failed for RetryFor.
func (d *Dispatcher) failure(e Endpoint, now time.Time, msg string) Failure {
	since := now
	if e.FailingSince != nil {
		since = *e.FailingSince
	}
	f := Failure{At: now, Err: msg, NextAttempt: now.Add(Backoff(e.Attempts+1, d.cfg.RetryBase, d.cfg.RetryMax, rand.Float64))}
	f.Park = now.Sub(since) >= d.cfg.RetryFor
	return f
}

// Backoff is the wait before attempt n (1 for the first retry): base
// doubling per attempt up to max, then jittered into [w/2, w) by rnd
// (a number in [0, 1)).
func Backoff(n int, base, max time.Duration, rnd func() float64) time.Duration {
	w := base
	for i := 1; i < n && w < max; i++ {
		w *= 2
	}
	w = min(w, max)
	return w/2 + time.Duration(rnd()*float64(w/2))
}

func (d *Dispatcher) flushSkipped(ctx context.Context, l Lease, cs *[]Cursor) error {
	if len(*cs) == 0 {
		return nil
	}
	err := d.store.Skipped(ctx, l, *cs)
	*cs = (*cs)[:0]
	return err
}

// renew extends the lease when half of it has passed, so that a long
// batch keeps its endpoint.
func (d *Dispatcher) renew(ctx context.Context, l *Lease) error {
	now := d.cfg.Now()
	if l.Until.Sub(now) > d.cfg.Lease/2 {
		return nil
	}
	nl, ok, err := d.store.Claim(ctx, l.EndpointID, d.cfg.Owner, now, now.Add(d.cfg.Lease))
	if err != nil {
		return err
	}
	if !ok || nl.Fence != l.Fence {
		return errs.R(errs.Conflict, ReasonLeaseLost, "the endpoint's lease was lost")
	}
	*l = nl
	return nil
}

// pending reads the next messages after the endpoint's cursors, every
// table's in its order, merged by time (then table and seq).
func (d *Dispatcher) pending(ctx context.Context, e Endpoint) ([]Message, error) {
	cursors, err := d.store.Cursors(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int64, len(cursors))
	for _, c := range cursors {
		at[c.TableID] = c.Seq
	}
	heads, err := d.src.Tables(ctx)
	if err != nil {
		return nil, err
	}
	var msgs []Message
	var horizon *Message // the earliest last message of a table read in part
	for _, h := range heads {
		seq, ok := at[h.TableID]
		if !ok {
			seq = -1 // a table newer than the endpoint: from its creation
		}
		ms, full, err := d.tableMessages(ctx, h, seq)
		if err != nil {
			return nil, err
		}
		if full && (horizon == nil || before(ms[len(ms)-1], *horizon)) {
			horizon = &ms[len(ms)-1]
		}
		msgs = append(msgs, ms...)
	}
	slices.SortStableFunc(msgs, compare)
	if horizon != nil {
		// A table read only in part may have later messages that come
		// before another table's: deliver only up to its last one read.
		h := *horizon
		msgs = slices.DeleteFunc(msgs, func(m Message) bool { return before(h, m) })
	}
	return msgs, nil
}

// compare orders messages for delivery: by time (made non-decreasing along
// each table), then table, then seq.
func compare(a, b Message) int {
	return cmp.Or(a.order.Compare(b.order), cmp.Compare(a.TableID, b.TableID), cmp.Compare(a.Seq, b.Seq))
}

func before(a, b Message) bool { return compare(a, b) < 0 }

// tableMessages reads a table's next messages after seq; full reports
// that the read stopped at the batch size, with more to come.
func (d *Dispatcher) tableMessages(ctx context.Context, h TableHead, seq int64) (out []Message, full bool, err error) {
	if seq < 0 {
		m, err := d.src.Created(ctx, h.TableID)
		if err != nil {
			return nil, false, err
		}
		out = append(out, m)
		seq = 0
	}
	if h.LastSeq > seq {
		ms, err := d.src.After(ctx, h.TableID, seq, d.cfg.Batch)
		if err != nil {
			return nil, false, err
		}
		out = append(out, ms...)
		full = len(ms) == d.cfg.Batch
	}
	// A table's messages keep its order whatever their times: the merge
	// sorts by a time made non-decreasing along the table, so that a clock
	// step back between two events cannot swap them.
	for i := range out {
		out[i].order = out[i].Timestamp
		if i > 0 && out[i].order.Before(out[i-1].order) {
			out[i].order = out[i-1].order
		}
	}
	return out, full, nil
}
