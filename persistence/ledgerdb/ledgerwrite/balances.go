package ledgerwrite

import (
	"fmt"
	"slices"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// setBalances is the one UPDATE of ledger_accounts' balances: each account
// of rows (a VALUES list or an unnest, aliased v; id and balance name its
// columns: SQLite has no column aliases on a VALUES list) set to its new
// balance, which ledger.Apply gave. The CHECK constraints
// (ledger_accounts_balance_sign: never-negative kinds) are the last line
// of defence behind Apply.
func setBalances(rows, id, balance, rest string) string {
	return "UPDATE ledger_accounts SET balance = " + balance + " FROM " + rows + " WHERE ledger_accounts.id = " + id + rest
}

// balancesPG sets the balances of PGRows and returns one row per account.
var balancesPG = setBalances("unnest(@bal_ids::bigint[], @bal_values::bigint[]) AS v(id, b)", "v.id", "v.b", " RETURNING ledger_accounts.id")

// SetBalances stores the new balances bal (by account id), sqldb.ChunkRows
// to a statement, in id order. Both dialects.
func SetBalances(tx *gorm.DB, bal map[int64]money.Amount) error {
	ids := make([]int64, 0, len(bal))
	for id := range bal {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for chunk := range slices.Chunk(ids, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(CAST(? AS BIGINT), CAST(? AS BIGINT))", func(_ int, id int64) []any { return []any{id, int64(bal[id])} })
		res := tx.Exec(setBalances("(VALUES "+list+") AS v", "v.column1", "v.column2", ""), args...)
		if err := BalanceErr(res.Error); err != nil {
			return err
		}
		if res.RowsAffected != int64(len(chunk)) {
			return fmt.Errorf("update balances: %d of %d rows", res.RowsAffected, len(chunk))
		}
	}
	return nil
}

// BalanceErr maps the failure of a statement setting balances: a balance
// below zero where its kind may not go (reached only if ledger.Apply was
// bypassed) is INSUFFICIENT_FUNDS, an overflow Internal; nil stays nil.
func BalanceErr(err error) error {
	switch {
	case err == nil:
		return nil
	case sqldb.Violates(err, "ledger_accounts_balance_sign"):
		return errs.R(errs.Conflict, ledger.ReasonInsufficientFunds, "a balance would go below zero")
	case sqldb.Violates(err, "ledger_accounts_balance_integer") || sqldb.IsNumericOverflow(err):
		return &errs.Error{Code: errs.Internal, Message: "a balance would overflow", Err: err}
	}
	return fmt.Errorf("update balances: %w", err)
}
