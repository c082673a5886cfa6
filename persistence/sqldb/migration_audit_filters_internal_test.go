package sqldb

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/testenv"
)

// Migration 00190 gives each audit entry the table it concerns, from its
// subject: a table's own entries ("table:N") and its draws' ("draw:N");
// everything else, and a draw that is not stored, has none. Going down
// drops the column again.
func TestAuditTableMigration(t *testing.T) {
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "audit.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			db, p := openMigratedTo(t, d, o, 151)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.sql.ExecContext(ctx, rebind(d, q), args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			for _, id := range []int64{3, 5} {
				exec(`INSERT INTO tote_tables (id, name, positions, status, min_stake, max_stake, commission_bp, round1_ms, round2_ms, round3_ms, round4_ms,
					card_interval_ms, result_ms, express_share1_bp, express_share2_bp, created_at, updated_at)
					VALUES (?, ?, 2, 'RUNNING', 10000, 100000, 300, 1, 1, 1, 1, 1, 1, 6000, 4000, ?, ?)`, id, "T"+string(rune('0'+id)), now, now)
			}
			exec(`INSERT INTO tote_draws (id, table_id, number, positions, phase, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp,
				express_share1_bp, express_share2_bp, server_seed, commitment, board, opened_at)
				VALUES (41, 5, 1, 2, 'VOID', 1, 10000, 300, true, 1, 6000, 4000, 'seed', 'commitment', '', ?)`, now)
			for i, subject := range []string{"table:3", "draw:41", "user:7", "draw:999", "", "api_key:k1"} {
				exec(`INSERT INTO audit_log (id, actor_id, action, subject, detail, created_at) VALUES (?, 1, 'X', ?, '', ?)`, i+1, subject, now)
			}
			if _, err := p.UpTo(ctx, 190); err != nil {
				t.Fatal(err)
			}
			rows, err := db.sql.QueryContext(ctx, `SELECT id, table_id FROM audit_log ORDER BY id`)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int64]int64{}
			for rows.Next() {
				var id int64
				var table sql.NullInt64
				if err := rows.Scan(&id, &table); err != nil {
					t.Fatal(err)
				}
				got[id] = table.Int64 // 0 for NULL
			}
			rows.Close()
			want := map[int64]int64{1: 3, 2: 5, 3: 0, 4: 0, 5: 0, 6: 0}
			for id, w := range want {
				if got[id] != w {
					t.Errorf("entry %d has table %d, want %d (all: %v)", id, got[id], w, got)
				}
			}
			if _, err := p.DownTo(ctx, 151); err != nil {
				t.Fatal(err)
			}
			if _, err := db.sql.ExecContext(ctx, `SELECT table_id FROM audit_log`); err == nil {
				t.Error("table_id is still there after going down")
			}
		})
	}
}
