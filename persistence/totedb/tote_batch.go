package totedb

import (
	"cmp"
	"context"
	"slices"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// betKey is a bet's idempotency scope.
type betKey struct {
	user int64
	key  string
}

// betInsertOrder is the one order in which every store inserts a batch's
// bets (the indices of bets): by draw, round, market and selection (the
// pool totals' order, tote.PoolKeyOrder, though the totals are written
// apart, tote_pool_totals.go). Stable, so that of two bets with one key
// the first asked wins.
func betInsertOrder(bets []tote.Bet) []int {
	order := make([]int, len(bets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := bets[a], bets[b]
		return cmp.Or(cmp.Compare(x.DrawID, y.DrawID), cmp.Compare(x.Round, y.Round),
			cmp.Compare(x.Selection.Market, y.Selection.Market), cmp.Compare(x.Selection.String(), y.Selection.String()))
	})
	return order
}

// batchRows is a bet batch's plan (tote.PlanBatch) as the rows a database
// store writes, by table; planRows builds it once for the Postgres fast
// path and SQLite, which only write it.
type batchRows struct {
	// bets are the admitted bets in betInsertOrder.
	bets []tote.Bet
	// transfers are their stakes in request order, each with the wallet's
	// balance after it.
	transfers []ledger.Transfer
	// escrows are the batch's total per escrow, by reference.
	escrows []batchEscrowRow
	// entries are every transfer's entries, in posting order.
	entries []batchEntryRow
	// players are the wallets, counters and sessions of play as the plan
	// leaves them, by user id.
	players []tote.PlannedPlayer
	// totals are what the bets add to the pool totals, in
	// tote.PoolKeyOrder (tote.BatchPlan.Totals).
	totals []tote.PoolIncrement
}

// batchEscrowRow is what the batch adds to one escrow.
type batchEscrowRow struct {
	ref    string
	amount money.Amount
}

// batchEntryRow is one entry of a planned stake: a wallet's (user, with
// the balance after it) or an escrow's (ref, with tail: the amounts of the
// escrow's later entries in this batch, so its balance after is the
// escrow's final balance less tail).
type batchEntryRow struct {
	key    string // the transfer's
	user   ids.UserID
	ref    string // the escrow's; "" for a wallet
	amount money.Amount
	after  money.Amount
	tail   money.Amount
}

// planRows turns plan into the rows to write.
func planRows(plan tote.BatchPlan) batchRows {
	var w batchRows
	stakes := plan.Stakes
	bets := make([]tote.Bet, len(stakes))
	for i, st := range stakes {
		bets[i] = plan.Results[st.Request].Bet
	}
	for _, i := range betInsertOrder(bets) {
		w.bets = append(w.bets, bets[i])
	}
	total := map[string]money.Amount{}
	tail := map[string]money.Amount{}
	tails := make([][]money.Amount, len(stakes))
	for k := len(stakes) - 1; k >= 0; k-- {
		es := stakes[k].Transfer.Entries
		tails[k] = make([]money.Amount, len(es))
		for j, e := range es {
			if e.Account.Kind == ledger.Escrow {
				tails[k][j] = tail[e.Account.Ref]
				tail[e.Account.Ref] += e.Amount
				total[e.Account.Ref] += e.Amount
			}
		}
	}
	for ref, amt := range total {
		w.escrows = append(w.escrows, batchEscrowRow{ref, amt})
	}
	slices.SortFunc(w.escrows, func(a, b batchEscrowRow) int { return cmp.Compare(a.ref, b.ref) })
	for k, st := range stakes {
		tr := st.Transfer
		w.transfers = append(w.transfers, tr)
		for j, e := range tr.Entries {
			row := batchEntryRow{key: tr.IdempotencyKey, amount: e.Amount}
			if e.Account.Kind == ledger.Escrow {
				row.ref, row.tail = e.Account.Ref, tails[k][j]
			} else {
				row.user, _ = e.Account.User()
				row.after = st.Balance
			}
			w.entries = append(w.entries, row)
		}
	}
	w.players, w.totals = plan.Players, plan.Totals
	return w
}

// InsertBets implements tote.Tx: one multi-row INSERT ... ON CONFLICT DO
// NOTHING RETURNING per chunk of bets. A bet whose (user, key) is taken,
// before or earlier in the same statement, comes back with Conflict
// DUPLICATE_BET; the transaction stays usable.
func (t *toteTx) InsertBets(ctx context.Context, bets []tote.Bet) ([]tote.Bet, []error, error) {
	stored := slices.Clone(bets)
	errList := make([]error, len(bets))
	db := t.tx.WithContext(ctx)
	order := betInsertOrder(bets)
	for start := 0; start < len(order); start += sqldb.ChunkRows / 10 {
		idx := order[start:min(len(order), start+sqldb.ChunkRows/10)]
		chunk := make([]tote.Bet, len(idx))
		for i, j := range idx {
			chunk[i] = bets[j]
		}
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)", func(_ int, b tote.Bet) []any {
			row := fromDomainBet(b)
			return []any{row.DrawID, row.TableID, row.UserID, row.Round, row.Market, row.Selection, row.Stake, row.Status, row.IdempotencyKey, row.PlacedAt}
		})
		var rows []struct {
			ID             int64
			UserID         int64
			IdempotencyKey string
		}
		q := `INSERT INTO tote_bets (draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at) VALUES ` + list +
			" ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING id, user_id, idempotency_key"
		if err := db.Raw(q, args...).Scan(&rows).Error; err != nil {
			return nil, nil, sqldb.MapErr(err, "bet")
		}
		ids := make(map[betKey]int64, len(rows))
		for _, r := range rows {
			ids[betKey{r.UserID, r.IdempotencyKey}] = r.ID
		}
		for i, b := range chunk {
			k := betKey{int64(b.UserID), b.IdempotencyKey}
			id, ok := ids[k]
			if !ok {
				errList[idx[i]] = errs.R(errs.Conflict, tote.ReasonDuplicateBet, "a bet with key %q exists", b.IdempotencyKey)
				continue
			}
			delete(ids, k) // a repeat of the key later in the chunk is the duplicate
			stored[idx[i]].ID = id
		}
	}
	return stored, errList, nil
}

// DeleteBets implements tote.Tx.
func (t *toteTx) DeleteBets(ctx context.Context, ids []int64) error {
	for chunk := range slices.Chunk(ids, sqldb.ChunkRows) {
		if err := t.tx.WithContext(ctx).Exec("DELETE FROM tote_bets WHERE id IN ? AND status = 'ACCEPTED'", chunk).Error; err != nil {
			return sqldb.MapErr(err, "bets")
		}
	}
	return nil
}
