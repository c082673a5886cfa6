// Package intake is the bet intake: group commit per draw.
//
// At the close of a round many players bet on the same draw at once. One
// transaction per bet makes every bet pay for its own draw lock, its own
// commit (an fsync) and its own update of the pool's escrow row, and the
// escrow row serialises the commits: throughput falls as clients grow. The
// intake instead queues the bets of a draw and lets one batch at a time
// (a few per draw at most) carry every bet waiting at that moment into ONE
// transaction of the store (BatchPlacer): one shared draw lock, one
// snapshot (the draw, its table, the players' wallets and protection
// state), PlanBatch deciding every bet in memory, one write of the plan
// and one commit. There is no timer: while a batch commits the next one
// fills up, so a lone bet waits for nobody and a surge forms large
// batches by itself (natural batching). A lone bet is a batch of one.
//
// Every bet keeps its own answer: a bet failing its checks (round closed,
// stake out of range, selection invalid), its key already taken, its
// wallet short or a limit reached gets its own error, moves nothing and
// stores nothing, and the others of the batch commit.
//
// The round-close race is unchanged: the batch takes the draw's Shared
// lock before it reads the draw, and PlanBatch reads the clock after it,
// so every bet of a batch commits before the close or the whole batch sees
// the round closed.
package intake

import (
	"cmp"
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/outbox"
)

// Intake limits.
const (
	// maxBatch bounds the bets of one transaction (its statements stay far
	// below the drivers' parameter limits; its locks stay short).
	maxBatch = 256
	// maxInflight is how many batches of one draw may run at once. Batches
	// of a draw queue on the pool's escrow row for their write and commit,
	// so splitting the waiting bets over more batches only makes more,
	// smaller commits: the next batch starts when the one before commits,
	// or, once overlapMin bets wait, as soon as the one before sends its
	// write (its reads then overlap that commit). See drawQueue.reading.
	maxInflight = 4
	// overlapMin is how many waiting bets start a batch before the one in
	// flight has committed. Eight: a batch started early waits on the
	// pool's escrow and totals rows for the rest of the commit before it
	// (Lock:transactionid led the sampled wait events), holding its
	// players' wallets and a connection meanwhile, and its fixed cost in
	// CPU is paid for few bets; on 2 cores shared by the load, the server
	// and Postgres that cost is the bottleneck. With eight, 8 closed-loop
	// clients formed batches of 4.0 bets (3.5 with two), the transaction
	// took 8-9 ms instead of 17-36 and placeBet went from 0.39 and 0.94x
	// pgbench to 1.08 and 1.28x (four was between); at 32 clients the
	// ratio stayed within the spread (docs/bench/2026-12-06-bets-2.md).
	// A lone straggler still waits for the commit and rides with the bets
	// that arrive meanwhile.
	overlapMin = 8
	// batchTimeout bounds one batch's transaction; it runs detached from
	// any one request's context, since it answers many.
	batchTimeout = 30 * time.Second
	// maxPublishing bounds the batches whose players' events are on their
	// way to the broker behind the intake's back; past it a batch waits for
	// its events to be out before its runner goes on (the broker's pace
	// then holds the intake).
	maxPublishing = 64
	// maxPublishEvents bounds the events of one send that carries several
	// batches' (a batch of more is sent alone).
	maxPublishEvents = 4 * maxBatch
)

// betJob is one PlaceBet waiting in the intake.
type betJob struct {
	// ctx is the request's context: the batch it leads runs under its
	// values (not its cancellation), see placeBatch.
	ctx  context.Context
	req  tote.PlaceBetRequest
	sel  parimutuel.Selection
	done chan struct{}
	// queued is when the request handed its bet to the intake.
	queued time.Time
	// gated is closed once the stake gate has answered (gateErr): the
	// request asks the gate while its bet already waits in the queue (for
	// the batch in flight to commit), so the gate's reads overlap that wait
	// instead of adding to every bet's time.
	gated   chan struct{}
	gateErr error

	bet     tote.Bet
	balance money.Amount
	err     error
	// eventSeq is the seq of the bet's first event when the store
	// appended its events in the bet's transaction (0: not appended).
	eventSeq int64
}

// Observer is told about the intake's batches, for metrics: how the
// round-close surge is carried (a batch's size), how long bets wait for a
// batch to take them, and how long a batch's transaction takes.
type Observer interface {
	// BetBatch is called once per batch, after its transaction: the bets
	// it carried (accepted or not), how long the oldest of them waited from
	// its request's hand-off to the start of the transaction (for the batch
	// in flight, and for the stake gate), and how long the transaction took,
	// its retries included; failed tells that the whole batch failed (the
	// store, not one bet's checks).
	BetBatch(bets int, waited, took time.Duration, failed bool)
}

// drawQueue is the intake of one draw.
type drawQueue struct {
	pending []*betJob
	running int
	// reading is true while a batch holds the draw's turn: until it
	// commits, or until it sends its write with overlapMin bets waiting
	// (a BatchPlacer says when it writes). Bets arriving meanwhile wait for
	// the next batch instead of starting one of their own, so each commit
	// carries as many bets as arrived during the one before.
	reading bool
}

// Config is what a Queue is built from.
type Config struct {
	Store     tote.Store
	Gate      tote.StakeGate
	Publisher event.Publisher // the players' BET_ACCEPTED and BALANCE_CHANGED
	Clock     tote.Clock      // nil: the wall clock
	Log       *slog.Logger    // nil: discard
	// Observer is told about every batch (nil: nobody), for the operators'
	// metrics of the round-close surge.
	Observer Observer
	// Stats counts the accepted bets (nil: a Stats of the queue's own).
	Stats *outbox.Stats
	// Pools is told after every batch that stored bets that their draw's
	// pools changed (nil: nobody; no live POOL_UPDATED then).
	Pools tote.PoolSignal
}

// Queue gathers concurrent bets per draw and places them in batches; see
// the package's comment.
type Queue struct {
	store tote.Store
	gate  tote.StakeGate
	pub   event.Publisher
	clock tote.Clock
	log   *slog.Logger
	watch Observer
	stats *outbox.Stats
	pools tote.PoolSignal

	mu    sync.Mutex
	draws map[int64]*drawQueue
	// outbox are the batches' players' events waiting to be sent, in
	// commit order; flushing is true while a flusher sends them (one at a
	// time, so players' events leave in commit order); publishing counts
	// the batches waiting or being sent.
	outbox     []outgoing
	flushing   bool
	publishing int
}

// New returns the intake of cfg's store; the store, gate and publisher are
// required.
func New(cfg Config) *Queue {
	if cfg.Clock == nil {
		cfg.Clock = tote.RealClock{}
	}
	cfg.Log = cmp.Or(cfg.Log, slog.New(slog.DiscardHandler))
	cfg.Stats = cmp.Or(cfg.Stats, &outbox.Stats{})
	return &Queue{
		store: cfg.Store, gate: cfg.Gate, pub: cfg.Publisher, clock: cfg.Clock, log: cfg.Log,
		watch: cfg.Observer, stats: cfg.Stats, pools: cfg.Pools,
	}
}

// submit queues job and starts a batch runner for its draw unless enough
// are running; the caller then waits on job.done.
func (in *Queue) submit(job *betJob) {
	in.mu.Lock()
	if in.draws == nil {
		in.draws = map[int64]*drawQueue{}
	}
	q := in.draws[job.req.DrawID]
	if q == nil {
		q = &drawQueue{}
		in.draws[job.req.DrawID] = q
	}
	q.pending = append(q.pending, job)
	start := !q.reading && q.running < maxInflight
	if start {
		q.running++
	}
	in.mu.Unlock()
	if start {
		go in.runDraw(job.req.DrawID)
	}
}

// writing is called when the batch holding drawID's turn sends its write:
// with overlapMin bets waiting it gives the turn up (released) and starts
// another batch for them.
func (in *Queue) writing(drawID int64, released *bool) {
	in.mu.Lock()
	q := in.draws[drawID]
	start := !*released && len(q.pending) >= overlapMin && q.running < maxInflight
	if start {
		*released = true
		q.reading = false
		q.running++
	}
	in.mu.Unlock()
	if start {
		go in.runDraw(drawID)
	}
}

// runDraw runs batches of a draw's queue until it is empty.
func (in *Queue) runDraw(drawID int64) {
	for {
		in.mu.Lock()
		q := in.draws[drawID]
		if len(q.pending) == 0 || q.reading {
			// Nothing to do, or the batch reading now takes the waiting
			// bets next (writing starts a runner for them).
			q.running--
			if q.running == 0 {
				delete(in.draws, drawID)
			}
			in.mu.Unlock()
			return
		}
		n := min(len(q.pending), maxBatch)
		jobs := q.pending[:n:n]
		q.pending = q.pending[n:]
		q.reading = true
		in.mu.Unlock()
		released := false // guarded by in.mu
		in.placeBatch(jobs, func() { in.writing(drawID, &released) })
		in.mu.Lock()
		if !released {
			q.reading = false
		}
		in.mu.Unlock()
	}
}

// placeBatch places jobs (all on one draw) in one transaction and answers
// each of them.
//
// The transaction answers many requests, so it ignores their cancellation;
// it carries the values of the first request's context (its trace, its
// request-scoped logger), so a trace of that bet shows the batch's
// statements under it. The other bets of the batch show their wait.
//
// writing (nil for none) is called when the batch starts its write.
func (in *Queue) placeBatch(jobs []*betJob, writing func()) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(jobs[0].ctx), batchTimeout)
	defer cancel()
	// Every gate has answered before the transaction takes a connection: a
	// batch holding one while waiting for gates that need one could starve
	// the pool.
	for _, j := range jobs {
		<-j.gated
	}
	began := time.Now()
	waited := began.Sub(jobs[0].queued) // the queue is first in, first out
	var err error
	if bp, ok := in.store.(tote.BatchPlacer); ok {
		err = in.placeBatchDirect(ctx, bp, jobs, writing)
	} else {
		err = in.store.Within(ctx, func(ctx context.Context, tx tote.Tx) error {
			return in.placeBatchInTx(ctx, tx, jobs)
		})
	}
	took := time.Since(began)
	if in.watch != nil {
		in.watch.BetBatch(len(jobs), waited, took, err != nil)
	}
	in.log.DebugContext(ctx, "bet batch", "draw", jobs[0].req.DrawID, "bets", len(jobs), "took", took, "err", err)
	var msgs []event.Message
	for _, j := range jobs {
		if err != nil {
			j.err = err
		}
		if j.err == nil {
			in.stats.BetsAccepted.Add(1)
			topic := event.UserTopic(j.req.UserID)
			for k, e := range tote.AcceptedEvents(j.bet, j.balance) {
				if j.eventSeq != 0 {
					// Appended to the player's stream with the bet: the
					// log passes an event with its seq through.
					e.Seq = j.eventSeq + int64(k)
				}
				msgs = append(msgs, event.Message{Topic: topic, Data: e.Encode()})
			}
		}
	}
	in.signalPools(ctx, jobs)
	for _, j := range jobs {
		close(j.done)
	}
	in.publishInOrder(ctx, msgs)
}

// signalPools tells in.pools that the draw of jobs (one draw) has new
// bets, once the batch committed some: before the bets are answered, so a
// player who hears "accepted" knows the dealer was told.
func (in *Queue) signalPools(ctx context.Context, jobs []*betJob) {
	if in.pools == nil {
		return
	}
	for _, j := range jobs {
		if j.err == nil {
			in.pools.PoolsChanged(ctx, j.bet.TableID, j.bet.DrawID)
			return
		}
	}
}

// publishInOrder hands a batch's players' events to the publisher after
// the events of every batch before it, without holding up the draw's next
// batch: the answers need not wait for them, and the runner's next
// transaction need not either. One flusher at a time sends what waits, in
// commit order: the events of every batch that committed while the last
// send was under way go out together in one PublishAll (one append to the
// user event log and one round trip to the broker where they can), up to
// maxPublishEvents. Past maxPublishing batches waiting it returns only once
// its own events are out (the broker's pace then holds the intake).
func (in *Queue) publishInOrder(ctx context.Context, msgs []event.Message) {
	if len(msgs) == 0 {
		return
	}
	o := outgoing{ctx: ctx, msgs: msgs, done: make(chan struct{})}
	in.mu.Lock()
	in.outbox = append(in.outbox, o)
	in.publishing++
	wait := in.publishing > maxPublishing
	start := !in.flushing
	in.flushing = true
	in.mu.Unlock()
	if start {
		go in.flush()
	}
	if wait {
		<-o.done
	}
}

// outgoing are one batch's players' events waiting for the flusher.
type outgoing struct {
	ctx  context.Context // the batch's (its values: trace, logger)
	msgs []event.Message
	done chan struct{} // closed once they are sent (or failed)
}

// flush sends the waiting events in order, as many batches' at a time as
// maxPublishEvents allows, until none wait.
func (in *Queue) flush() {
	for {
		in.mu.Lock()
		n, count := 0, 0
		for n < len(in.outbox) && (n == 0 || count+len(in.outbox[n].msgs) <= maxPublishEvents) {
			count += len(in.outbox[n].msgs)
			n++
		}
		if n == 0 {
			in.flushing = false
			in.outbox = nil
			in.mu.Unlock()
			return
		}
		group := in.outbox[:n:n]
		in.outbox = in.outbox[n:]
		in.mu.Unlock()
		msgs := group[0].msgs
		if n > 1 {
			msgs = make([]event.Message, 0, count)
			for _, o := range group {
				msgs = append(msgs, o.msgs...)
			}
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(group[0].ctx), batchTimeout)
		if err := event.PublishAll(ctx, in.pub, msgs); err != nil {
			in.log.WarnContext(ctx, "user events not published", "events", len(msgs), "batches", n, "err", err)
		}
		cancel()
		in.mu.Lock()
		in.publishing -= n
		in.mu.Unlock()
		for _, o := range group {
			close(o.done)
		}
	}
}

// placeBatchInTx does the work of one batch inside tx, for a Store that is
// not a BatchPlacer: tote.CheckBet per bet, InsertBets, then each stake through
// the ledger's own checked post (ledger.PostEach: ledger.Apply and, in the
// database ledger, its protection guard, protection.Admit). Every store of
// this repository is a BatchPlacer; the differential tests hide that
// (persistence's withinOnly) to compare PlanBatch with these single posts.
// It may run again after a serialization failure, so it starts from a
// clean slate.
func (in *Queue) placeBatchInTx(ctx context.Context, tx tote.Tx, jobs []*betJob) error {
	for _, j := range jobs {
		j.bet, j.balance, j.err, j.eventSeq = tote.Bet{}, 0, nil, 0
	}
	d, err := tx.LockDraw(ctx, jobs[0].req.DrawID, tote.Shared)
	if err != nil {
		return err
	}
	now := in.clock.Now()
	t, err := tx.Table(ctx, d.TableID)
	if err != nil {
		return err
	}
	live, bets := checkedBets(d, t, now, jobs)
	if len(live) == 0 {
		return nil
	}
	stored, insErrs, err := tx.InsertBets(ctx, bets)
	if err != nil {
		return err
	}
	took, undo, err := postStakes(ctx, tx, d, live, stored, insErrs)
	if err != nil {
		return err
	}
	keys, errOf := make([]tote.BetKey, len(live)), make([]*error, len(live))
	for i, j := range live {
		keys[i], errOf[i] = tote.BetKey{User: j.req.UserID, Key: j.req.IdempotencyKey}, &j.err
	}
	tote.InheritFirstFailures(keys, took, errOf)
	if len(undo) > 0 {
		if err := tx.DeleteBets(ctx, undo); err != nil {
			return err
		}
	}
	var kept []tote.Bet
	for _, j := range live {
		if j.err == nil {
			kept = append(kept, j.bet)
		}
	}
	// The totals last, as PlaceBatch writes them: their rows stay locked
	// from here to the commit only.
	return tx.AddPoolTotals(ctx, tote.PoolIncrements(kept))
}

// checkedBets are the jobs that passed their stake gate and tote.CheckBet
// at now (the others get their error), with the bet each one places.
func checkedBets(d tote.Draw, t tote.Table, now time.Time, jobs []*betJob) (live []*betJob, bets []tote.Bet) {
	for _, j := range jobs {
		if j.err = j.gateErr; j.err != nil {
			continue
		}
		if j.err = tote.CheckBet(d, t, j.req.Stake, j.sel, now); j.err != nil {
			continue
		}
		live = append(live, j)
		bets = append(bets, tote.Bet{
			DrawID: d.ID, TableID: d.TableID, UserID: j.req.UserID, Round: d.OpenRound(), Selection: j.sel,
			Stake: j.req.Stake, Status: tote.BetAccepted, IdempotencyKey: j.req.IdempotencyKey, PlacedAt: now,
		})
	}
	return live, bets
}

// postStakes posts the stake of each live job whose bet was stored
// (insErrs[i] nil), one checked post each, and gives each job its bet and
// wallet balance or its error. took reports the jobs that took their key
// in this batch; undo are the stored bets whose stake was refused, to be
// deleted.
func postStakes(ctx context.Context, tx tote.Tx, d tote.Draw, live []*betJob, stored []tote.Bet, insErrs []error) (took []bool, undo []int64, err error) {
	var staked []*betJob
	var transfers []ledger.Transfer
	took = make([]bool, len(live))
	for i, j := range live {
		if j.err = insErrs[i]; j.err != nil {
			continue
		}
		took[i] = true
		b := stored[i]
		j.bet = b
		staked = append(staked, j)
		transfers = append(transfers, tote.StakeTransfer(d, b))
	}
	posted, postErrs, err := ledger.PostEach(ctx, tx.Ledger(), transfers)
	if err != nil {
		return nil, nil, err
	}
	for i, j := range staked {
		if j.err = postErrs[i]; j.err != nil {
			undo = append(undo, j.bet.ID)
			j.bet = tote.Bet{}
			continue
		}
		wallet := ledger.UserWallet(j.req.UserID)
		for _, e := range posted[i].Entries {
			if e.Account == wallet {
				j.balance = e.BalanceAfter
			}
		}
	}
	return took, undo, nil
}

// judgesInBatch reports whether the stake gate runs inside the batch (on
// rows the store reads with the draw) rather than before it.
func (in *Queue) judgesInBatch() (tote.StakeJudge, bool) {
	bp, ok := in.store.(tote.BatchPlacer)
	if !ok || !bp.ReadsPlayers() {
		return nil, false
	}
	j, ok := in.gate.(tote.StakeJudge)
	return j, ok
}

// placeBatchDirect places jobs through a BatchPlacer.
func (in *Queue) placeBatchDirect(ctx context.Context, bp tote.BatchPlacer, jobs []*betJob, writing func()) error {
	w := tote.BatchWork{DrawID: jobs[0].req.DrawID, Requests: make([]tote.BatchRequest, len(jobs)), Clock: in.clock, Writing: writing}
	if judge, ok := in.judgesInBatch(); ok {
		w.Judge = judge
	}
	for i, j := range jobs {
		w.Requests[i] = tote.BatchRequest{UserID: j.req.UserID, Key: j.req.IdempotencyKey, Selection: j.sel, Stake: j.req.Stake, Refused: j.gateErr}
	}
	res, err := bp.PlaceBatch(ctx, w)
	if err != nil {
		return err
	}
	if len(res) != len(jobs) {
		return errs.E(errs.Internal, "tote: the store answered a batch of %d bets with %d results", len(jobs), len(res))
	}
	for i, j := range jobs {
		j.bet, j.balance, j.err, j.eventSeq = res[i].Bet, res[i].Balance, res[i].Err, res[i].EventSeq
		if res[i].GateRefused {
			j.gateErr = res[i].Err // answered as the gate's refusal, never replayed
		}
	}
	return nil
}
