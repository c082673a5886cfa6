package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/dealer"
	"github.com/pokertote/pokertote/domain/tote/intake"
	"github.com/pokertote/pokertote/domain/tote/liveodds"
	"github.com/pokertote/pokertote/domain/tote/outbox"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/drand"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// Dealer timing in real time; TIME_SCALE divides each (within bounds) so that
// fast test and demo servers also take tables over quickly.
const (
	toteLeaseTTL = 10 * time.Second
	toteScan     = 2 * time.Second
	// localBeaconPeriod is the local beacon's period before TIME_SCALE: the
	// same 3 s as drand's quicknet.
	localBeaconPeriod = 3 * time.Second
)

// beaconSource builds the beacon the dealers draw every street from: drand's
// quicknet over HTTP, or the local chain (its period divided by TIME_SCALE
// so fast test servers stay fast). Production refuses the local chain
// unless BEACON_ALLOW_LOCAL (Config.Validate).
func (a *App) beaconSource(ctx context.Context) (beacon.Source, error) {
	if a.cfg.Beacon == "drand" {
		c := drand.NewRelays(a.cfg.DrandURLs, beacon.Quicknet)
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if err := c.CheckInfo(cctx); err != nil {
			// Draws wait (never deal from anything else) while no relay
			// answers; say so now.
			a.log.Warn("drand relays not all usable at start: a draw waits for its beacon while none answers", "err", err)
		}
		a.log.Info("beacon", "chain", "quicknet", "hash", beacon.Quicknet.Hash)
		return c, nil
	}
	period := max(time.Duration(float64(localBeaconPeriod)/max(a.cfg.TimeScale, 1)), time.Millisecond)
	l, err := beacon.NewLocal([]byte(a.cfg.BeaconSecret), period, a.toteClock().Now)
	if err != nil {
		return nil, err
	}
	if !a.cfg.Development() {
		a.log.Warn("LOCAL beacon in production (BEACON_ALLOW_LOCAL): results prove nothing to players", "hash", l.Chain().Hash)
	} else {
		a.log.Info("beacon", "chain", "local", "hash", l.Chain().Hash, "period", period)
	}
	return l, nil
}

// startTote builds the totalizator: its store, service, the GraphQL part of
// it, the two demo tables on first start (DEMO_TABLES) and, when DEALER is
// on, the dealers of every table (one per table across replicas, by lease).
func (a *App) startTote(ctx context.Context) error {
	repo := totedb.New(a.db, a.ledger)
	// The bet batch appends its players' BET_ACCEPTED and BALANCE_CHANGED
	// to the user event log (a.userEvents) with the bets; the log then
	// passes those events, already given their seqs, through.
	repo.LogUserEvents()
	src, err := a.beaconSource(ctx)
	if err != nil {
		return fmt.Errorf("totalizator beacon: %w", err)
	}
	obs := newTableObserver(a.userPub)
	obs.stages = a.stages
	batches := newIntakeMetrics()
	log, clock, timeScale := a.log.With("component", "tote"), a.toteClock(), tote.TimeScale(a.cfg.TimeScale)
	// The gate as a judge: a store that reads the players in its bet batch
	// (Postgres) judges them there, after the stop, instead of every
	// request reading the player's two rows first.
	gate := judgingGate{Gate: a.stakeGate, accounts: a.accounts}
	svc, err := service.New(service.Config{
		Store: repo, Ledger: a.ledger, Gate: gate, Publisher: obs, Auditor: a.users,
		Log: log, TimeScale: timeScale, Intake: batches, Clock: clock,
		// Committed bets signal the table's dealer, on whichever replica
		// holds its lease, through the broker (pool_signal.go).
		Pools: newPoolNotice(a.broker, log),
	})
	if err != nil {
		return fmt.Errorf("totalizator: %w", err)
	}
	// The read model follows every table's events: the table queries, the
	// join snapshot and the table subscriptions read it.
	live := readmodel.New(repo, a.hub, a.log.With("component", "tote-readmodel"), 0)
	live.Stages = a.stages
	a.toteAPI = graph.NewToteAPI(svc, live, a.log)
	if a.redis == nil {
		// The in-process broker: this process is the only one writing the
		// database (replicas share Redis), so its store's jackpot watch
		// sees every change of the jackpot, and the jackpot last read is
		// answered while the watch says it holds (graph/jackpot_version.go).
		// With Redis every caller reads it, as other replicas change it.
		changes := &event.Changes{}
		repo.WatchJackpot(changes)
		a.toteAPI.WatchJackpot(changes)
	}
	a.toteSvc = svc
	a.metrics = append(a.metrics, toteMetrics(svc.Stats())...)
	a.metrics = append(a.metrics, batches.collectors()...)
	a.startPruner(repo)
	a.startWebhooks(repo)
	a.startBettingStop(svc)
	a.startOpsMetrics(obs, repo)
	if a.cfg.DemoTables {
		if err := svc.EnsureDemoTables(ctx); err != nil {
			return fmt.Errorf("totalizator demo tables: %w", err)
		}
	}
	a.goBackground("tote-readmodel", live.Run)
	select {
	case <-live.Ready():
	case <-ctx.Done():
		return ctx.Err()
	}
	if !a.cfg.DealerEnabled {
		a.log.Info("totalizator ready", "dealer", false)
		return nil
	}
	scale := max(a.cfg.TimeScale, 1)
	dcfg := dealer.Config{
		Owner:    dealerOwner(),
		LeaseTTL: max(time.Duration(float64(toteLeaseTTL)/scale), 500*time.Millisecond),
		// How long a street waits for its beacon round before the draw may
		// be voided (BEACON_WAIT).
		BeaconWait: max(time.Duration(float64(a.cfg.BeaconWait)/scale), 50*time.Millisecond),
	}
	scan := max(time.Duration(float64(toteScan)/scale), 200*time.Millisecond)
	signals := dealer.NewSignals()
	a.followPools(signals)
	// The dealers share the service's store, publisher, clock, time scale
	// and counters.
	sup := dealer.NewSupervisor(dealer.Parts{
		Store: repo, Leases: repo, Odds: &liveodds.Exact{}, Beacon: src, Clock: clock, TimeScale: timeScale, Log: log,
		Relay: outbox.NewRelay(repo, obs, clock, log, svc.Stats()), Stats: svc.Stats(), Signals: signals,
	}, dcfg, scan)
	a.goDealer("tote-dealers", sup.Run)
	a.log.Info("totalizator ready", "dealer", dcfg.Owner, "lease_ttl", dcfg.LeaseTTL, "time_scale", scale)
	return nil
}

// toteClock is the totalizator's clock: the wall clock unless a test set
// Config.ToteClock.
func (a *App) toteClock() tote.Clock {
	if a.cfg.ToteClock != nil {
		return a.cfg.ToteClock
	}
	return tote.RealClock{}
}

// dealerOwner names this process in the lease table: host, pid and a random
// suffix, so two processes never share a name.
func dealerOwner() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// toteMetrics exposes the totalizator's counters.
func toteMetrics(st *outbox.Stats) []prometheus.Collector {
	counter := func(name, help string, v func() int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: "pokertote", Subsystem: "tote", Name: name, Help: help},
			func() float64 { return float64(v()) })
	}
	out := []prometheus.Collector{
		counter("bets_accepted_total", "Bets accepted by this replica.", st.BetsAccepted.Load),
		counter("draws_settled_total", "Draws settled by this replica's dealers.", st.DrawsSettled.Load),
		counter("draws_voided_total", "Draws voided on this replica (admin before the deal, a missing beacon, or one published before its round closed).", st.DrawsVoided.Load),
		counter("dealer_step_failures_total", "Dealer steps that failed and were retried.", st.StepFailures.Load),
	}
	for i, k := range tote.VoidKinds {
		out = append(out, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "voids_total",
			Help:        "Draws voided on this replica, by kind (ADMIN_BEFORE_DEAL, BEACON_MISSING, BEACON_BEFORE_CLOSE, ROOT_LATE; LEGACY is never counted live).",
			ConstLabels: prometheus.Labels{"kind": string(k)},
		}, func() float64 { return float64(st.Voids[i].Load()) }))
	}
	return out
}

// intakeMetrics shows how the bet intake carries the round-close surge
// (intake.Observer): the size of its batches, how long bets wait for a
// batch, and how long a batch's transaction takes. scripts/bench-bets.sh
// prints the same three figures after a load test (docs/bets-load.md).
type intakeMetrics struct {
	size   prometheus.Histogram
	waited prometheus.Histogram
	took   *prometheus.HistogramVec
}

var _ intake.Observer = (*intakeMetrics)(nil)

func newIntakeMetrics() *intakeMetrics {
	// In seconds, from half a millisecond: below a lone bet's batch on a
	// quiet local Postgres (a few ms: docs/bench/2026-12-01-bets.md).
	quick := []float64{.0005, .001, .002, .004, .008, .016, .032, .064, .128, .256, .512, 1, 2, 5}
	return &intakeMetrics{
		size: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "bet_batch_bets",
			Help:    "Bets per batch of the bet intake (one transaction each; at most 256).",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256},
		}),
		waited: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "bet_batch_wait_seconds",
			Help:    "How long the oldest bet of a batch waited for the batch's transaction to start.",
			Buckets: quick,
		}),
		took: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "bet_batch_seconds",
			Help:    "How long a batch's transaction took, retries included, by outcome (ok: committed, even if some bets were refused; error: the whole batch failed).",
			Buckets: quick,
		}, []string{"outcome"}),
	}
}

// BetBatch implements intake.Observer.
func (m *intakeMetrics) BetBatch(bets int, waited, took time.Duration, failed bool) {
	m.size.Observe(float64(bets))
	m.waited.Observe(waited.Seconds())
	outcome := "ok"
	if failed {
		outcome = "error"
	}
	m.took.WithLabelValues(outcome).Observe(took.Seconds())
}

func (m *intakeMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.size, m.waited, m.took}
}

// judgingGate is the stake gate of both games (the emergency stop around
// the accounts' rule) as a tote.StakeJudge: the intake judges the players
// inside the bet batch when its store reads their rows there, which it
// does only for a gate that is a judge (the Gate alone is not: it wraps
// a StakeGate). CanStake checks the stop first, as EnsureCanStake does,
// then the accounts' rule on the rows the batch read.
type judgingGate struct {
	*bettingstop.Gate
	accounts *account.Service
}

var _ tote.StakeJudge = judgingGate{}

// CanStake implements tote.StakeJudge.
func (g judgingGate) CanStake(u account.User, v account.Verification, now time.Time) error {
	if err := g.Gate.Open(); err != nil {
		return err
	}
	return g.accounts.CanStake(u, v, now)
}
