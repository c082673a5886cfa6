package app

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
)

// Operational metrics for the dashboard and alerts in deploy/.
// The "table" label is a table id: admins create tables one by one, so the
// label stays small; pool series are per table, round (1-4) and market (3).

// tableObserver is the Publisher the totalizator publishes through: it
// forwards every message and, for table events, keeps the gauges of the
// table that the publishing replica deals (last card, pools, settlement
// time). Only the dealing replica publishes a table's events, so the
// dashboard and alerts take max by table over replicas.
type tableObserver struct {
	next event.Publisher
	// stages, when profiling (DEBUG_ADDR), starts each table event's
	// record of its passage to the sockets.
	stages *event.StageLog

	lastDealt  *prometheus.GaugeVec
	poolGross  *prometheus.GaugeVec
	settlement prometheus.Histogram

	mu    sync.Mutex
	river map[int64]time.Time // table -> when its river card was dealt
}

func newTableObserver(next event.Publisher) *tableObserver {
	return &tableObserver{
		next: next,
		lastDealt: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "table_last_dealt_timestamp_seconds",
			Help: "When this replica last dealt cards at the table (Unix seconds); the table-not-dealing alert watches it.",
		}, []string{"table"}),
		poolGross: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "pool_gross_tenge",
			Help: "Gross stakes in each pool of the table's current draw, in tenge (by round 1-4 and market).",
		}, []string{"table", "round", "market"}),
		settlement: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "pokertote", Subsystem: "tote", Name: "settlement_seconds",
			Help:    "Time from a draw's river card to its DRAW_SETTLED event (settling every pool and paying out).",
			Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}),
		river: map[int64]time.Time{},
	}
}

func (o *tableObserver) collectors() []prometheus.Collector {
	return []prometheus.Collector{o.lastDealt, o.poolGross, o.settlement}
}

var _ event.BatchPublisher = (*tableObserver)(nil)

// Publish implements event.Publisher.
func (o *tableObserver) Publish(ctx context.Context, topic string, data []byte) error {
	o.look(topic, data)
	return o.next.Publish(ctx, topic, data)
}

// PublishBatch implements event.BatchPublisher: the batch goes on to the
// broker as one batch (one Redis round trip), as the bet intake and the
// settlement hand it over, one delivery per topic in process (the dealer's
// step's events). Without it every message of a batch would be its own
// round trip, in the bet intake's loop (docs/bets-load.md).
func (o *tableObserver) PublishBatch(ctx context.Context, msgs []event.Message) error {
	for _, m := range msgs {
		o.look(m.Topic, m.Data)
	}
	return event.PublishAll(ctx, o.next, msgs)
}

// look observes a table event on its way out.
func (o *tableObserver) look(topic string, data []byte) {
	if strings.HasPrefix(topic, "table:") {
		if e, err := tote.DecodeTableEvent(data); err == nil {
			o.stages.Begin(e.TableID, e.Seq, e.At, time.Now())
			o.observe(e)
		}
	}
}

func (o *tableObserver) observe(e tote.TableEvent) {
	table := strconv.FormatInt(e.TableID, 10)
	switch e.Type {
	case tote.EventDrawOpened:
		o.poolGross.DeletePartialMatch(prometheus.Labels{"table": table})
	case tote.EventCardsDealt:
		o.lastDealt.WithLabelValues(table).Set(float64(e.At.UnixNano()) / 1e9)
		if e.Street == tote.StreetRiver {
			o.mu.Lock()
			o.river[e.TableID] = e.At
			o.mu.Unlock()
		}
	case tote.EventPoolUpdated:
		if e.Pool != nil {
			o.poolGross.WithLabelValues(table, strconv.Itoa(int(e.Pool.Round)), string(e.Pool.Market)).
				Set(float64(e.Pool.Gross) / float64(money.KZT))
		}
	case tote.EventDrawSettled:
		o.mu.Lock()
		at, ok := o.river[e.TableID]
		delete(o.river, e.TableID)
		o.mu.Unlock()
		if ok && !e.At.Before(at) {
			o.settlement.Observe(e.At.Sub(at).Seconds())
		}
	}
}

// tablesCollector reads, on each scrape, every table's status and this
// replica's subscriber count (one query for the table list).
type tablesCollector struct {
	store       tote.Store
	hub         *event.Hub
	paused      *prometheus.Desc
	subscribers *prometheus.Desc
}

func newTablesCollector(store tote.Store, hub *event.Hub) *tablesCollector {
	return &tablesCollector{
		store: store, hub: hub,
		paused: prometheus.NewDesc("pokertote_tote_table_paused",
			"1 while the table is paused by an admin (it is then not expected to deal).", []string{"table"}, nil),
		subscribers: prometheus.NewDesc("pokertote_tote_table_subscribers",
			"Live tableEvents subscriptions on this replica.", []string{"table"}, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *tablesCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.paused
	ch <- c.subscribers
}

// Collect implements prometheus.Collector.
func (c *tablesCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	tables, err := c.store.Tables(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.paused, err)
		return
	}
	for _, t := range tables {
		id := strconv.FormatInt(t.ID, 10)
		paused := 0.0
		if t.Status == tote.TablePaused {
			paused = 1
		}
		ch <- prometheus.MustNewConstMetric(c.paused, prometheus.GaugeValue, paused, id)
		ch <- prometheus.MustNewConstMetric(c.subscribers, prometheus.GaugeValue, float64(c.hub.Subscribers(event.TableTopic(t.ID))), id)
	}
}

// reconciler checks the ledger periodically and exports the outcome: the
// alert fires on a mismatch, or when no check has succeeded for too long.
type reconciler struct {
	ledger   ledger.Store
	interval time.Duration

	mismatch prometheus.Gauge
	lastRun  prometheus.Gauge
	failures prometheus.Counter
}

func newReconciler(l ledger.Store, interval time.Duration) *reconciler {
	return &reconciler{
		ledger: l, interval: interval,
		mismatch: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "pokertote", Subsystem: "ledger", Name: "reconcile_mismatch",
			Help: "1 when the last ledger reconciliation found the books inconsistent, else 0.",
		}),
		lastRun: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "pokertote", Subsystem: "ledger", Name: "reconcile_last_run_timestamp_seconds",
			Help: "When the ledger reconciliation last completed (consistent or not), Unix seconds.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "pokertote", Subsystem: "ledger", Name: "reconcile_errors_total",
			Help: "Ledger reconciliations that could not run (database errors).",
		}),
	}
}

func (r *reconciler) collectors() []prometheus.Collector {
	return []prometheus.Collector{r.mismatch, r.lastRun, r.failures}
}

// run reconciles at once, then every interval, until ctx ends.
func (r *reconciler) run(log func(msg string, args ...any)) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		t := time.NewTicker(r.interval)
		defer t.Stop()
		for {
			r.check(ctx, log)
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
		}
	}
}

func (r *reconciler) check(ctx context.Context, log func(msg string, args ...any)) {
	err := r.ledger.Reconcile(ctx)
	switch {
	case err == nil:
		r.mismatch.Set(0)
	case ctx.Err() != nil:
		return
	case isInconsistent(err):
		r.mismatch.Set(1)
		log("LEDGER DOES NOT RECONCILE", "err", err)
	default:
		r.failures.Inc()
		log("ledger reconciliation could not run", "err", err)
		return
	}
	r.lastRun.SetToCurrentTime()
}

func isInconsistent(err error) bool { return errs.ReasonOf(err) == ledger.ReasonInconsistent }
