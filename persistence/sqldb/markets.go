package sqldb

import (
	"context"
	"fmt"

	"github.com/pokertote/pokertote/domain/parimutuel"
)

// SyncMarkets writes the markets of a registry into tote_markets, the
// names tote_bets.market may hold (00410_tote_markets.sql): the server
// calls it after Migrate with the production registry, so a market added
// to the registry needs no migration. It only adds: a market no longer
// declared keeps its row, since its bets and results still name it (the
// domain refuses new bets on it as UNKNOWN_MARKET).
func (db *DB) SyncMarkets(ctx context.Context, reg *parimutuel.Registry) error {
	for _, m := range reg.Markets() {
		if err := db.gorm.WithContext(ctx).Exec(`INSERT INTO tote_markets (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, string(m)).Error; err != nil {
			return fmt.Errorf("persistence: write market %s: %w", m, err)
		}
	}
	return nil
}
