package totedb_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// TestToteConformance runs the totalizator's conformance suite (full draws,
// the close race, leases, voids, the outbox) on SQLite and on Postgres,
// each test on a fresh database.
func TestToteConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		totetest.Run(t, func(t *testing.T) totetest.Env {
			db := sqldbtest.Open(t, dialect)
			led := ledgerdb.New(db)
			repo := totedb.New(db, led)
			return totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: dialect == "postgres", WatchJackpot: repo.WatchJackpot}
		})
	})
}
