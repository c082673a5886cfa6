package totedb_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// TestToteEventRetention runs the outbox-pruning conformance test on SQLite
// and Postgres.
func TestToteEventRetention(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		totetest.RunRetention(t, func(t *testing.T) totetest.Env {
			db := sqldbtest.Open(t, dialect)
			led := ledgerdb.New(db)
			repo := totedb.New(db, led)
			return totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: dialect == "postgres"}
		})
	})
}
