package holdemtest_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/holdem/holdemtest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
)

// TestMemStoreConformance runs the Store suite against the in-memory twin;
// persistence runs it against SQLite and Postgres.
func TestMemStoreConformance(t *testing.T) {
	holdemtest.Run(t, func(t *testing.T) holdemtest.Env {
		l := ledgertest.NewMemStore(time.Now)
		var users atomic.Int64
		return holdemtest.Env{
			Store:  holdemtest.NewMemStore(l),
			Ledger: l,
			NewPlayer: func(t *testing.T, name string, kzt money.Amount) int64 {
				id := users.Add(1)
				if _, err := l.Post(context.Background(), ledger.Move("deposit:"+name, ledger.Deposit, "", ledger.CashAccount, ledger.UserWallet(ids.UserID(id)), kzt)); err != nil {
					t.Fatal(err)
				}
				return id
			},
		}
	})
}
