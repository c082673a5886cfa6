package persistence

import (
	"context"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// The database side of streamed settlement (domain/tote/settle_stream.go,
// issue 8): a pool's bets are paid by one UPDATE ... FROM (VALUES one row
// per backed selection), the players' credits are read back in pages of
// user ids, and the draw's bets are listed in pages by id. Nothing here
// holds a row per bet in memory.

// PoolBetOwners implements tote.Store: a range of the pool index
// (draw_id, round, market, id).
func (r *ToteRepo) PoolBetOwners(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterID int64, limit int) ([]tote.BetOwner, error) {
	rows, err := r.read(ctx).Raw("SELECT id, user_id FROM tote_bets WHERE draw_id = ? AND round = ? AND market = ? AND id > ? ORDER BY id LIMIT ?",
		drawID, int(round), string(market), afterID, limit).Rows()
	if err != nil {
		return nil, mapErr(err, "bets")
	}
	defer rows.Close()
	out := make([]tote.BetOwner, 0, limit)
	for rows.Next() {
		var o tote.BetOwner
		var user int64
		if err := rows.Scan(&o.BetID, &user); err != nil {
			return nil, mapErr(err, "bets")
		}
		o.UserID = ids.UserID(user)
		out = append(out, o)
	}
	return out, mapErr(rows.Err(), "bets")
}

// payRatesSQL writes the rates as a VALUES list (selection, coef1, coef2,
// refund) and appends their parameters.
func payRatesSQL(sb *strings.Builder, args []any, rates []tote.SelectionRate) []any {
	sb.WriteString("(VALUES ")
	for i, r := range rates {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString("(CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))")
		refund := 0
		if r.Refund {
			refund = 1
		}
		args = append(args, r.Selection, int64(r.Coef1), int64(r.Coef2), refund)
	}
	sb.WriteString(")")
	return args
}

// PayPool implements tote.Tx. The payout of a bet is computed by the
// database in 64-bit integers: stake × coef / 100 truncates as
// money.Coef.Pay does for the positive amounts involved (planPool refuses
// a rate that could overflow). On Postgres the UPDATE's rows are summed
// per selection by the same statement; on SQLite (no data-modifying CTE)
// the updated rows come back through RETURNING and are summed here as they
// stream.
func (t *toteTx) PayPool(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, rates []tote.SelectionRate, at time.Time) ([]tote.SelectionPaid, error) {
	at = storedTime(at)
	db := t.tx.WithContext(ctx)
	var paid []tote.SelectionPaid
	if len(rates) > 0 {
		var sb strings.Builder
		args := []any{at}
		pay1 := "CASE WHEN v.column4 = 1 THEN b.stake ELSE b.stake * v.column2 / 100 END"
		pay2 := "CASE WHEN v.column4 = 1 THEN 0 ELSE b.stake * v.column3 / 100 END"
		sb.WriteString("UPDATE tote_bets AS b SET payout = " + pay1 + " + " + pay2 + ", status = CASE WHEN v.column4 = 1 THEN 'REFUNDED' WHEN " +
			pay1 + " + " + pay2 + " > 0 THEN 'WON' ELSE 'LOST' END, settled_at = ? FROM ")
		args = payRatesSQL(&sb, args, rates)
		sb.WriteString(" AS v WHERE b.draw_id = ? AND b.round = ? AND b.market = ? AND b.status = 'ACCEPTED' AND b.selection = v.column1")
		args = append(args, drawID, int(round), string(market))
		var err error
		if t.repo.db.dialect == Postgres {
			q := "WITH u AS (" + sb.String() + " RETURNING b.selection, b.stake, " + pay1 + " AS p1, " + pay2 + " AS p2) " +
				"SELECT selection, COUNT(*), SUM(stake), SUM(p1), SUM(p2) FROM u GROUP BY selection"
			paid, err = t.scanPaid(db.Raw(q, args...).Rows())
		} else {
			rows, qerr := db.Raw(sb.String()+" RETURNING selection, stake, payout", args...).Rows()
			paid, err = t.sumReturned(rows, qerr, rates)
		}
		if err != nil {
			return nil, mapErr(err, "bets")
		}
	}
	// Bets on a selection without a rate (none, when the rates come from
	// the pool's totals) lose.
	err := db.Exec("UPDATE tote_bets SET status = 'LOST', payout = 0, settled_at = ? WHERE draw_id = ? AND round = ? AND market = ? AND status = 'ACCEPTED'",
		at, drawID, int(round), string(market)).Error
	return paid, mapErr(err, "bets")
}

type sqlRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// scanPaid reads (selection, bets, stake, paid1, paid2) rows.
func (t *toteTx) scanPaid(rows sqlRows, err error) ([]tote.SelectionPaid, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tote.SelectionPaid
	for rows.Next() {
		var p tote.SelectionPaid
		var stake, p1, p2 int64
		if err := rows.Scan(&p.Selection, &p.Bets, &stake, &p1, &p2); err != nil {
			return nil, err
		}
		p.Stake, p.Paid1, p.Paid2 = money.Amount(stake), money.Amount(p1), money.Amount(p2)
		out = append(out, p)
	}
	return out, rows.Err()
}

// sumReturned sums (selection, stake, payout) rows per selection. SQLite's
// RETURNING cannot name the rates, so each payout's category-2 part is
// recomputed here with the rate the UPDATE used (payout = part 1 + part 2).
func (t *toteTx) sumReturned(rows sqlRows, err error, rates []tote.SelectionRate) ([]tote.SelectionPaid, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	rateOf := make(map[string]tote.SelectionRate, len(rates))
	for _, r := range rates {
		rateOf[r.Selection] = r
	}
	idx := map[string]int{}
	var out []tote.SelectionPaid
	for rows.Next() {
		var sel string
		var stake, payout int64
		if err := rows.Scan(&sel, &stake, &payout); err != nil {
			return nil, err
		}
		i, ok := idx[sel]
		if !ok {
			i = len(out)
			idx[sel] = i
			out = append(out, tote.SelectionPaid{Selection: sel})
		}
		var p2 money.Amount
		if r := rateOf[sel]; !r.Refund {
			p2 = r.Coef2.Pay(money.Amount(stake))
		}
		out[i].Bets++
		out[i].Stake += money.Amount(stake)
		out[i].Paid1 += money.Amount(payout) - p2
		out[i].Paid2 += p2
	}
	return out, rows.Err()
}

// PoolCredits implements tote.Tx.
func (t *toteTx) PoolCredits(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterUser ids.UserID, limit int) ([]tote.WalletCredit, error) {
	rows, err := t.tx.WithContext(ctx).Raw("SELECT user_id, SUM(payout) FROM tote_bets WHERE draw_id = ? AND round = ? AND market = ? AND payout > 0 AND user_id > ? "+
		"GROUP BY user_id ORDER BY user_id LIMIT ?", drawID, int(round), string(market), int64(afterUser), limit).Rows()
	if err != nil {
		return nil, mapErr(err, "bets")
	}
	defer rows.Close()
	out := make([]tote.WalletCredit, 0, limit)
	for rows.Next() {
		var c tote.WalletCredit
		var user, amount int64
		if err := rows.Scan(&user, &amount); err != nil {
			return nil, mapErr(err, "bets")
		}
		c.UserID = ids.UserID(user)
		c.Amount = money.Amount(amount)
		out = append(out, c)
	}
	return out, mapErr(rows.Err(), "bets")
}
