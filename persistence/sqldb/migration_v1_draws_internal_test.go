package sqldb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

// Migration 00420 stops an upgrade while an unfinished version-1 draw
// (beacons NULL) is stored, naming it, and passes once it is finished;
// finished version-1 draws and unfinished beacon draws never stop it.
func TestUnfinishedV1DrawsMigration(t *testing.T) {
	onEachDialect(t, 398, func(t *testing.T, d Dialect, db *DB, p *goose.Provider, must func(q string, args ...any)) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		seedDraw(must, now, 1) // draw 1: a settled version-1 draw
		draw := func(id int64, phase string, beacons any) {
			must(`INSERT INTO tote_draws (id, table_id, number, positions, phase, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp,
					express_share1_bp, express_share2_bp, server_seed, commitment, board, opened_at, beacons)
					VALUES (?, 1, ?, 2, ?, 1, 10000, 300, true, 1, 6000, 4000, 'seed', 'commitment', '', ?, ?)`, id, id, phase, now, beacons)
		}
		draw(2, "VOID", nil)
		draw(3, "FLOP", `{"version":4}`)
		draw(4, "DEALING_TURN", nil)

		_, err := p.UpTo(ctx, 420)
		if err == nil || !strings.Contains(err.Error(), "tote draws 4 (DEALING_TURN) are unfinished version-1 draws") {
			t.Fatalf("migrating with draw 4 unfinished: %v, want the refusal naming it", err)
		}
		if v, err := p.GetDBVersion(ctx); err != nil || v >= 420 {
			t.Fatalf("database at version %d (%v) after the refusal, want below 420", v, err)
		}
		must(`UPDATE tote_draws SET phase = 'SETTLED' WHERE id = 4`)
		if _, err := p.UpTo(ctx, 420); err != nil {
			t.Fatalf("migrating with every version-1 draw finished: %v", err)
		}
	})
}
