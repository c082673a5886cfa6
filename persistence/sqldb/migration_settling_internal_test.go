package sqldb

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/testenv"
)

// Migration 00100 gives the dealer's step after the river its own phase,
// SETTLING: a draw stored at the river (DEALING_RIVER, five board cards)
// moves to it, one still waiting for the river stays, and going down
// returns SETTLING to DEALING_RIVER. On SQLite, where tote_draws is rebuilt,
// the rows, the bets' foreign key and the result trigger survive.
func TestSettlingPhaseMigration(t *testing.T) {
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "settling.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			db, p := openMigratedTo(t, d, o, 99)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.sql.ExecContext(ctx, rebind(d, q), args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			exec(`INSERT INTO tote_tables (id, name, positions, status, min_stake, max_stake, commission_bp, round1_ms, round2_ms, round3_ms, round4_ms,
				card_interval_ms, result_ms, express_share1_bp, express_share2_bp, created_at, updated_at)
				VALUES (1, 'T', 2, 'RUNNING', 10000, 100000, 300, 1, 1, 1, 1, 1, 1, 6000, 4000, ?, ?)`, now, now)
			draw := func(id int64, phase, board string) {
				exec(`INSERT INTO tote_draws (id, table_id, number, positions, phase, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp,
					express_share1_bp, express_share2_bp, server_seed, commitment, board, opened_at)
					VALUES (?, 1, ?, 2, ?, 1, 10000, 300, true, 1, 6000, 4000, 'seed', 'commitment', ?, ?)`, id, id, phase, board, now)
			}
			draw(1, "DEALING_RIVER", "4d 9d Qs 6h")
			draw(2, "DEALING_RIVER", "4d 9d Qs 6h 2c")
			draw(3, "SETTLED", "4d 9d Qs 6h 2c")
			exec(`INSERT INTO tote_bets (draw_id, table_id, user_id, round, market, selection, stake, status, idempotency_key, placed_at)
				VALUES (2, 1, 7, 1, 'WIN', '1', 10000, 'ACCEPTED', 'k', ?)`, now)
			exec(`UPDATE tote_draws SET result = '{}' WHERE id = 3`)

			phases := func() map[int64]string {
				t.Helper()
				rows, err := db.sql.QueryContext(ctx, `SELECT id, phase FROM tote_draws ORDER BY id`)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Close()
				out := map[int64]string{}
				for rows.Next() {
					var id int64
					var ph string
					if err := rows.Scan(&id, &ph); err != nil {
						t.Fatal(err)
					}
					out[id] = ph
				}
				return out
			}
			want := func(got map[int64]string, w map[int64]string) {
				t.Helper()
				for id, ph := range w {
					if got[id] != ph {
						t.Errorf("draw %d is %s, want %s (all: %v)", id, got[id], ph, got)
					}
				}
				if len(got) != len(w) {
					t.Errorf("draws %v, want %v", got, w)
				}
			}

			if _, err := p.UpTo(ctx, 100); err != nil {
				t.Fatal(err)
			}
			want(phases(), map[int64]string{1: "DEALING_RIVER", 2: "SETTLING", 3: "SETTLED"})
			draw(4, "SETTLING", "4d 9d Qs 6h 2c")
			if _, err := db.sql.ExecContext(ctx, `UPDATE tote_draws SET phase = 'NOT_A_PHASE' WHERE id = 4`); err == nil {
				t.Error("the phase CHECK accepts an unknown phase")
			}
			if _, err := db.sql.ExecContext(ctx, `DELETE FROM tote_draws WHERE id = 2`); err == nil {
				t.Error("a draw with bets was deleted: the bets' foreign key is gone")
			}
			if _, err := db.sql.ExecContext(ctx, `UPDATE tote_draws SET result = '{"changed":true}' WHERE id = 3`); err == nil {
				t.Error("a published result changed: the trigger is gone")
			}
			var n int
			if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM tote_bets WHERE draw_id = 2`).Scan(&n); err != nil || n != 1 {
				t.Errorf("bets of draw 2: %d, %v", n, err)
			}

			if _, err := p.DownTo(ctx, 99); err != nil {
				t.Fatal(err)
			}
			want(phases(), map[int64]string{1: "DEALING_RIVER", 2: "DEALING_RIVER", 3: "SETTLED", 4: "DEALING_RIVER"})
			if _, err := db.sql.ExecContext(ctx, `UPDATE tote_draws SET phase = 'SETTLING' WHERE id = 4`); err == nil {
				t.Error("after going down, the phase CHECK still accepts SETTLING")
			}
			// Up to 00100 only: these draws have no beacons, and 00420
			// refuses unfinished version-1 draws.
			if _, err := p.UpTo(ctx, 100); err != nil {
				t.Fatal(err)
			}
			want(phases(), map[int64]string{1: "DEALING_RIVER", 2: "SETTLING", 3: "SETTLED", 4: "SETTLING"})
		})
	}
}

// rebind turns ? placeholders into Postgres's $1, $2, ...
func rebind(d Dialect, q string) string {
	if d != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
