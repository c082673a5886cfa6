package webhookdb_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/domain/webhook/webhooktest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/webhookdb"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

// TestRepoConformance runs the webhook.Store suite the twin runs, on both
// databases.
func TestRepoConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		webhooktest.Run(t, func(t *testing.T) (webhook.Store, int64) {
			db := sqldbtest.Open(t, dialect)
			admin := accountdbtest.MustCreateUser(t, accountdb.NewUserRepo(db), "admin@example.kz")
			return webhookdb.New(db), admin.ID
		})
	})
}
