package totedb

// The one writer of tote_pool_totals (internal/archtest's
// TestOneWriterPerMoneyTable): an upsert adding a transaction's
// tote.PoolIncrements to the stored totals, in one statement. Every bet
// path writes it last, just before its commit: the totals' rows of a draw
// are hot (every batch of the draw adds to them), so a batch holds their
// locks for that statement and its commit only, and the rows come in
// tote.PoolKeyOrder (the statement inserts them in the order given), so
// concurrent batches lock them in one order and wait instead of
// deadlocking. A bet's draw, round, selection and stake never change once
// stored, and a total counts every bet stored whatever its status, so
// settlement, refunds and voids leave the totals alone.

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

const (
	poolTotalsInsert = `INSERT INTO tote_pool_totals AS t (draw_id, round, market, selection, stake, bets) `
	poolTotalsAdd    = ` ON CONFLICT (draw_id, round, market, selection)
	DO UPDATE SET stake = t.stake + excluded.stake, bets = t.bets + excluded.bets`
	// pgPoolTotalsAdd is the upsert for pgx, the rows as arrays (one per
	// column, in the order given: WITH ORDINALITY keeps it).
	pgPoolTotalsAdd = poolTotalsInsert + `SELECT p.d, p.r, p.m, p.s, p.st, p.n
	FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::bigint[], $6::int[]) WITH ORDINALITY AS p(d, r, m, s, st, n, ord)
	ORDER BY p.ord` + poolTotalsAdd
)

// poolTotalsPGArgs are pgPoolTotalsAdd's parameters for incs.
func poolTotalsPGArgs(incs []tote.PoolIncrement) []any {
	draws, stakes := make([]int64, len(incs)), make([]int64, len(incs))
	rounds, counts := make([]int32, len(incs)), make([]int32, len(incs))
	markets, sels := make([]string, len(incs)), make([]string, len(incs))
	for i, p := range incs {
		draws[i], rounds[i], stakes[i], counts[i] = p.DrawID, int32(p.Total.Round), int64(p.Total.Stake), int32(p.Total.Bets)
		markets[i], sels[i] = string(p.Total.Selection.Market), p.Total.Selection.String()
	}
	return []any{draws, rounds, markets, sels, stakes, counts}
}

// queuePoolTotals queues pgPoolTotalsAdd for incs on b and checks that it
// wrote a row per increment.
func queuePoolTotals(b *pgx.Batch, incs []tote.PoolIncrement) {
	if len(incs) == 0 {
		return
	}
	b.Queue(pgPoolTotalsAdd, poolTotalsPGArgs(incs)...).Exec(func(tag pgconn.CommandTag) error {
		if n := tag.RowsAffected(); n != int64(len(incs)) {
			return fmt.Errorf("bet batch: the pool totals' upsert wrote %d rows for %d", n, len(incs))
		}
		return nil
	})
}

// addPoolTotals adds incs (in tote.PoolKeyOrder) to the totals in tx, one
// statement per chunk of rows (one in all but a batch of over 166 keys).
func addPoolTotals(tx *gorm.DB, incs []tote.PoolIncrement) error {
	for chunk := range slices.Chunk(incs, sqldb.ChunkRows/6) {
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?, ?)", func(_ int, p tote.PoolIncrement) []any {
			return []any{p.DrawID, int(p.Total.Round), string(p.Total.Selection.Market), p.Total.Selection.String(), int64(p.Total.Stake), p.Total.Bets}
		})
		res := tx.Exec(poolTotalsInsert+"VALUES "+list+poolTotalsAdd, args...)
		if res.Error != nil {
			return sqldb.MapErr(res.Error, "pool totals")
		}
		if res.RowsAffected != int64(len(chunk)) {
			return fmt.Errorf("pool totals: %d of %d rows written", res.RowsAffected, len(chunk))
		}
	}
	return nil
}

// AddPoolTotals implements tote.Tx.
func (t *toteTx) AddPoolTotals(ctx context.Context, increments []tote.PoolIncrement) error {
	return addPoolTotals(t.tx.WithContext(ctx), increments)
}
