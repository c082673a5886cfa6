package totedb

import (
	"cmp"
	"context"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// The database side of streamed settlement (domain/tote/settle/stream.go):
// a pool's bets are paid by storing one rate per backed selection
// (tote_selection_results; each bet's status and payout are derived from it
// when read, through the view tote_bets_settled), the players' credits are
// read back in pages of user ids, and the draw's bets are listed in pages
// by id. Nothing here holds a row per bet in memory, nor writes one.

// PoolBetOwners implements tote.Store: a range of the pool index
// (draw_id, round, market, id).
func (r *Repo) PoolBetOwners(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterID int64, limit int) ([]tote.BetOwner, error) {
	rd, done := r.read(ctx)
	defer done()
	rows, err := rd.Raw("SELECT id, user_id FROM tote_bets WHERE draw_id = ? AND round = ? AND market = ? AND id > ? ORDER BY id LIMIT ?",
		drawID, int(round), string(market), afterID, limit).Rows()
	if err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	defer rows.Close()
	out := make([]tote.BetOwner, 0, limit)
	for rows.Next() {
		var o tote.BetOwner
		var user int64
		if err := rows.Scan(&o.BetID, &user); err != nil {
			return nil, sqldb.MapErr(err, "bets")
		}
		o.UserID = ids.UserID(user)
		out = append(out, o)
	}
	return out, sqldb.MapErr(rows.Err(), "bets")
}

// rateChunk bounds the rates of one INSERT (8 parameters each).
const rateChunk = 500

// rateJoin joins each bet b of tote_bets to its selection's stored rate r,
// if any, and betPayout is a bet's payout as tote_bets_settled (migration
// 00110) derives it: the settlement aggregates below run on the tables
// themselves, so that Postgres may hash-join a pool's bets with its rates
// (see withoutNestedLoops).
const (
	rateJoin = `LEFT JOIN tote_selection_results r
	ON r.draw_id = b.draw_id AND r.round = b.round AND r.market = b.market AND r.selection = b.selection`
	betPayout = `CASE WHEN b.status <> 'ACCEPTED' OR r.refund IS NULL THEN b.payout
	WHEN r.refund = 1 THEN b.stake
	ELSE b.stake * r.coef1 / 100 + b.stake * r.coef2 / 100 END`
)

// poolPaidSQL sums a pool's ACCEPTED bets per selection as
// tote_bets_settled pays them: how many hold a stored rate, their number,
// stakes, and the sums of floor(stake × coef1) and floor(stake × coef2)
// (of the stakes, in the first, when refunded).
const poolPaidSQL = `SELECT b.selection, COUNT(r.refund), COUNT(*), SUM(b.stake),
	SUM(CASE WHEN r.refund = 1 THEN b.stake ELSE COALESCE(b.stake * r.coef1 / 100, 0) END),
	SUM(CASE WHEN r.refund = 1 THEN 0 ELSE COALESCE(b.stake * r.coef2 / 100, 0) END)
FROM tote_bets b ` + rateJoin + `
WHERE b.draw_id = ? AND b.round = ? AND b.market = ? AND b.status = 'ACCEPTED'
GROUP BY b.selection`

// poolCreditsSQL sums a pool's payouts per player, a page of players.
const poolCreditsSQL = `SELECT b.user_id, SUM(` + betPayout + `)
FROM tote_bets b ` + rateJoin + `
WHERE b.draw_id = ? AND b.round = ? AND b.market = ? AND b.user_id > ? AND ` + betPayout + ` > 0
GROUP BY b.user_id ORDER BY b.user_id LIMIT ?`

// withoutNestedLoops runs fn with Postgres' nested-loop joins off for the
// rest of it, then back on. A settling draw's bets are new, so the planner
// has no statistics for them and guesses a handful of rows: it then joined
// a pool of bets to its rates by a nested loop scanning every rate of the
// pool per bet, an order of magnitude slower than a hash join (EXPLAIN
// ANALYZE in docs/bench/2026-12-01-bets.md). SQLite looks each
// bet's rate up on the primary key.
func (t *toteTx) withoutNestedLoops(db *gorm.DB, fn func() error) error {
	if t.repo.db.Dialect() != sqldb.Postgres {
		return fn()
	}
	if err := db.Exec("SET LOCAL enable_nestloop = off").Error; err != nil {
		return err
	}
	err := fn()
	if err != nil {
		return err // the caller rolls the whole transaction back
	}
	return db.Exec("SET LOCAL enable_nestloop = DEFAULT").Error
}

// PayPool implements tote.Tx without writing a row per bet (migration
// 00110): it stores each selection's rate in tote_selection_results, from
// which tote_bets_settled, the view every reader of bets reads, derives
// each ACCEPTED bet's status and payout (the product truncated by 100, as
// money.Coef.Pay does for the positive amounts involved; planPool refuses a
// rate that could overflow 64 bits). It then sums the pool's bets per
// selection as the view pays them, in one aggregate read. Bets on a
// selection without a rate (none, when the rates come from the pool's
// totals) are written LOST, as before.
func (t *toteTx) PayPool(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, rates []tote.SelectionRate, at time.Time) ([]tote.SelectionPaid, error) {
	at = sqldb.StoredTime(at)
	db := t.tx.WithContext(ctx)
	for start := 0; start < len(rates); start += rateChunk {
		chunk := rates[start:min(len(rates), start+rateChunk)]
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?, ?, ?, ?)", func(_ int, r tote.SelectionRate) []any {
			refund := 0
			if r.Refund {
				refund = 1
			}
			return []any{drawID, int(round), string(market), r.Selection, refund, int64(r.Coef1), int64(r.Coef2), at}
		})
		if err := db.Exec("INSERT INTO tote_selection_results (draw_id, round, market, selection, refund, coef1, coef2, settled_at) VALUES "+list, args...).Error; err != nil {
			return nil, sqldb.MapErr(err, "selection results")
		}
	}
	var paid []tote.SelectionPaid
	var unrated []string
	err := t.withoutNestedLoops(db, func() error {
		rows, err := db.Raw(poolPaidSQL, drawID, int(round), string(market)).Rows()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p tote.SelectionPaid
			var rated, stake, p1, p2 int64
			if err := rows.Scan(&p.Selection, &rated, &p.Bets, &stake, &p1, &p2); err != nil {
				return err
			}
			if rated == 0 {
				unrated = append(unrated, p.Selection)
				continue
			}
			p.Stake, p.Paid1, p.Paid2 = money.Amount(stake), money.Amount(p1), money.Amount(p2)
			paid = append(paid, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	if len(unrated) > 0 {
		err := db.Exec("UPDATE tote_bets SET status = 'LOST', payout = 0, settled_at = ? WHERE draw_id = ? AND round = ? AND market = ? AND status = 'ACCEPTED' AND selection IN ?",
			at, drawID, int(round), string(market), unrated).Error
		if err != nil {
			return nil, sqldb.MapErr(err, "bets")
		}
	}
	return paid, nil
}

// PoolCredits implements tote.Tx: the pool's payouts as tote_bets_settled
// derives them, summed per player.
func (t *toteTx) PoolCredits(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterUser ids.UserID, limit int) ([]tote.WalletCredit, error) {
	db := t.tx.WithContext(ctx)
	out := make([]tote.WalletCredit, 0, limit)
	err := t.withoutNestedLoops(db, func() error {
		rows, err := db.Raw(poolCreditsSQL, drawID, int(round), string(market), int64(afterUser), limit).Rows()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var user, amount int64
			if err := rows.Scan(&user, &amount); err != nil {
				return err
			}
			out = append(out, tote.WalletCredit{UserID: ids.UserID(user), Amount: money.Amount(amount)})
		}
		return rows.Err()
	})
	return out, sqldb.MapErr(err, "bets")
}

// drawPaidSQL is poolPaidSQL for every pool of a draw at once, and
// drawCreditsSQL is poolCreditsSQL for every pool and player at once: one
// pass over the draw's bets each (the pool index's range of the draw)
// instead of two per pool.
const (
	drawPaidSQL = `SELECT b.round, b.market, b.selection, COUNT(r.refund), COUNT(*), SUM(b.stake),
	SUM(CASE WHEN r.refund = 1 THEN b.stake ELSE COALESCE(b.stake * r.coef1 / 100, 0) END),
	SUM(CASE WHEN r.refund = 1 THEN 0 ELSE COALESCE(b.stake * r.coef2 / 100, 0) END)
FROM tote_bets b ` + rateJoin + `
WHERE b.draw_id = ? AND b.status = 'ACCEPTED'
GROUP BY b.round, b.market, b.selection`
	drawCreditsSQL = `SELECT b.round, b.market, b.user_id, SUM(` + betPayout + `)
FROM tote_bets b ` + rateJoin + `
WHERE b.draw_id = ? AND ` + betPayout + ` > 0
GROUP BY b.round, b.market, b.user_id`
)

// PayDraw implements tote.DrawPayer: PayPool and PoolCredits for every pool
// of pools, in three statements whatever their number (the rates of all
// pools stored at once, the paid sums of every selection of the draw, the
// credits of every player and pool of the draw), plus the LOST update of
// selections without a rate should there be any. What it holds in memory
// is one row per selection and one per player and pool.
func (t *toteTx) PayDraw(ctx context.Context, drawID int64, pools []tote.PoolRates, at time.Time) ([]tote.PoolPaid, error) {
	at = sqldb.StoredTime(at)
	db := t.tx.WithContext(ctx)
	index := make(map[tote.PoolKey]int, len(pools))
	type rateRow struct {
		k tote.PoolKey
		r tote.SelectionRate
	}
	var all []rateRow
	for i, p := range pools {
		k := tote.PoolKey{Round: p.Round, Market: p.Market}
		if _, dup := index[k]; dup {
			return nil, errs.E(errs.Internal, "draw %d: pool %d/%s paid twice", drawID, p.Round, p.Market)
		}
		index[k] = i
		for _, r := range p.Rates {
			all = append(all, rateRow{k, r})
		}
	}
	for start := 0; start < len(all); start += rateChunk {
		chunk := all[start:min(len(all), start+rateChunk)]
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?, ?, ?, ?)", func(_ int, x rateRow) []any {
			refund := 0
			if x.r.Refund {
				refund = 1
			}
			return []any{drawID, int(x.k.Round), string(x.k.Market), x.r.Selection, refund, int64(x.r.Coef1), int64(x.r.Coef2), at}
		})
		if err := db.Exec("INSERT INTO tote_selection_results (draw_id, round, market, selection, refund, coef1, coef2, settled_at) VALUES "+list, args...).Error; err != nil {
			return nil, sqldb.MapErr(err, "selection results")
		}
	}
	out := make([]tote.PoolPaid, len(pools))
	unrated := map[int][]string{}
	pool := func(round int, market string) (int, bool) {
		i, ok := index[tote.PoolKey{Round: parimutuel.Round(round), Market: parimutuel.Market(market)}]
		return i, ok
	}
	err := t.payDraw(db, drawID, pools, pool, out, unrated, at)
	if err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	for i := range out {
		slices.SortFunc(out[i].Credits, func(a, b tote.WalletCredit) int { return cmp.Compare(a.UserID, b.UserID) })
	}
	return out, nil
}

// loseUnrated writes LOST the ACCEPTED bets of selections without a rate.
func (t *toteTx) loseUnrated(db *gorm.DB, drawID int64, pools []tote.PoolRates, unrated map[int][]string, at time.Time) error {
	for i, sels := range unrated {
		err := db.Exec("UPDATE tote_bets SET status = 'LOST', payout = 0, settled_at = ? WHERE draw_id = ? AND round = ? AND market = ? AND status = 'ACCEPTED' AND selection IN ?",
			at, drawID, int(pools[i].Round), string(pools[i].Market), sels).Error
		if err != nil {
			return err
		}
	}
	return nil
}

// payDraw runs PayDraw's two aggregates (and the LOST update between
// them, should any selection lack a rate), on Postgres with the planner
// held to hash joins and hash aggregates: without statistics on a settling
// draw's fresh bets it guesses a handful of rows and would otherwise join
// by a nested loop (see withoutNestedLoops) or sort the 100,000 bets (on
// disk, by their selection's text) for a merge join and a group
// aggregate, several times slower.
func (t *toteTx) payDraw(db *gorm.DB, drawID int64, pools []tote.PoolRates, pool func(int, string) (int, bool), out []tote.PoolPaid, unrated map[int][]string, at time.Time) error {
	pg := t.repo.db.Dialect() == sqldb.Postgres
	return t.withoutNestedLoops(db, func() error {
		if pg {
			if err := setLocal(db, "off"); err != nil {
				return err
			}
		}
		if err := readDrawPaid(db, drawID, pool, out, unrated); err != nil {
			return err
		}
		if err := t.loseUnrated(db, drawID, pools, unrated, at); err != nil {
			return err
		}
		if err := readDrawCredits(db, drawID, pool, out); err != nil {
			return err
		}
		if pg {
			return setLocal(db, "DEFAULT")
		}
		return nil
	})
}

// readDrawPaid runs drawPaidSQL: what each selection of draw drawID's
// paid pools (pool maps a round and market onto its index in out) pays,
// into out[i].Paid, and the selections without a rate into unrated.
func readDrawPaid(db *gorm.DB, drawID int64, pool func(int, string) (int, bool), out []tote.PoolPaid, unrated map[int][]string) error {
	rows, err := db.Raw(drawPaidSQL, drawID).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p tote.SelectionPaid
		var round int
		var market string
		var rated, stake, p1, p2 int64
		if err := rows.Scan(&round, &market, &p.Selection, &rated, &p.Bets, &stake, &p1, &p2); err != nil {
			return err
		}
		i, ok := pool(round, market)
		if !ok {
			continue // a pool not being paid
		}
		if rated == 0 {
			unrated[i] = append(unrated[i], p.Selection)
			continue
		}
		p.Stake, p.Paid1, p.Paid2 = money.Amount(stake), money.Amount(p1), money.Amount(p2)
		out[i].Paid = append(out[i].Paid, p)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

// readDrawCredits runs drawCreditsSQL: each player's credit from each
// paid pool of draw drawID, into out[i].Credits.
func readDrawCredits(db *gorm.DB, drawID int64, pool func(int, string) (int, bool), out []tote.PoolPaid) error {
	rows, err := db.Raw(drawCreditsSQL, drawID).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var round int
		var market string
		var user, amount int64
		if err := rows.Scan(&round, &market, &user, &amount); err != nil {
			return err
		}
		if i, ok := pool(round, market); ok {
			out[i].Credits = append(out[i].Credits, tote.WalletCredit{UserID: ids.UserID(user), Amount: money.Amount(amount)})
		}
	}
	return rows.Err()
}

// setLocal sets Postgres' merge joins and explicit sorts to v for the rest
// of the transaction (payDraw).
func setLocal(db *gorm.DB, v string) error {
	for _, q := range []string{"SET LOCAL enable_mergejoin = " + v, "SET LOCAL enable_sort = " + v} {
		if err := db.Exec(q).Error; err != nil {
			return err
		}
	}
	return nil
}
