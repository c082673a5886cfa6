package app

import (
	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence"
)

// replicaReads is the GraphQL middleware that sends lag-tolerant queries
// to DATABASE_READ_URL (graph.ReplicaReads) with read-your-writes through
// Redis when there is one, in this process otherwise; nil without a read
// replica. It also registers the reads per pool on /metrics.
func (a *App) replicaReads() graphql.OperationMiddleware {
	if !a.db.HasReplica() {
		return nil
	}
	var recent *persistence.RecentWriters
	if a.redis != nil {
		recent = persistence.NewRedisRecentWriters(a.redis, a.cfg.RedisPrefix, a.cfg.ReadYourWrites, a.log)
	} else {
		recent = persistence.NewRecentWriters(a.cfg.ReadYourWrites)
	}
	vec := func(pool string, read func(persistence.ReadCounts) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: "pokertote", Subsystem: "db", Name: "plain_reads_total",
			Help:        "Reads outside transactions by the repositories, per pool (primary or read replica).",
			ConstLabels: prometheus.Labels{"pool": pool},
		}, func() float64 { return float64(read(a.db.ReadCounts())) })
	}
	a.metrics = append(a.metrics,
		vec("primary", func(c persistence.ReadCounts) int64 { return c.Primary }),
		vec("replica", func(c persistence.ReadCounts) int64 { return c.Replica }))
	return graph.ReplicaReads{Mark: persistence.LagTolerant, Recent: recent}.Middleware
}
