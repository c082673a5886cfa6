package persistence_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/auth/authtest"
	"github.com/pokertote/pokertote/domain/holdem/holdemtest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
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

// TestRefreshRepoConformance runs the auth.RefreshStore suite that the
// in-memory twin runs, against both databases.
func TestRefreshRepoConformance(t *testing.T) {
	for _, dialect := range testDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			authtest.Run(t, func(t *testing.T) authtest.Env {
				db := openTestDB(t, dialect)
				users := persistence.NewUserRepo(db)
				r := persistence.NewRefreshRepo(db)
				return authtest.Env{
					Store: r,
					Prune: func(now time.Time) (int64, error) { return r.Prune(context.Background(), now) },
					Users: [2]int64{
						mustCreateUser(t, users, "a@example.kz").ID,
						mustCreateUser(t, users, "b@example.kz").ID,
					},
				}
			})
		})
	}
}

// TestHoldemRepoConformance runs the holdem.Store suite that the in-memory
// twin runs, against both databases.
func TestHoldemRepoConformance(t *testing.T) {
	for _, dialect := range testDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			holdemtest.Run(t, func(t *testing.T) holdemtest.Env {
				db := openTestDB(t, dialect)
				led := persistence.NewLedgerRepo(db)
				users := persistence.NewUserRepo(db)
				return holdemtest.Env{
					Store:  persistence.NewHoldemRepo(db, led),
					Ledger: led,
					NewPlayer: func(t *testing.T, name string, kzt money.Amount) int64 {
						u := mustCreateUser(t, users, name+"@example.kz")
						mustPost(t, led, ledger.Move("deposit:"+name, ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(u.ID)), kzt))
						return u.ID
					},
				}
			})
		})
	}
}
