package holdemdb_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/holdem/holdemtest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/holdemdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestHoldemRepoConformance runs the holdem.Store suite that the in-memory
// twin runs, against both databases.
func TestHoldemRepoConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		holdemtest.Run(t, func(t *testing.T) holdemtest.Env {
			db := sqldbtest.Open(t, dialect)
			led := ledgerdb.New(db)
			users := accountdb.NewUserRepo(db)
			return holdemtest.Env{
				Store:  holdemdb.New(db, led),
				Ledger: led,
				NewPlayer: func(t *testing.T, name string, kzt money.Amount) int64 {
					u := accountdbtest.MustCreateUser(t, users, name+"@example.kz")
					ledgertest.MustPost(t, led, ledger.Move("deposit:"+name, ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(u.ID)), kzt))
					return u.ID
				},
			}
		})
	})
}
