package authtest_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/auth/authtest"
)

// TestMemRefreshStoreConformance runs the RefreshStore suite against the
// in-memory twin; persistence runs it against SQLite and Postgres.
func TestMemRefreshStoreConformance(t *testing.T) {
	authtest.Run(t, func(t *testing.T) authtest.Env {
		s := authtest.NewMemRefreshStore()
		return authtest.Env{
			Store: s,
			Prune: func(now time.Time) (int64, error) { return int64(s.Prune(now)), nil },
			Users: [2]int64{1, 2},
		}
	})
}
