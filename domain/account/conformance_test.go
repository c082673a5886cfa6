package account_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
)

// TestMemStoreConformance runs the UserStore suite against the in-memory
// twin; persistence runs it against SQLite and Postgres.
func TestMemStoreConformance(t *testing.T) {
	accounttest.Run(t, func(t *testing.T, now func() time.Time) account.UserStore {
		return account.NewMemStore(now)
	})
}
