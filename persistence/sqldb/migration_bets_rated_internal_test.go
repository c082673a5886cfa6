package sqldb

import (
	"context"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
)

// Migration 00398 replaces the view tote_bets_settled, which computed a
// settled bet's status and payout in SQL, by tote_bets_rated, which only
// joins each bet to its selection's stored rate (Go pays it). Up: the
// rate's figures and time read beside the bet's own unchanged row, none for
// a bet without a rate; down: the old view is back and derives as before.
func TestBetsRatedMigration(t *testing.T) {
	onEachDialect(t, 398, func(t *testing.T, d Dialect, db *DB, p *goose.Provider, must func(q string, args ...any)) {
		ctx := context.Background()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		seedDraw(must, now, 2)
		for id, sel := range map[int64]string{1: "1", 2: "2"} {
			must(`INSERT INTO tote_bets (id, draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at)
					VALUES (?, 1, 1, 7, 1, 'WIN', ?, 10001, 'ACCEPTED', 0, ?, ?)`, id, sel, "k"+sel, now)
		}
		must(`INSERT INTO tote_selection_results (draw_id, round, market, selection, refund, coef1, coef2, settled_at)
				VALUES (1, 1, 'WIN', '1', 0, 185, 7, ?)`, now.Add(time.Hour))
		type rated struct {
			status               string
			payout               int64
			refund, coef1, coef2 *int64
			at                   *time.Time
		}
		read := func(id int64) rated {
			t.Helper()
			var r rated
			err := db.gorm.Raw("SELECT status, payout, rate_refund, rate_coef1, rate_coef2, rate_settled_at FROM tote_bets_rated WHERE id = ?", id).
				Row().Scan(&r.status, &r.payout, &r.refund, &r.coef1, &r.coef2, &r.at)
			if err != nil {
				t.Fatalf("bet %d: %v", id, err)
			}
			return r
		}
		if r := read(1); r.status != "ACCEPTED" || r.payout != 0 || r.refund == nil || *r.refund != 0 || *r.coef1 != 185 || *r.coef2 != 7 || r.at == nil || !r.at.Equal(now.Add(time.Hour)) {
			t.Errorf("rated bet reads %+v", r)
		}
		if r := read(2); r.status != "ACCEPTED" || r.refund != nil || r.coef1 != nil || r.at != nil {
			t.Errorf("unrated bet reads %+v", r)
		}
		if _, err := p.DownTo(ctx, 397); err != nil {
			t.Fatal(err)
		}
		var status string
		var payout int64
		if err := db.gorm.Raw("SELECT status, payout FROM tote_bets_settled WHERE id = 1").Row().Scan(&status, &payout); err != nil {
			t.Fatal(err)
		}
		if status != "WON" || payout != 10001*185/100+10001*7/100 {
			t.Errorf("down: the old view reads %s %d", status, payout)
		}
	})
}
