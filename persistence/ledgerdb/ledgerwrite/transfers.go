package ledgerwrite

import (
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// insertTransfers is the one INSERT INTO ledger_transfers: rows (a VALUES
// list or a SELECT of the columns in this order), then the rest of the
// statement. Every transfer row carries its key and the hash of its
// request (ledger.Transfer.RequestHash), which tells a replay from a
// reused key.
func insertTransfers(rows, rest string) string {
	return "INSERT INTO ledger_transfers (idempotency_key, request_hash, kind, memo, created_at) " + rows + rest
}

// transferValues are t's row stamped at, in insertTransfers' column order.
func transferValues(t ledger.Transfer, at time.Time) []any {
	h := t.RequestHash()
	return []any{t.IdempotencyKey, h[:], string(t.Kind), t.Memo, at}
}

// transfersPG inserts the transfers of PGRows in their order (ids drawn in
// that order) and returns each one's id and key. A key already taken fails
// the whole statement on the unique index: the Postgres batches read the
// taken keys first, and run again when one was taken meanwhile.
var transfersPG = insertTransfers(`SELECT t.k, t.h, t.kd, t.m, @at
	FROM unnest(@tr_keys::text[], @tr_hashes::bytea[], @tr_kinds::text[], @tr_memos::text[]) WITH ORDINALITY AS t(k, h, kd, m, ord)
	ORDER BY t.ord`, " RETURNING id, idempotency_key")

// InsertTransfers inserts the rows of ts stamped at, in order,
// sqldb.ChunkRows to a statement, and returns their ids by key. A key
// already taken is skipped (ON CONFLICT DO NOTHING, which leaves the
// transaction usable) and has no id in the map: a single post answers it
// as a replay, a batch goes one by one. Both dialects.
func InsertTransfers(tx *gorm.DB, ts []ledger.Transfer, at time.Time) (map[string]int64, error) {
	out := make(map[string]int64, len(ts))
	for chunk := range slices.Chunk(ts, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?)", func(_ int, t ledger.Transfer) []any { return transferValues(t, at) })
		var rows []struct {
			ID             int64
			IdempotencyKey string
		}
		q := insertTransfers("VALUES "+list, " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id, idempotency_key")
		if err := tx.Raw(q, args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("insert transfers: %w", err)
		}
		for _, row := range rows {
			out[row.IdempotencyKey] = row.ID
		}
	}
	return out, nil
}
