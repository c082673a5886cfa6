package accountdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/auth/authtest"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestUserRepoConformance runs the account.UserStore suite that the
// in-memory twin runs, against both databases.
func TestUserRepoConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		accounttest.Run(t, func(t *testing.T, now func() time.Time) account.UserStore {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			r.SetClock(now)
			return r
		})
	})
}

// TestRefreshRepoConformance runs the auth.RefreshStore suite that the
// in-memory twin runs, against both databases.
func TestRefreshRepoConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		authtest.Run(t, func(t *testing.T) authtest.Env {
			db := sqldbtest.Open(t, dialect)
			users := accountdb.NewUserRepo(db)
			r := accountdb.NewRefreshRepo(db)
			return authtest.Env{
				Store: r,
				Prune: func(now time.Time) (int64, error) { return r.Prune(context.Background(), now) },
				Users: [2]int64{
					accountdbtest.MustCreateUser(t, users, "a@example.kz").ID,
					accountdbtest.MustCreateUser(t, users, "b@example.kz").ID,
				},
			}
		})
	})
}
