package totedb

import (
	"testing"

	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestBetListScansInSteps runs the conformance suite's bet list test on a
// store that reads one row at a time for a status filter, so that the
// scan's later steps (a step that ends without filling the page, the next
// read from its last row) are walked, which the usual step of minBetScan
// rows never does on the test's few bets.
func TestBetListScansInSteps(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		totetest.RunOnly(t, func(t *testing.T) totetest.Env {
			db := sqldbtest.Open(t, dialect)
			led := ledgerdb.New(db)
			repo := New(db, led)
			repo.betScan = 1
			return totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: dialect == "postgres"}
		}, "BetListFilters")
	})
}
