package persistence_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/persistence"
)

// TestUserRepoConformance runs the account.UserStore suite that the
// in-memory twin runs, against both databases.
func TestUserRepoConformance(t *testing.T) {
	for _, dialect := range testDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			accounttest.Run(t, func(t *testing.T, now func() time.Time) account.UserStore {
				r := persistence.NewUserRepo(openTestDB(t, dialect))
				r.SetClock(now)
				return r
			})
		})
	}
}
