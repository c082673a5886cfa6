package app

import (
	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// replicaReads is the GraphQL middleware that sends lag-tolerant queries
// to DATABASE_READ_URL (graph.ReplicaReads) with read-your-writes by WAL
// position, the players' positions shared through Redis when there is one,
// in this process otherwise; nil without a read replica. It also registers the reads per pool on /metrics.
func (a *App) replicaReads() graphql.OperationMiddleware {
	if !a.db.HasReplica() {
		return nil
	}
	var writes *sqldb.WritePositions
	if a.redis != nil {
		writes = sqldb.NewRedisWritePositions(a.redis, a.cfg.RedisPrefix, a.db.WALPosition, a.cfg.ReadYourWrites, a.log)
	} else {
		writes = sqldb.NewWritePositions(a.db.WALPosition, a.cfg.ReadYourWrites, a.log)
	}
	vec := func(pool string, read func(sqldb.ReadCounts) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: "pokertote", Subsystem: "db", Name: "plain_reads_total",
			Help:        "Reads outside transactions by the repositories, per pool (primary or read replica).",
			ConstLabels: prometheus.Labels{"pool": pool},
		}, func() float64 { return float64(read(a.db.ReadCounts())) })
	}
	a.metrics = append(a.metrics,
		vec("primary", func(c sqldb.ReadCounts) int64 { return c.Primary }),
		vec("replica", func(c sqldb.ReadCounts) int64 { return c.Replica }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Namespace: "pokertote", Subsystem: "db", Name: "replica_behind_reads_total",
			Help: "Lag-tolerant reads of a player that went to the primary because the read replica had not yet replayed their last write.",
		}, func() float64 { return float64(a.db.ReadCounts().Behind) }))
	return graph.ReplicaReads{Mark: sqldb.LagTolerant, Writes: writes}.Middleware
}
