package bettingstopdb_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/domain/bettingstop/bettingstoptest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/bettingstopdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

// TestRepoConformance runs the bettingstop.Store suite on both databases.
func TestRepoConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		bettingstoptest.Run(t, func(t *testing.T) (bettingstop.Store, int64) {
			db := sqldbtest.Open(t, dialect)
			admin := accountdbtest.MustCreateUser(t, accountdb.NewUserRepo(db), "admin@example.kz")
			return bettingstopdb.New(db), admin.ID
		})
	})
}
