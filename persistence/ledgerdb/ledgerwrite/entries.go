package ledgerwrite

import (
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// insertEntries is the one INSERT INTO ledger_entries: rows (a VALUES list
// or a SELECT of the columns in this order), returning the columns named.
// Entries are facts: never updated (triggers refuse it), each with the
// account's balance after it, inserted in posting order after the
// accounts' rows are locked, so one account's entries commit in id order.
func insertEntries(rows, returning string) string {
	return "INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after, created_at) " + rows + " RETURNING " + returning
}

// entriesPG inserts the entries of PGRows in their order, each transfer's
// id found by key in the tr CTE (transfersPG).
var entriesPG = insertEntries(`SELECT tr.id, e.acc, e.amt, e.aft, @at
	FROM unnest(@ent_keys::text[], @ent_accounts::bigint[], @ent_amounts::bigint[], @ent_afters::bigint[]) WITH ORDINALITY AS e(k, acc, amt, aft, ord)
	JOIN tr ON tr.idempotency_key = e.k
	ORDER BY e.ord`, "id, transfer_id, account_id, balance_after")

// entriesEscrowPG is entriesPG where an entry may name an escrow by
// reference rather than an account by id: its account and balance after
// come from the esc CTE (addToEscrowsPG), the escrow's balance after the
// whole batch less the amounts of its later entries (tail).
var entriesEscrowPG = insertEntries(`SELECT tr.id, COALESCE(esc.id, e.acc), e.amt, COALESCE(esc.balance - e.tail, e.aft), @at
	FROM unnest(@ent_keys::text[], @ent_accounts::bigint[], @ent_refs::text[], @ent_amounts::bigint[], @ent_afters::bigint[], @ent_tails::bigint[])
		WITH ORDINALITY AS e(k, acc, ref, amt, aft, tail, ord)
	JOIN tr ON tr.idempotency_key = e.k
	LEFT JOIN esc ON esc.ref = e.ref
	ORDER BY e.ord`, "id, transfer_id, account_id, balance_after")

// Entry is one row of ledger_entries to insert: the transfer's and the
// account's ids, the amount and the account's balance after it.
type Entry struct {
	Transfer, Account int64
	Amount, After     money.Amount
}

// InsertEntries inserts ents stamped at, in order, sqldb.ChunkRows to a
// statement, and returns their ids by (transfer id, account id): an
// account appears once per transfer. Both dialects.
func InsertEntries(tx *gorm.DB, ents []Entry, at time.Time) (map[[2]int64]int64, error) {
	out := make(map[[2]int64]int64, len(ents))
	for chunk := range slices.Chunk(ents, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(?, ?, ?, ?, ?)", func(_ int, e Entry) []any {
			return []any{e.Transfer, e.Account, int64(e.Amount), int64(e.After), at}
		})
		// RETURNING rows come in no promised order: the ids say which is which.
		var rows []struct {
			ID         int64
			TransferID int64
			AccountID  int64
		}
		if err := tx.Raw(insertEntries("VALUES "+list, "id, transfer_id, account_id"), args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("insert entries: %w", err)
		}
		if len(rows) != len(chunk) {
			return nil, fmt.Errorf("insert entries: %d rows back for %d entries", len(rows), len(chunk))
		}
		for _, row := range rows {
			out[[2]int64{row.TransferID, row.AccountID}] = row.ID
		}
	}
	return out, nil
}
