package totedb

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
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
// (tote_selection_results), then reading the pool's bets once and summing
// in Go what the rates pay them (tote.PayTally, with the rule of
// tote.SelectionRate.Pay); readers derive each bet's status and payout from
// the same rate with the same rule (tote_bets_rated, toteBetRead). SQL
// stores and joins; it computes no payout nor status. Nothing here holds a
// row per bet in memory, nor writes one.

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

// storeRates inserts the rates of pools: once per selection, immutable.
func storeRates(db *gorm.DB, drawID int64, pools []tote.PoolRates, at time.Time) error {
	type rateRow struct {
		p *tote.PoolRates
		r tote.SelectionRate
	}
	var all []rateRow
	for i := range pools {
		for _, r := range pools[i].Rates {
			all = append(all, rateRow{&pools[i], r})
		}
	}
	for start := 0; start < len(all); start += rateChunk {
		chunk := all[start:min(len(all), start+rateChunk)]
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?, ?, ?, ?)", func(_ int, x rateRow) []any {
			refund := 0
			if x.r.Refund {
				refund = 1
			}
			return []any{drawID, int(x.p.Round), string(x.p.Market), x.r.Selection, refund, int64(x.r.Coef1), int64(x.r.Coef2), at}
		})
		if err := db.Exec("INSERT INTO tote_selection_results (draw_id, round, market, selection, refund, coef1, coef2, settled_at) VALUES "+list, args...).Error; err != nil {
			return sqldb.MapErr(err, "selection results")
		}
	}
	return nil
}

// The bets a settlement reads, one pool at a time (a range of the pool
// index): each bet's selection, player, stake, payout and its status only
// when it is not ACCEPTED (NULL otherwise: almost every bet of a settling
// draw, which then costs the driver no string); poolBetsSQL adds the bet's
// id, kept for its BET_SETTLED after the commit (so the relay need not read
// the bets again), and poolBetsRatedSQL each bet's stored rate (for
// PoolCredits, which is given none).
const (
	poolBetsSQL = `SELECT b.selection, b.user_id, b.stake, CASE WHEN b.status = 'ACCEPTED' THEN NULL ELSE b.status END, b.payout, b.id
FROM tote_bets b WHERE b.draw_id = ? AND b.round = ? AND b.market = ?`
	poolBetsRatedSQL = `SELECT b.selection, b.user_id, b.stake, CASE WHEN b.status = 'ACCEPTED' THEN NULL ELSE b.status END, b.payout, r.refund, r.coef1, r.coef2
FROM tote_bets b LEFT JOIN tote_selection_results r
	ON r.draw_id = b.draw_id AND r.round = b.round AND r.market = b.market AND r.selection = b.selection
WHERE b.draw_id = ? AND b.round = ? AND b.market = ?`
)

// tallyBets feeds every bet of pool that q reads to tally; rated says q
// reads each bet's rate too (poolBetsRatedSQL), else its id (poolBetsSQL). A draw holds 10^5 bets
// over a few hundred selections: the scan targets are reused from row to
// row and the selection and status are read as bytes and interned, so a
// bet costs the tally no allocation of its own (sql.RawBytes is valid
// until the next Next; interned strings are copies).
func tallyBets(db *gorm.DB, tally *tote.PayTally, pool tote.PoolKey, rated bool, q string, args ...any) error {
	rows, err := db.Raw(q, args...).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	var (
		sel, status         sql.RawBytes
		user, stake, payout int64
		id                  int64
		refund, c1, c2      sql.NullInt64
		strs                = interner{}
	)
	dest := []any{&sel, &user, &stake, &status, &payout}
	if rated {
		dest = append(dest, &refund, &c1, &c2)
	} else {
		dest = append(dest, &id)
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		b := strs.paidBet(pool, id, sel, status, user, stake, payout)
		if refund.Valid && c1.Valid && c2.Valid {
			b.Rate = &tote.SelectionRate{Selection: b.Selection, Refund: refund.Int64 == 1, Coef1: money.Coef(c1.Int64), Coef2: money.Coef(c2.Int64)}
		}
		tally.Add(b)
	}
	return rows.Err()
}

// poolBetsPG is poolBetsSQL for pgx.
const poolBetsPG = `SELECT b.selection, b.user_id, b.stake, CASE WHEN b.status = 'ACCEPTED' THEN NULL ELSE b.status END, b.payout, b.id
FROM tote_bets b WHERE b.draw_id = $1 AND b.round = $2 AND b.market = $3`

// tallyBetsPG is tallyBets of poolBetsSQL on the transaction's pgx
// connection: pgx scans each row's integers from the binary protocol and
// hands its strings over as the driver's own bytes, where database/sql
// boxes every value (three or four allocations a bet, and the largest part
// of the settlement's Go time: docs/bench/2026-12-06-settle-2.md).
func tallyBetsPG(ctx context.Context, pc *pgx.Conn, tally *tote.PayTally, pool tote.PoolKey, drawID int64) error {
	rows, err := pc.Query(ctx, poolBetsPG, drawID, int(pool.Round), string(pool.Market))
	if err != nil {
		return err
	}
	defer rows.Close()
	var (
		sel, status             pgtype.DriverBytes
		user, stake, payout, id int64
		strs                    = interner{}
	)
	dest := []any{&sel, &user, &stake, &status, &payout, &id} // one slice, not one per row
	for rows.Next() {
		status = nil
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		tally.Add(strs.paidBet(pool, id, sel, status, user, stake, payout))
	}
	return rows.Err()
}

// paidBet is one bet as the settlement's reads give it; status nil is
// ACCEPTED. Its strings are interned.
func (in interner) paidBet(pool tote.PoolKey, id int64, sel, status []byte, user, stake, payout int64) tote.PaidBet {
	b := tote.PaidBet{ID: id, Pool: pool, Selection: in.of(sel), UserID: ids.UserID(user), Stake: money.Amount(stake), Status: tote.BetAccepted, Payout: money.Amount(payout)}
	if status != nil {
		b.Status = tote.BetStatus(in.of(status))
	}
	return b
}

// interner hands out one string per distinct byte sequence.
type interner map[string]string

func (in interner) of(b []byte) string {
	if s, ok := in[string(b)]; ok { // the conversion in a map index does not allocate
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// PayPool implements tote.Tx without writing a row per bet (migration
// 00110): it stores each selection's rate in tote_selection_results, from
// which every reader derives each ACCEPTED bet's status and payout
// (toteBetRead), then reads the pool's bets once and sums what the rates
// pay them per selection (tote.PayTally). Bets on a selection without a
// rate (none, when the rates come from the pool's totals) are written
// LOST, as before.
func (t *toteTx) PayPool(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, rates []tote.SelectionRate, at time.Time) ([]tote.SelectionPaid, error) {
	out, err := t.PayDraw(ctx, drawID, []tote.PoolRates{{Round: round, Market: market, Rates: rates}}, at)
	if err != nil {
		return nil, err
	}
	return out[0].Paid, nil
}

// PoolCredits implements tote.Tx: the pool's payouts summed per player,
// each bet paid by its stored rate with the domain's rule.
func (t *toteTx) PoolCredits(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterUser ids.UserID, limit int) ([]tote.WalletCredit, error) {
	db := t.tx.WithContext(ctx)
	tally, err := tote.NewPayTally([]tote.PoolRates{{Round: round, Market: market}})
	if err != nil {
		return nil, err
	}
	err = t.withoutNestedLoops(db, func() error {
		return tallyBets(db, tally, tote.PoolKey{Round: round, Market: market}, true, poolBetsRatedSQL, drawID, int(round), string(market))
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	credits := tally.Result()[0].Credits
	from, _ := slices.BinarySearchFunc(credits, afterUser+1, func(c tote.WalletCredit, u ids.UserID) int { return cmp.Compare(c.UserID, u) })
	credits = credits[from:]
	return credits[:min(len(credits), limit)], nil
}

// PayDraw implements tote.DrawPayer: PayPool and PoolCredits for every pool
// of pools in two statements whatever their number (the rates of all pools
// stored at once; the draw's bets read once and paid in Go by
// tote.PayTally), plus the LOST update of selections without a rate should
// there be any. What it holds in memory is one entry per selection and one
// per player and pool.
func (t *toteTx) PayDraw(ctx context.Context, drawID int64, pools []tote.PoolRates, at time.Time) ([]tote.PoolPaid, error) {
	at = sqldb.StoredTime(at)
	db := t.tx.WithContext(ctx)
	tally, err := tote.NewPayTally(pools)
	if err != nil {
		return nil, errs.Wrap(err, "draw "+strconv.FormatInt(drawID, 10))
	}
	if err := storeRates(db, drawID, pools, at); err != nil {
		return nil, err
	}
	for _, p := range pools {
		key := tote.PoolKey{Round: p.Round, Market: p.Market}
		var err error
		if t.raw != nil {
			err = t.raw(func(pc *pgx.Conn) error { return tallyBetsPG(ctx, pc, tally, key, drawID) })
		} else {
			err = tallyBets(db, tally, key, false, poolBetsSQL, drawID, int(p.Round), string(p.Market))
		}
		if err != nil {
			return nil, sqldb.MapErr(err, "bets")
		}
	}
	if err := t.loseUnrated(db, drawID, pools, tally.Unrated(), at); err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	return tally.Result(), nil
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
