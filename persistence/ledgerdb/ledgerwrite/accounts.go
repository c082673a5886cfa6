package ledgerwrite

import (
	"fmt"
	"slices"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// insertAccounts is the one INSERT INTO ledger_accounts: rows (a VALUES
// list or a SELECT of kind, ref and balance), then what an account that
// exists already does (onConflict), then the rest of the statement.
func insertAccounts(rows, onConflict string) string {
	return "INSERT INTO ledger_accounts (kind, ref, balance) " + rows + " ON CONFLICT (kind, ref) " + onConflict
}

// createAccountsSQL creates n accounts at balance 0 (n tuples of kind and
// ref), skipping those that exist.
func createAccountsSQL(list string) string { return insertAccounts("VALUES "+list, "DO NOTHING") }

// addToEscrowsPG adds amounts to escrows, creating the missing ones with
// the amount as their balance, in the order given (so their rows are
// locked in that order: the caller passes the ledger's lock order), and
// returns each escrow's id, reference and balance after. The Postgres bet
// batch's escrows (WritePG with escrows): the pool's hot row is locked only
// by this statement, for the rest of its transaction.
var addToEscrowsPG = insertAccounts(`SELECT 'ESCROW', v.ref, v.amt
	FROM unnest(@esc_refs::text[], @esc_amounts::bigint[]) WITH ORDINALITY AS v(ref, amt, ord) ORDER BY v.ord`,
	"DO UPDATE SET balance = ledger_accounts.balance + excluded.balance RETURNING id, ref, balance")

// CreateAccounts creates the accounts of refs that do not exist yet, at
// balance 0, in the order given (the ledger's lock order), sqldb.ChunkRows
// to a statement; an account a concurrent transaction created meanwhile is
// skipped. Both dialects.
func CreateAccounts(tx *gorm.DB, refs []ledger.AccountRef) error {
	for chunk := range slices.Chunk(refs, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(?, ?, 0)", func(_ int, a ledger.AccountRef) []any { return []any{string(a.Kind), a.Ref} })
		if err := tx.Exec(createAccountsSQL(list), args...).Error; err != nil {
			return fmt.Errorf("create accounts: %w", err)
		}
	}
	return nil
}

// HoldAccount holds account a's row until tx ends (lock is the dialect's
// locking suffix, sqldb.DB.LockSuffix), creating the account at balance 0
// first if it has no row, and returns its id. protectiondb holds a
// player's wallet with it while it changes the player's exclusion.
func HoldAccount(tx *gorm.DB, a ledger.AccountRef, lock string) (int64, error) {
	q := "SELECT id FROM ledger_accounts WHERE kind = ? AND ref = ?" + lock
	var got []int64
	if err := tx.Raw(q, string(a.Kind), a.Ref).Scan(&got).Error; err != nil {
		return 0, fmt.Errorf("hold account %s: %w", a, err)
	}
	if len(got) == 0 {
		if err := CreateAccounts(tx, []ledger.AccountRef{a}); err != nil {
			return 0, fmt.Errorf("hold account %s: %w", a, err)
		}
		if err := tx.Raw(q, string(a.Kind), a.Ref).Scan(&got).Error; err != nil {
			return 0, fmt.Errorf("hold account %s: %w", a, err)
		}
	}
	if len(got) != 1 {
		return 0, fmt.Errorf("hold account %s: %d rows", a, len(got))
	}
	return got[0], nil
}
