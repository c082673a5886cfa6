package protectiontest_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/protection/protectiontest"
)

// TestMemStoreConformance runs the protection suite on the in-memory twins:
// ledgertest.MemStore guarded by protectiontest.MemStore over accounttest.MemStore.
func TestMemStoreConformance(t *testing.T) {
	protectiontest.Run(t, func(t *testing.T, now func() time.Time, loc *time.Location) protectiontest.Env {
		users := accounttest.NewMemStore(now)
		store := protectiontest.NewMemStore(loc, protectiontest.UserIdentity(users), users.AppendAudit)
		led := ledgertest.NewMemStore(now)
		led.SetGuard(store)
		return protectiontest.Env{
			Ledger: led, Store: store, Users: users,
			InTx: func(ctx context.Context, fn func(ctx context.Context, tx ledger.Poster) error) error {
				return led.InTx(ctx, fn)
			},
		}
	})
}
