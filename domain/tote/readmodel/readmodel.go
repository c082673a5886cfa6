package readmodel

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote"
)

// ReplayBound is the most events a catch-up reads from the outbox: a
// client (or the read model) further behind than this gets a snapshot
// instead of a replay.
const ReplayBound = 256

// LiveTable is one table as the read model holds it: the table row, its
// latest draw as stored after the table's latest event, and the view a
// client folds from the events. Its fields are never changed once
// published; the read model swaps in a new LiveTable per event.
type LiveTable struct {
	Table tote.Table // Table.LastSeq equals View.Seq
	Draw  *tote.Draw // nil before the first draw
	View  TableView
}

// Model keeps every table in memory, current with the table events:
// the lobby and table queries read it instead of the database, and the
// join snapshot is its view. It decodes each table event once per process
// and fans the decoded event out to local subscribers, after applying it,
// in seq order without gaps. It starts from the store, and rebuilds a table
// from the store when it misses events it cannot replay (more than
// ReplayBound) or when its hub subscription is dropped.
type Model struct {
	store   tote.Store
	hub     *event.Hub
	log     *slog.Logger
	refresh time.Duration
	// Stages, when set, records when each event was received, folded and
	// delivered (profiling the fan-out); set before Run.
	Stages *event.StageLog

	out *event.Fanout[*tote.TableEvent]
	// changes counts the LiveTables published and the tables dropped
	// (Version); each publication runs between its Begin and End.
	changes event.Changes
	mu      sync.RWMutex
	tables  map[int64]*followed
	ready   chan struct{}
	once    sync.Once

	syncMu sync.Mutex // one syncTables at a time
	runCtx context.Context
	wg     *sync.WaitGroup
}

// followed is one table the read model follows: its state (nil until the
// first load) and a channel closed after that load.
type followed struct {
	p     atomic.Pointer[LiveTable]
	first chan struct{}
	// mu is held while an event is folded and delivered (by the publisher
	// inline, or by the table's goroutine), and while the table is
	// rebuilt: one at a time, so subscribers get the events in seq order.
	mu sync.Mutex
}

// New returns a read model of store's tables fed by hub. refresh
// is how often it re-reads the list of tables and their settings (changes
// that publish no event); 0 means 2 seconds.
func New(store tote.Store, hub *event.Hub, log *slog.Logger, refresh time.Duration) *Model {
	if refresh <= 0 {
		refresh = 2 * time.Second
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Model{store: store, hub: hub, log: log, refresh: refresh, out: event.NewFanout[*tote.TableEvent](),
		tables: map[int64]*followed{}, ready: make(chan struct{})}
}

// Run follows every table until ctx ends.
func (m *Model) Run(ctx context.Context) error {
	defer m.out.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	m.syncMu.Lock()
	m.runCtx, m.wg = ctx, &wg
	m.syncMu.Unlock()
	tick := time.NewTicker(m.refresh)
	defer tick.Stop()
	for {
		if err := m.syncTables(); err != nil && ctx.Err() == nil {
			m.log.WarnContext(ctx, "read model: tables not listed", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// Ready is closed once every table known at start has its view.
func (m *Model) Ready() <-chan struct{} { return m.ready }

// Version is how many times what Tables lists has changed (a LiveTable
// published, a table dropped) in this process; ok is false while a change
// is being published. Two calls answering the same n with ok mean nothing
// Tables and Table show changed between them, so an answer built from the
// read model after the first still holds at the second (the lobby's cached
// answer, graph/response_cache.go).
func (m *Model) Version() (n uint64, ok bool) { return m.changes.Stable() }

// publish stores lt as table p's state, counted by Version.
func (m *Model) publish(p *atomic.Pointer[LiveTable], lt *LiveTable) {
	m.changes.Begin()
	p.Store(lt)
	m.changes.End()
}

// syncTables starts following tables not yet followed and refreshes the
// rows (name, settings) of the others.
func (m *Model) syncTables() error {
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	ctx, wg := m.runCtx, m.wg
	ts, err := m.store.Tables(ctx)
	if err != nil {
		return err
	}
	var started []chan struct{}
	for _, t := range ts {
		m.mu.Lock()
		f, ok := m.tables[t.ID]
		if !ok {
			f = &followed{first: make(chan struct{})}
			m.tables[t.ID] = f
		}
		m.mu.Unlock()
		p := &f.p
		if !ok {
			started = append(started, f.first)
			wg.Add(1)
			go func() {
				defer wg.Done()
				m.follow(ctx, t.ID, f)
			}()
			continue
		}
		if cur := p.Load(); cur == nil || sameRow(cur.Table, t) {
			continue // nothing to publish: the version stays
		}
		m.changes.Begin()
		for {
			cur := p.Load()
			if cur == nil || sameRow(cur.Table, t) {
				break
			}
			next := *cur
			next.Table.Name, next.Table.Settings, next.Table.UpdatedAt = t.Name, t.Settings, t.UpdatedAt
			if p.CompareAndSwap(cur, &next) {
				break
			}
		}
		m.changes.End()
	}
	for _, c := range started {
		select {
		case <-c:
		case <-ctx.Done():
		}
	}
	m.once.Do(func() { close(m.ready) })
	return nil
}

// sameRow reports whether the rows agree on what changes without an event
// (name, settings).
func sameRow(a, b tote.Table) bool {
	return a.Name == b.Name && a.Settings == b.Settings
}

// Table is one table's current state; false when the read model does not
// know it (yet).
func (m *Model) Table(id int64) (*LiveTable, bool) {
	m.mu.RLock()
	f := m.tables[id]
	m.mu.RUnlock()
	if f == nil {
		return nil, false
	}
	lt := f.p.Load()
	return lt, lt != nil
}

// Lookup is table id's current state, waiting for its first load; a table
// the read model does not know yet (created since its last refresh) is
// looked up in the store and followed from now on. NotFound when there is
// no such table.
func (m *Model) Lookup(ctx context.Context, id int64) (*LiveTable, error) {
	for attempt := 0; attempt < 2; attempt++ {
		m.mu.RLock()
		f := m.tables[id]
		m.mu.RUnlock()
		if f != nil {
			select {
			case <-f.first:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if lt := f.p.Load(); lt != nil {
				return lt, nil
			}
			return nil, errs.E(errs.Internal, "table %d is not loaded", id)
		}
		m.syncMu.Lock()
		running := m.runCtx != nil
		m.syncMu.Unlock()
		if !running {
			return nil, errs.E(errs.Internal, "the table read model is not running")
		}
		if attempt == 0 {
			if err := m.syncTables(); err != nil {
				return nil, err
			}
		}
	}
	return nil, errs.R(errs.NotFound, tote.ReasonNotFound, "table not found")
}

// Tables lists every table known, by id.
func (m *Model) Tables() []*LiveTable {
	m.mu.RLock()
	out := make([]*LiveTable, 0, len(m.tables))
	for _, f := range m.tables {
		if lt := f.p.Load(); lt != nil {
			out = append(out, lt)
		}
	}
	m.mu.RUnlock()
	slices.SortFunc(out, func(a, b *LiveTable) int { return int(a.Table.ID - b.Table.ID) })
	return out
}

// Subscribe returns a subscription to table id's decoded events, delivered
// after the read model applied them, in seq order. A subscriber that does
// not keep up with buffer events is dropped (event.ErrSlowConsumer). The
// read model may skip seqs when it rebuilt from the store; subscribers fill
// such a gap themselves.
func (m *Model) Subscribe(id int64, buffer int) *event.Sub[*tote.TableEvent] {
	return m.out.Subscribe(event.TableTopic(id), buffer)
}

// SubscribeQueue is Subscribe with the events held in a queue that takes
// memory only while they wait (event.Fanout.SubscribeQueue): for the
// table streams, one per viewer.
func (m *Model) SubscribeQueue(id int64, limit int) *event.Sub[*tote.TableEvent] {
	return m.out.SubscribeQueue(event.TableTopic(id), limit)
}

// Subscribers is how many subscriptions to table id's events are open.
func (m *Model) Subscribers(id int64) int { return m.out.Subscribers(event.TableTopic(id)) }

// follow keeps table id's LiveTable current until ctx ends.
func (m *Model) follow(ctx context.Context, id int64, f *followed) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := m.followOnce(ctx, id, f)
		if ctx.Err() != nil {
			return
		}
		if errs.Is(err, errs.NotFound) {
			m.changes.Begin()
			m.mu.Lock()
			delete(m.tables, id)
			m.mu.Unlock()
			m.changes.End()
			return
		}
		m.log.WarnContext(ctx, "read model: table feed restarts", "table", id, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// followBacklog is how many of a table's messages may wait for its
// goroutine (those the publisher could not apply inline) before the read
// model gives up on them and rebuilds the table.
const followBacklog = 4096

// followOnce subscribes, rebuilds from the store, then applies live events
// until the subscription ends.
//
// An event that follows the view's seq is folded and handed to the
// subscribers inline, in the goroutine that delivers it to the hub (the
// dealer's, in process; the Redis reader's otherwise): it does not wait
// for this table's goroutine to be scheduled, which under load (thousands
// of subscribers' writers queued before it) can take hundreds of
// milliseconds (docs/bench/2026-11-30-fanout.md). What cannot be applied so (a gap to fill from
// the outbox, an event arriving while another is applied or the table is
// rebuilt) is queued for this goroutine, which fills gaps and rebuilds.
// The draw the lobby shows is reloaded by a second goroutine, signalled
// after each event (coalescing bursts), so that delivering an event never
// waits for a query.
func (m *Model) followOnce(ctx context.Context, id int64, f *followed) error {
	p := &f.p
	reload := make(chan struct{}, 1)
	signal := func() {
		select {
		case reload <- struct{}{}:
		default: // a reload is pending already
		}
	}
	backlog := make(chan []byte, followBacklog)
	lost := make(chan struct{})
	var loseOnce sync.Once
	sub := m.hub.SubscribeFunc(event.TableTopic(id), func(msgs [][]byte) {
		for _, msg := range msgs[m.applyInline(id, f, msgs, backlog, signal):] {
			select {
			case backlog <- msg:
			default:
				loseOnce.Do(func() { close(lost) })
				return
			}
		}
	})
	defer sub.Close()
	f.mu.Lock()
	err := m.rebuild(ctx, id, p)
	f.mu.Unlock()
	select {
	case <-f.first:
	default:
		close(f.first)
	}
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go m.reloadDraws(ctx, id, p, reload)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Done():
			if err := sub.Err(); err != nil {
				return err
			}
			return errors.New("table feed closed")
		case <-lost:
			return event.ErrSlowConsumer
		case msg := <-backlog:
			if err := m.applyQueued(ctx, id, f, msg, signal); err != nil {
				return err
			}
		}
	}
}

// applyQueued applies a message the publisher left to the table's
// goroutine: after filling the gap before it from the outbox, or by
// rebuilding the table when the gap is too long.
func (m *Model) applyQueued(ctx context.Context, id int64, f *followed, msg []byte, reloadDraw func()) error {
	received := time.Now()
	e, err := tote.DecodeTableEvent(msg)
	if err != nil {
		m.log.WarnContext(ctx, "read model: unreadable event", "table", id, "err", err)
		return nil
	}
	m.Stages.Mark(id, e.Seq, event.StageReceived, received)
	f.mu.Lock()
	err = m.advance(ctx, id, &f.p, e)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if e.DrawID != 0 {
		reloadDraw()
	}
	return nil
}

// applyInline folds the events of msgs that follow the view's seq (and
// skips those the view has already), then hands them to the subscribers
// as one batch. It returns how many of msgs it took: the rest are left to
// the table's goroutine (an event is being applied or the table rebuilt,
// events wait in backlog before these, or seqs are missing).
func (m *Model) applyInline(id int64, f *followed, msgs [][]byte, backlog chan []byte, reloadDraw func()) int {
	if !f.mu.TryLock() {
		return 0
	}
	defer f.mu.Unlock()
	if f.p.Load() == nil || len(backlog) > 0 {
		return 0
	}
	received := time.Now()
	applied := make([]*tote.TableEvent, 0, len(msgs))
	taken, draw := 0, false
	for _, msg := range msgs {
		e, err := tote.DecodeTableEvent(msg)
		if err != nil {
			break // the goroutine logs it
		}
		cur := f.p.Load()
		if e.Seq > cur.View.Seq+1 {
			break
		}
		taken++
		if e.Seq <= cur.View.Seq {
			continue // had it already
		}
		m.Stages.Mark(id, e.Seq, event.StageReceived, received)
		applied = append(applied, m.fold(&f.p, &e))
		draw = draw || e.DrawID != 0
	}
	m.deliver(id, applied)
	if draw {
		reloadDraw()
	}
	return taken
}

// reloadDraws loads table id's latest draw into its LiveTable each time it
// is signalled.
func (m *Model) reloadDraws(ctx context.Context, id int64, p *atomic.Pointer[LiveTable], signal <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-signal:
		}
		d, err := m.store.LatestDraw(ctx, id)
		if err != nil {
			if ctx.Err() == nil {
				m.log.WarnContext(ctx, "read model: draw not reloaded", "table", id, "err", err)
			}
			continue
		}
		m.changes.Begin()
		for { // apply and syncTables swap in new states meanwhile
			cur := p.Load()
			n := *cur
			n.Draw = &d
			if p.CompareAndSwap(cur, &n) {
				break
			}
		}
		m.changes.End()
	}
}

// advance applies live event e, first replaying from the outbox the events
// it skipped (or rebuilding when too many were skipped).
func (m *Model) advance(ctx context.Context, id int64, p *atomic.Pointer[LiveTable], e tote.TableEvent) error {
	cur := p.Load()
	if e.Seq <= cur.View.Seq {
		return nil
	}
	if e.Seq > cur.View.Seq+1 {
		if e.Seq-cur.View.Seq > ReplayBound {
			return m.rebuild(ctx, id, p)
		}
		missed, err := m.store.EventsAfter(ctx, id, cur.View.Seq, int(e.Seq-cur.View.Seq-1))
		if err != nil {
			return err
		}
		for i := range missed {
			if err := m.apply(ctx, p, &missed[i]); err != nil {
				return err
			}
		}
	}
	return m.apply(ctx, p, &e)
}

// apply folds e into the table, publishes the new LiveTable and hands e to
// subscribers (followOnce has the draw reloaded for the lobby afterwards).
func (m *Model) apply(_ context.Context, p *atomic.Pointer[LiveTable], e *tote.TableEvent) error {
	if e.Seq <= p.Load().View.Seq {
		return nil
	}
	m.deliver(e.TableID, []*tote.TableEvent{m.fold(p, e)})
	return nil
}

// fold folds e, the event after the view's, into the table and publishes
// the new LiveTable; it returns e.
func (m *Model) fold(p *atomic.Pointer[LiveTable], e *tote.TableEvent) *tote.TableEvent {
	cur := p.Load()
	next := &LiveTable{Table: cur.Table, Draw: cur.Draw, View: cur.View.Apply(*e)}
	if e.Type == tote.EventTablePaused || e.Type == tote.EventTableResumed {
		next.Table.Status = next.View.Status
	}
	next.Table.LastSeq = next.View.Seq
	m.publish(p, next)
	m.Stages.Mark(e.TableID, e.Seq, event.StageFolded, time.Now())
	return e
}

// deliver hands table id's folded events to its subscribers, as one batch.
func (m *Model) deliver(id int64, evs []*tote.TableEvent) {
	if len(evs) == 0 {
		return
	}
	m.out.DeliverBatch(event.TableTopic(id), evs)
	now := time.Now()
	for _, e := range evs {
		m.Stages.Mark(id, e.Seq, event.StageDelivered, now)
	}
}

// rebuild replaces table id's state with the store's. The table row is read
// before and after the draw: when its LastSeq did not move in between, the
// draw read is the one of that seq (every change of a draw appends an
// event in its transaction).
func (m *Model) rebuild(ctx context.Context, id int64, p *atomic.Pointer[LiveTable]) error {
	for attempt := 0; ; attempt++ {
		lt, stable, err := m.load(ctx, id)
		if err != nil {
			return err
		}
		if stable || attempt >= 5 {
			m.publish(p, lt)
			return nil
		}
	}
}

func (m *Model) load(ctx context.Context, id int64) (*LiveTable, bool, error) {
	t, err := m.store.Table(ctx, id)
	if err != nil {
		return nil, false, err
	}
	var dp *tote.Draw
	var totals []tote.SelectionTotal
	d, err := m.store.LatestDraw(ctx, id)
	switch {
	case err == nil:
		dp = &d
		if totals, err = m.store.PoolTotals(ctx, d.ID, 0); err != nil {
			return nil, false, err
		}
	case !errs.Is(err, errs.NotFound):
		return nil, false, err
	}
	again, err := m.store.Table(ctx, id)
	if err != nil {
		return nil, false, err
	}
	v, err := ViewOf(t, dp, totals)
	if err != nil {
		return nil, false, err
	}
	return &LiveTable{Table: t, Draw: dp, View: v}, again.LastSeq == t.LastSeq, nil
}

// Sync brings table t into the read model after a change made through this
// replica (a new table, new settings, a pause): it re-reads the table rows
// and waits, up to a second, until the view has applied t.LastSeq, so
// that a query right after the mutation reads what it wrote.
func (m *Model) Sync(ctx context.Context, t tote.Table) {
	m.syncMu.Lock()
	running := m.runCtx != nil
	m.syncMu.Unlock()
	if !running {
		return
	}
	if err := m.syncTables(); err != nil {
		m.log.WarnContext(ctx, "read model: tables not listed", "err", err)
	}
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if lt, ok := m.Table(t.ID); ok && lt.View.Seq >= t.LastSeq {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}
