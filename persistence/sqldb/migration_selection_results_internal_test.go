package sqldb

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/testenv"
)

// Migration 00110 settles bets by a rate per selection, read through the
// view tote_bets_settled. Up: a bet reads as settled at its selection's
// rate (won, lost, refunded), a bet settled one by one keeps its row, a bet
// of a selection without a rate stays ACCEPTED, and a stored rate cannot
// change. Down: every bet a rate settled is written with the status,
// payout and time it read as, so nothing settled reads ACCEPTED again.
func TestSelectionResultsMigration(t *testing.T) {
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "rates.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			db, p := openMigratedTo(t, d, o, 110)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			settled := now.Add(time.Hour)
			exec := func(q string, args ...any) error {
				t.Helper()
				_, err := db.sql.ExecContext(ctx, rebind(d, q), args...)
				return err
			}
			must := func(q string, args ...any) {
				t.Helper()
				if err := exec(q, args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			seedDraw(must, now, 1)
			bet := func(id int64, market, sel string, stake int64, status string, payout int64) {
				must(`INSERT INTO tote_bets (id, draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at)
					VALUES (?, 1, 1, 7, 1, ?, ?, ?, ?, ?, ?, ?)`, id, market, sel, stake, status, payout, fmt.Sprintf("k%d", id), now)
			}
			bet(1, "WIN", "1", 10_001, "ACCEPTED", 0)         // won at 1.85
			bet(2, "WIN", "2", 10_000, "ACCEPTED", 0)         // lost: rate 0
			bet(3, "EXPRESS", "1-2-1", 10_333, "ACCEPTED", 0) // both categories
			bet(4, "COMBINATION", "PAIR", 12_345, "ACCEPTED", 0)
			bet(5, "WIN", "1", 20_000, "WON", 99) // settled one by one: kept
			bet(6, "EXPRESS", "2-2-2", 10_000, "ACCEPTED", 0)
			rate := func(market, sel string, refund, c1, c2 int64) {
				must(`INSERT INTO tote_selection_results (draw_id, round, market, selection, refund, coef1, coef2, settled_at)
					VALUES (1, 1, ?, ?, ?, ?, ?, ?)`, market, sel, refund, c1, c2, settled)
			}
			rate("WIN", "1", 0, 185, 0)
			rate("WIN", "2", 0, 0, 0)
			rate("EXPRESS", "1-2-1", 0, 1234, 110)
			rate("COMBINATION", "PAIR", 1, 0, 0)
			want := map[int64]struct {
				status  string
				payout  int64
				settled bool
			}{
				1: {"WON", 10_001 * 185 / 100, true},
				2: {"LOST", 0, true},
				3: {"WON", 10_333*1234/100 + 10_333*110/100, true},
				4: {"REFUNDED", 12_345, true},
				5: {"WON", 99, false},
				6: {"ACCEPTED", 0, false},
			}
			// check reads every bet from table, its settlement time from atColumn.
			check := func(table, atColumn string) {
				t.Helper()
				for id, w := range want {
					var status string
					var payout int64
					var at *time.Time
					if err := db.gorm.Raw("SELECT status, payout, "+atColumn+" FROM "+table+" WHERE id = ?", id).Row().Scan(&status, &payout, &at); err != nil {
						t.Fatalf("%s bet %d: %v", table, id, err)
					}
					if id == 5 && table != "tote_bets" {
						at = nil // settled one by one, at no time this test set
					}
					if status != w.status || payout != w.payout || (at != nil) != w.settled || (at != nil && !at.Equal(settled)) {
						t.Errorf("%s bet %d: %s %d settled %v, want %s %d settled %v", table, id, status, payout, at, w.status, w.payout, w.settled)
					}
				}
			}
			// Up: the view derives.
			check("tote_bets_settled", "rate_settled_at")
			if err := exec(`UPDATE tote_selection_results SET coef1 = 999 WHERE selection = '1'`); err == nil {
				t.Error("a stored rate changed")
			}
			if err := exec(`DELETE FROM tote_selection_results WHERE selection = '1'`); err == nil {
				t.Error("a stored rate was deleted")
			}
			// Down: the rows take what the view showed.
			if _, err := p.DownTo(ctx, 109); err != nil {
				t.Fatal(err)
			}
			check("tote_bets", "settled_at")
		})
	}
}
