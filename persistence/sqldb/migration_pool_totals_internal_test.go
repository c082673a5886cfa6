package sqldb

import (
	"context"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

// Migration 00400 drops the triggers that kept tote_pool_totals (the bet
// paths write the totals in Go) and sums the totals again from the bets.
// Up: a total that had drifted is exact again, and a bet inserted after
// the migration moves no total (no trigger is left); down: the triggers
// are back and count the next bet.
func TestPoolTotalsInGoMigration(t *testing.T) {
	onEachDialect(t, 398, func(t *testing.T, d Dialect, db *DB, p *goose.Provider, must func(q string, args ...any)) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		bet := func(id int64, sel string, stake int64) {
			t.Helper()
			must(`INSERT INTO tote_bets (id, draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at)
					VALUES (?, 1, 1, 7, 1, 'WIN', ?, ?, 'ACCEPTED', 0, ?, ?)`, id, sel, stake, "k"+string(rune('a'+id)), now)
		}
		total := func(sel string) (stake, bets int64) {
			t.Helper()
			err := db.gorm.Raw("SELECT COALESCE(SUM(stake), 0), COALESCE(SUM(bets), 0) FROM tote_pool_totals WHERE draw_id = 1 AND round = 1 AND market = 'WIN' AND selection = ?", sel).
				Row().Scan(&stake, &bets)
			if err != nil {
				t.Fatal(err)
			}
			return stake, bets
		}
		seedDraw(must, now, 2)
		bet(1, "1", 10000)
		bet(2, "1", 20000)
		bet(3, "2", 15000)
		// A total gone wrong (as a lost write would leave it).
		must(`UPDATE tote_pool_totals SET stake = 1, bets = 9 WHERE selection = '2'`)
		if _, err := p.UpTo(ctx, 400); err != nil {
			t.Fatal(err)
		}
		if s, n := total("1"); s != 30000 || n != 2 {
			t.Errorf("up: selection 1 totals %d over %d bets, want 30000 over 2", s, n)
		}
		if s, n := total("2"); s != 15000 || n != 1 {
			t.Errorf("up: selection 2 totals %d over %d bets, want 15000 over 1 (summed again)", s, n)
		}
		bet(4, "1", 5000)
		if s, n := total("1"); s != 30000 || n != 2 {
			t.Errorf("up: a bet stored by hand moved the totals to %d over %d: a trigger is left", s, n)
		}
		if _, err := p.DownTo(ctx, 398); err != nil {
			t.Fatal(err)
		}
		if s, n := total("1"); s != 35000 || n != 3 {
			t.Errorf("down: selection 1 totals %d over %d bets, want 35000 over 3 (summed again)", s, n)
		}
		bet(5, "2", 1000)
		if s, n := total("2"); s != 16000 || n != 2 {
			t.Errorf("down: the triggers are back, yet selection 2 totals %d over %d bets, want 16000 over 2", s, n)
		}
	})
}
