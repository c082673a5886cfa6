package ledgerdb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Balance implements ledger.Store: the cached balance, 0 for an account
// that has never had an entry.
func (r *Repo) Balance(ctx context.Context, a ledger.AccountRef) (money.Amount, error) {
	if err := a.Validate(); err != nil {
		return 0, err
	}
	var rows []ledgerAccountRow
	err := r.db.Gorm().WithContext(ctx).Where("kind = ? AND ref = ?", string(a.Kind), a.Ref).Limit(1).Find(&rows).Error
	if err != nil {
		return 0, errs.Wrap(err, "reading the balance failed")
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return money.Amount(rows[0].Balance), nil
}

// History implements ledger.Store, paging by entry id with
// ledger.EncodeCursor cursors.
func (r *Repo) History(ctx context.Context, a ledger.AccountRef, p ledger.Page) (ledger.HistoryPage, error) {
	if err := a.Validate(); err != nil {
		return ledger.HistoryPage{}, err
	}
	before, err := ledger.DecodeCursor(p.After)
	if err != nil {
		return ledger.HistoryPage{}, err
	}
	size := p.Size()
	q := `SELECT e.id, e.transfer_id, t.kind, t.idempotency_key, t.memo, e.amount, e.balance_after, t.created_at
		FROM ledger_entries e
		JOIN ledger_transfers t ON t.id = e.transfer_id
		WHERE e.account_id = (SELECT id FROM ledger_accounts WHERE kind = ? AND ref = ?)`
	args := []any{string(a.Kind), a.Ref}
	switch {
	case p.Backward:
		if before > 0 { // the cursor is on the newer side
			q += " AND e.id > ?"
			args = append(args, before)
		}
		q += " ORDER BY e.id LIMIT ?"
	default:
		if before > 0 {
			q += " AND e.id < ?"
			args = append(args, before)
		}
		q += " ORDER BY e.id DESC LIMIT ?"
	}
	args = append(args, size+1)
	var rows []historyRow
	rd, done := r.db.Reader(ctx)
	defer done()
	if err := rd.Raw(q, args...).Scan(&rows).Error; err != nil {
		return ledger.HistoryPage{}, errs.Wrap(err, "reading the history failed")
	}
	var page ledger.HistoryPage
	if len(rows) > size {
		rows = rows[:size]
		page.Next = ledger.EncodeCursor(rows[size-1].ID)
	}
	if p.Backward {
		slices.Reverse(rows) // read oldest first, listed newest first
	}
	page.Items = make([]ledger.HistoryItem, len(rows))
	for i, row := range rows {
		page.Items[i] = toDomainHistoryItem(row)
	}
	return page, nil
}

// reconcileLimit bounds the problems of each kind Reconcile reports.
const reconcileLimit = 10

// reconcileLine is one problem row; the checks name their columns a to d.
type reconcileLine struct{ A, B, C, D string }

func lineAccount(l reconcileLine) ledger.AccountRef {
	return ledger.AccountRef{Kind: ledger.AccountKind(l.A), Ref: l.B}
}

// reconcileChecks are the queries of Reconcile, each listing up to
// reconcileLimit problems of one kind, and how to describe one.
var reconcileChecks = []struct {
	sql      string
	describe func(reconcileLine) string
}{
	{`SELECT a.kind AS a, a.ref AS b, CAST(a.balance AS TEXT) AS c, CAST(COALESCE(s.total, 0) AS TEXT) AS d
		FROM ledger_accounts a
		LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_entries GROUP BY account_id) s ON s.account_id = a.id
		WHERE a.balance <> COALESCE(s.total, 0)
		ORDER BY a.id LIMIT ?`,
		func(l reconcileLine) string {
			return fmt.Sprintf("%s: balance %s but entries sum to %s", lineAccount(l), tiyn(l.C), tiyn(l.D))
		}},
	{`SELECT CAST(transfer_id AS TEXT) AS a, CAST(SUM(amount) AS TEXT) AS b
		FROM ledger_entries GROUP BY transfer_id HAVING SUM(amount) <> 0
		ORDER BY transfer_id LIMIT ?`,
		func(l reconcileLine) string { return fmt.Sprintf("transfer %s sums to %s", l.A, tiyn(l.B)) }},
	{`SELECT CAST(t.id AS TEXT) AS a FROM ledger_transfers t
		WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transfer_id = t.id)
		ORDER BY t.id LIMIT ?`,
		func(l reconcileLine) string { return fmt.Sprintf("transfer %s has no entries", l.A) }},
	{`SELECT CAST(total AS TEXT) AS a FROM (SELECT SUM(amount) AS total FROM ledger_entries) s
		WHERE total <> 0 LIMIT ?`,
		func(l reconcileLine) string { return fmt.Sprintf("all entries sum to %s", tiyn(l.A)) }},
	{`SELECT kind AS a, ref AS b, CAST(balance AS TEXT) AS c FROM ledger_accounts
		WHERE balance < 0 AND kind NOT IN ('CASH', 'ORGANISER', 'HOUSE')
		ORDER BY id LIMIT ?`,
		func(l reconcileLine) string { return fmt.Sprintf("%s is negative: %s", lineAccount(l), tiyn(l.C)) }},
}

// Reconcile implements ledger.Store. On Postgres it reads one consistent
// snapshot (a read-only REPEATABLE READ transaction), so posts running at
// the same time cannot make the books look wrong. Sums are compared in SQL
// and read back as text, so even a corrupt sum beyond int64 is reported,
// not an overflow.
func (r *Repo) Reconcile(ctx context.Context) error {
	var problems []string
	check := func(tx *gorm.DB) error {
		problems = problems[:0]
		for _, c := range reconcileChecks {
			var lines []reconcileLine
			if err := tx.Raw(c.sql, reconcileLimit).Scan(&lines).Error; err != nil {
				return err
			}
			for _, l := range lines {
				problems = append(problems, c.describe(l))
			}
		}
		return nil
	}
	var opts []*sql.TxOptions
	if r.db.Dialect() == sqldb.Postgres {
		opts = append(opts, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	}
	if err := r.db.Gorm().WithContext(ctx).Transaction(check, opts...); err != nil {
		return errs.Wrap(err, "reconciling the ledger failed")
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return errs.R(errs.Internal, ledger.ReasonInconsistent, "ledger does not reconcile: %s", strings.Join(problems, "; "))
}

// tiyn formats a sum read back as text like a money.Amount, or as a raw
// count of tiyn when it does not fit one.
func tiyn(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return s + " tiyn"
	}
	return money.Amount(n).String()
}
