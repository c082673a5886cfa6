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
		Store: r, MaxAge: a.cfg.EventRetention, Interval: a.cfg.EventPruneInterval,
		Log: a.log.With("component", "outbox-pruner"), Pruned: func(n int) { pruned.Add(float64(n)) },
	}
	a.goBackground("outbox-pruner", p.Run)
}
