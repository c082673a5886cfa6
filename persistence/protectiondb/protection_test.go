package protectiondb_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/protection/protectiontest"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestProtectionConformance runs the player-protection suite against both
// databases: the ledger's guard in the money's transaction, and the
// protection store.
func TestProtectionConformance(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		protectiontest.Run(t, func(t *testing.T, now func() time.Time, loc *time.Location) protectiontest.Env {
			db := sqldbtest.Open(t, dialect)
			led := ledgerdb.New(db)
			led.SetClock(now)
			led.SetLocation(loc)
			return protectiontest.Env{
				Ledger: led,
				InTx: func(ctx context.Context, fn func(ctx context.Context, tx ledger.Poster) error) error {
					return led.InTx(ctx, fn)
				},
				Store: protectiondb.New(db),
				Users: accountdb.NewUserRepo(db),
			}
		})
	})
}
