package app

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/domain/tote"
)

// startPruner runs the outbox pruning on this replica (every replica may:
// the store's pruning is idempotent and only ever raises the watermark).
func (a *App) startPruner(store tote.Store) {
	r, ok := store.(tote.EventRetention)
	if !ok {
		return
	}
	pruned := prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: "pokertote", Subsystem: "tote", Name: "events_pruned_total",
		Help: "Table events pruned from the outbox by this replica (EVENT_RETENTION).",
	})
	a.metrics = append(a.metrics, pruned)
	p := &tote.Pruner{
		Store: r, MaxAge: a.cfg.EventRetention, Interval: a.cfg.EventPruneInterval, Now: a.toteClock().Now,
		Log: a.log.With("component", "outbox-pruner"), Pruned: func(n int) { pruned.Add(float64(n)) },
	}
	a.goBackground("outbox-pruner", p.Run)
}

// startOpsMetrics registers the operational metrics of the totalizator and
// the ledger and starts the periodic ledger reconciliation.
func (a *App) startOpsMetrics(obs *tableObserver, store tote.Store) {
	rec := newReconciler(a.ledger, a.cfg.ReconcileInterval)
	a.metrics = append(a.metrics, obs.collectors()...)
	a.metrics = append(a.metrics, rec.collectors()...)
	a.metrics = append(a.metrics, newTablesCollector(store, a.hub))
	log := a.log.With("component", "reconciler")
	a.goBackground("ledger-reconcile", rec.run(func(msg string, args ...any) { log.Error(msg, args...) }))
}
