package persistence

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
)

// betKey is a bet's idempotency scope.
type betKey struct {
	user int64
	key  string
}

// InsertBets implements tote.Tx: one multi-row INSERT ... ON CONFLICT DO
// NOTHING RETURNING per chunk of bets. A bet whose (user, key) is taken,
// before or earlier in the same statement, comes back with Conflict
// DUPLICATE_BET; the transaction stays usable.
func (t *toteTx) InsertBets(ctx context.Context, bets []tote.Bet) ([]tote.Bet, []error, error) {
	stored := slices.Clone(bets)
	errList := make([]error, len(bets))
	db := t.tx.WithContext(ctx)
	// Sorted by selection: the deferred totals triggers (migration 00030)
	// then lock the totals rows in one order in every transaction. Stable,
	// so that of two bets with one key the first asked wins.
	order := make([]int, len(bets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := bets[a], bets[b]
		return cmp.Or(cmp.Compare(x.DrawID, y.DrawID), cmp.Compare(x.Round, y.Round),
			cmp.Compare(x.Selection.Market, y.Selection.Market), cmp.Compare(x.Selection.String(), y.Selection.String()))
	})
	for start := 0; start < len(order); start += chunkRows / 10 {
		idx := order[start:min(len(order), start+chunkRows/10)]
		chunk := make([]tote.Bet, len(idx))
		for i, j := range idx {
			chunk[i] = bets[j]
		}
		var sb strings.Builder
		args := make([]any, 0, 10*len(chunk))
		sb.WriteString(`INSERT INTO tote_bets (draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at) VALUES `)
		for i, b := range chunk {
			if i > 0 {
				sb.WriteString(", ")
			}
			row := fromDomainBet(b)
			sb.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)")
			args = append(args, row.DrawID, row.TableID, row.UserID, row.Round, row.Market, row.Selection, row.Stake, row.Status, row.IdempotencyKey, row.PlacedAt)
		}
		sb.WriteString(" ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING id, user_id, idempotency_key")
		var rows []struct {
			ID             int64
			UserID         int64
			IdempotencyKey string
		}
		if err := db.Raw(sb.String(), args...).Scan(&rows).Error; err != nil {
			return nil, nil, mapErr(err, "bet")
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
	for chunk := range slices.Chunk(ids, chunkRows) {
		if err := t.tx.WithContext(ctx).Exec("DELETE FROM tote_bets WHERE id IN ? AND status = 'ACCEPTED'", chunk).Error; err != nil {
			return mapErr(err, "bets")
		}
	}
	return nil
}
