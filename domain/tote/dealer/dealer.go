// Package dealer deals the tables: a Dealer per table, a state machine
// over the draw persisted in the store whose every step is one fenced
// transaction, and the Supervisor that runs one for every table. It
// settles and voids through settle and publishes through the outbox.
package dealer

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/settle"
)

// Config tunes one table's dealer.
type Config struct {
	TableID int64
	// Owner names this replica in the lease table; unique per process.
	Owner string
	// LeaseTTL is how long a lease lasts unless renewed (renewed every
	// third of it); another replica takes over this long after a dealer
	// dies. Default 10 s.
	LeaseTTL time.Duration
	// PoolTick is the least time between two POOL_UPDATED of the table
	// (the intake's signals in between are merged into the next), and how
	// often the open draw is read again to notice a change made by someone
	// else (an admin's void). Default 250 ms.
	PoolTick time.Duration
	// IdlePoll is how often a paused table, or a replica without the
	// lease, looks again. Default 1 s (at most LeaseTTL/3).
	IdlePoll time.Duration
	// BeaconWait is how long after its publication time the dealer waits
	// for a street's beacon round before it may void the draw (SPEC 1.8:
	// BEACON_WAIT, 30 minutes by default); the table opens no other draw
	// meanwhile. It is fixed into each draw when it opens.
	BeaconWait time.Duration
}

func (c *Config) defaults() {
	if c.LeaseTTL <= 0 {
		c.LeaseTTL = 10 * time.Second
	}
	if c.PoolTick <= 0 {
		c.PoolTick = 250 * time.Millisecond
	}
	if c.IdlePoll <= 0 {
		c.IdlePoll = time.Second
	}
	if c.BeaconWait <= 0 {
		c.BeaconWait = 30 * time.Minute
	}
	c.IdlePoll = min(c.IdlePoll, c.LeaseTTL/3)
}

// Parts are the collaborators every dealer of a process shares. The
// service is built from the same store, publisher, clock and time scale,
// and hands its Stats for the dealers to count into.
type Parts struct {
	Store  tote.Store
	Leases tote.LeaseStore
	Odds   tote.OddsEngine // nil: draws carry no odds
	// Beacon is where the dealers read the public randomness every street
	// is drawn from (docs/fairness.md). Without one no draw opens: there is
	// no fallback to the house's own entropy.
	Beacon beacon.Source
	// Relay publishes each committed step; required.
	Relay *outbox.Relay
	// Settler settles and voids the draws (nil: settle.New(Clock,
	// TimeScale)).
	Settler *settle.Settler
	Clock   tote.Clock // nil: RealClock
	// TimeScale divides every table duration, as the service's does.
	TimeScale tote.TimeScale
	Log       *slog.Logger
	Stats     *outbox.Stats // nil: the dealers' own
	// Signals routes the intake's "pools changed" (tote.PoolSignal) to the
	// dealers, which publish POOL_UPDATED on it; nil: the dealers publish
	// the pools at each round's close only.
	Signals *Signals
}

// defaults fills p's nil collaborators.
func (p *Parts) defaults() {
	if p.Clock == nil {
		p.Clock = tote.RealClock{}
	}
	p.Log = cmp.Or(p.Log, slog.New(slog.DiscardHandler))
	p.Stats = cmp.Or(p.Stats, &outbox.Stats{})
	p.Settler = cmp.Or(p.Settler, settle.New(p.Clock, p.TimeScale))
}

// Dealer deals one table's draws one after another (SPEC 1.1) while it
// holds the table's lease. It is a state machine over the draw persisted in
// the Store: every step is one transaction that checks the lease's fence,
// changes the draw and appends the step's events to the outbox; the events
// are published after the commit. Because all state is in the Store, a
// dealer that takes over a table from a dead replica resumes the draw where
// it stopped. A Dealer is used by one goroutine (Signals only marks its
// pools and wakes it, from any).
type Dealer struct {
	cfg     Config
	store   tote.Store
	leases  tote.LeaseStore
	odds    tote.OddsEngine
	beacon  beacon.Source
	relay   *outbox.Relay
	settler *settle.Settler
	clock   tote.Clock
	scale   tote.TimeScale
	log     *slog.Logger
	stats   *outbox.Stats

	lease    tote.Lease
	held     bool
	loaded   bool
	table    tote.Table
	draw     *tote.Draw // the table's latest draw, nil before the first
	pools    map[tote.PoolKey]tote.PoolSignature
	nextPool time.Time // when the open draw is read again (poolTick)
	// poolsAt is the earliest the next POOL_UPDATED may go (PoolTick after
	// the last); poolsDirty says the intake signalled new bets since the
	// pools were last read, and wake wakes Run for it. Set by Signals from
	// other goroutines.
	poolsAt    time.Time
	poolsDirty atomic.Bool
	wake       chan struct{}
	// leased mirrors held for Signals: a replica without the lease is not
	// woken (it would only try to take the lease again).
	leased   atomic.Bool
	failures int
	retryAt  time.Time
	// delayed is when BEACON_DELAYED was last sent, and for which draw
	// and street.
	delayed delayNotice
}

// delayNotice is the last BEACON_DELAYED a dealer sent.
type delayNotice struct {
	draw   int64
	street int
	at     time.Time
}

// New returns the dealer of table cfg.TableID.
func New(p Parts, cfg Config) *Dealer {
	p.defaults()
	cfg.defaults()
	d := &Dealer{
		cfg: cfg, store: p.Store, leases: p.Leases, odds: p.Odds, beacon: p.Beacon, relay: p.Relay, settler: p.Settler,
		clock: p.Clock, scale: p.TimeScale, stats: p.Stats,
		log:   p.Log.With("table", cfg.TableID, "dealer", cfg.Owner),
		pools: map[tote.PoolKey]tote.PoolSignature{},
		wake:  make(chan struct{}, 1),
	}
	if p.Signals != nil {
		p.Signals.add(d)
	}
	return d
}

// markPools marks the pools as having new bets and wakes Run; it never
// blocks (Signals).
func (d *Dealer) markPools() {
	d.poolsDirty.Store(true)
	if !d.leased.Load() {
		return
	}
	select {
	case d.wake <- struct{}{}:
	default: // a wake is pending already
	}
}

// Run deals until ctx ends, then gives the lease up so another replica can
// take over at once.
func (d *Dealer) Run(ctx context.Context) error {
	for {
		wait := d.Tick(ctx)
		select {
		case <-ctx.Done():
			if d.held {
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
				_ = d.leases.ReleaseLease(rctx, d.lease)
				cancel()
			}
			return nil
		case <-d.clock.After(wait):
		case <-d.wake:
		}
	}
}

// Tick does everything due now: renew or take the lease, resume the table's
// state after a takeover, run every overdue step, publish pool changes. It
// returns how long to sleep before the next Tick.
func (d *Dealer) Tick(ctx context.Context) time.Duration {
	now := d.clock.Now()
	leased := d.ensureLease(ctx, now)
	d.leased.Store(leased)
	if !leased {
		return d.cfg.IdlePoll
	}
	if now.Before(d.retryAt) {
		return d.retryAt.Sub(now)
	}
	if !d.loaded {
		if err := d.load(ctx); err != nil {
			return d.failed(ctx, err)
		}
	} else if d.table.Status == tote.TablePaused {
		if err := d.load(ctx); err != nil { // resumed?
			return d.failed(ctx, err)
		}
	}
	for range 64 {
		act, due := d.plan()
		if act == actNone || due.After(d.clock.Now()) {
			break
		}
		if err := d.step(ctx, act); err != nil {
			if errors.Is(err, errBeaconPending) { // not a failure: ask again soon
				d.retryAt = d.clock.Now().Add(d.beaconPoll())
				break
			}
			return d.failed(ctx, err)
		}
		d.failures = 0
	}
	if err := d.poolTick(ctx); err != nil {
		switch errs.ReasonOf(err) {
		case tote.ReasonLeaseLost, tote.ReasonDrawChanged:
			return d.failed(ctx, err)
		}
		// Pool updates are a courtesy: a failed one never counts towards
		// voiding the draw; the next tick tries again.
		d.log.WarnContext(ctx, "pool update failed", "err", err)
	}
	return d.untilNext()
}

// ensureLease keeps or takes the table's lease; false when another replica
// holds it.
func (d *Dealer) ensureLease(ctx context.Context, now time.Time) bool {
	if d.held && now.Before(d.lease.ExpiresAt.Add(-2*d.cfg.LeaseTTL/3)) {
		return true
	}
	var err error
	if d.held {
		if d.lease, err = d.leases.RenewLease(ctx, d.lease, now, d.cfg.LeaseTTL); err == nil {
			return true
		}
		d.log.WarnContext(ctx, "lease lost", "err", err)
		d.dropLease()
	}
	l, err := d.leases.AcquireLease(ctx, d.cfg.TableID, d.cfg.Owner, now, d.cfg.LeaseTTL)
	if err != nil {
		if errs.ReasonOf(err) != tote.ReasonLeaseHeld {
			d.log.WarnContext(ctx, "lease not acquired", "err", err)
		}
		return false
	}
	d.log.InfoContext(ctx, "lease acquired", "fence", l.Fence)
	d.lease, d.held, d.loaded = l, true, false
	// What the last holder published is unknown: publish the pools once.
	d.poolsDirty.Store(true)
	return true
}

func (d *Dealer) dropLease() {
	d.held, d.loaded = false, false
	clear(d.pools)
}

// load reads the table and its latest draw from the store.
func (d *Dealer) load(ctx context.Context) error {
	t, err := d.store.Table(ctx, d.cfg.TableID)
	if err != nil {
		return err
	}
	dr, err := d.store.LatestDraw(ctx, t.ID)
	switch {
	case errs.Is(err, errs.NotFound):
		d.draw = nil
	case err != nil:
		return err
	default:
		if err := tote.DealtFromBeacons(dr); err != nil {
			return err
		}
		d.draw = &dr
	}
	d.table, d.loaded = t, true
	return nil
}

// failed handles a step's error and returns how long to wait before trying
// again. A lost lease stops dealing; a changed draw is reloaded; anything
// else is retried with backoff (at most 5 s), however long it takes: a
// draw is never voided for a dealer's failure, since after round 1 closes
// its cards are known to whoever holds the seed, and a void then would be
// an option to call off an outcome (void.go). A draw taken over after any
// stall goes on where it stopped.
func (d *Dealer) failed(ctx context.Context, err error) time.Duration {
	switch errs.ReasonOf(err) {
	case tote.ReasonLeaseLost:
		d.log.WarnContext(ctx, "lease lost", "err", err)
		d.dropLease()
		return d.cfg.IdlePoll
	case tote.ReasonDrawChanged:
		d.loaded = false
		return 0
	}
	if ctx.Err() != nil {
		return 0
	}
	d.failures++
	d.stats.StepFailures.Add(1)
	d.log.ErrorContext(ctx, "dealer step failed", "failures", d.failures, "err", err)
	d.loaded = false
	backoff := min(100*time.Millisecond<<min(d.failures, 6), 5*time.Second)
	d.retryAt = d.clock.Now().Add(backoff)
	return backoff
}

// untilNext is how long to sleep until something is due.
func (d *Dealer) untilNext() time.Duration {
	now := d.clock.Now()
	next := d.lease.ExpiresAt.Add(-2 * d.cfg.LeaseTTL / 3)
	if act, due := d.plan(); act != actNone && due.Before(next) {
		next = maxTime(due, d.retryAt)
	}
	if d.draw != nil && d.draw.OpenRound() != 0 {
		next = minTime(next, d.nextPool)
		if d.poolsDirty.Load() {
			next = minTime(next, d.poolsAt)
		}
	}
	if d.table.Status == tote.TablePaused || d.draw == nil || d.draw.Phase.Finished() {
		next = minTime(next, now.Add(d.cfg.IdlePoll))
	}
	return max(next.Sub(now), time.Millisecond)
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
