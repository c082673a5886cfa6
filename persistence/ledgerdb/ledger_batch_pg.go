package ledgerdb

// The Postgres fast path of the batch poster: the same checks as
// postBatch, in two statements (one lock-and-read, one write) whose SQL
// text does not depend on the batch's size (arrays through unnest), so the
// driver prepares each once per connection instead of once per batch size.
// The bet intake posts every batch's stakes through it: docs/bets-load.md.
//
// No savepoint is needed: the lock statement also counts the batch's keys
// already taken, and a batch with any goes the one-by-one way (postTx,
// which answers replays). Should a concurrent post take one of the keys
// between the two statements (two posts of one new key at once), the
// write statement fails as a whole on the unique index and the error is
// reported as a serialization failure, so sqldb.RetryTx runs the caller's
// transaction again, which then finds the key taken.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// lockAccountsPG locks the accounts (kind, ref) in the order given and
// reads their balances, and counts the keys of ledger_transfers among keys.
const lockAccountsPG = `SELECT a.id, a.kind, a.ref, a.balance,
	(SELECT count(*) FROM ledger_transfers WHERE idempotency_key = ANY($3::text[])) AS taken
FROM ledger_accounts a
JOIN unnest($1::text[], $2::text[]) WITH ORDINALITY AS v(kind, ref, ord) ON a.kind = v.kind AND a.ref = v.ref
ORDER BY v.ord
` + sqldb.PGForUpdateOfA

// writeBatchPG inserts the transfers, sets the balances and inserts the
// entries (in posting order, ids drawn in that order) in one statement
// (ledgerwrite.WritePG).
var writeBatchPG = "WITH " + ledgerwrite.WritePG(false) + `
SELECT ent.id, ent.transfer_id, ent.account_id, tr.idempotency_key, (SELECT count(*) FROM bal)
FROM ent JOIN tr ON tr.id = ent.transfer_id`

// errBatchKeyRace is reported (as a serialization failure) when a key of
// the batch was taken between its two statements.
var errBatchKeyRace = &pgconn.PgError{Code: "40001", Message: "a transfer key of the batch was taken meanwhile; the transaction is run again"}

// postBatchPG is postBatchTx's work on Postgres for ts[valid...]; the
// returns to players among them (no deposit or stake comes here) are
// counted by the protection guard's batch form, CountReturnsPG.
func (r *Repo) postBatchPG(ctx context.Context, tx *gorm.DB, ts []ledger.Transfer, valid []int, posted []ledger.Posted, errList []error) error {
	pool := tx.Statement.ConnPool
	keys := make([]string, 0, len(valid))
	for _, i := range valid {
		keys = append(keys, ts[i].IdempotencyKey)
	}
	idOf, bal, taken, err := lockBatchAccounts(ctx, tx, batchRefs(ts, valid), keys)
	if err != nil {
		return err
	}
	if taken > 0 {
		r.postOneByOne(ctx, tx, ts, valid, posted, errList)
		return nil
	}
	ok := applyAll(ts, valid, idOf, bal, errList)
	if len(ok) == 0 {
		return nil
	}
	now := sqldb.StoredTime(r.now())
	trID, entID, err := writeBatchRowsPG(ctx, pool, batchRowsPG(ts, ok, idOf, bal), now)
	if err != nil {
		return err
	}
	applied := make([]int, len(ok))
	for j, a := range ok {
		applied[j] = a.I
	}
	if err := r.guard().CountReturnsPG(ctx, pool, ts, applied, now); err != nil {
		return err
	}
	fillPosted(posted, ts, ok, trID, entID, idOf, now)
	return nil
}

// lockBatchAccounts locks the accounts refs (in the order given) and reads
// their balances and how many of keys are taken (lockAccountsByRef),
// creating the missing accounts first.
func lockBatchAccounts(ctx context.Context, tx *gorm.DB, refs []ledger.AccountRef, keys []string) (map[ledger.AccountRef]int64, map[int64]money.Amount, int64, error) {
	pool := tx.Statement.ConnPool
	idOf, bal, taken, err := lockAccountsByRef(ctx, pool, refs, keys)
	if err != nil || len(idOf) == len(refs) {
		return idOf, bal, taken, err
	}
	// Only the missing accounts (a settlement's first JACKPOT or
	// ORGANISER leg, say): EnsureAccounts reads the refs it is given
	// with an IN list, which Postgres takes hundreds of milliseconds
	// to plan for a thousand wallets.
	var missing []ledger.AccountRef
	for _, a := range refs {
		if _, ok := idOf[a]; !ok {
			missing = append(missing, a)
		}
	}
	if _, err := EnsureAccounts(tx, missing); err != nil {
		return nil, nil, 0, err
	}
	if idOf, bal, taken, err = lockAccountsByRef(ctx, pool, refs, keys); err != nil {
		return nil, nil, 0, err
	}
	if len(idOf) < len(refs) {
		return nil, nil, 0, fmt.Errorf("lock accounts: %d of %d found after creating them", len(idOf), len(refs))
	}
	return idOf, bal, taken, nil
}

// batchRowsPG are the rows of the applied transfers ok: their transfer
// rows and entries in posting order, the final balances of the accounts
// they touch in id order.
func batchRowsPG(ts []ledger.Transfer, ok []BatchApplied, idOf map[ledger.AccountRef]int64, bal map[int64]money.Amount) *ledgerwrite.PGRows {
	rows := &ledgerwrite.PGRows{}
	touched := map[int64]bool{}
	for _, a := range ok {
		t := ts[a.I]
		rows.Transfer(t)
		for j, e := range t.Entries {
			id := idOf[e.Account]
			touched[id] = true
			rows.Entry(t.IdempotencyKey, id, e.Amount, a.After[j])
		}
	}
	ids := make([]int64, 0, len(touched))
	for id := range touched {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		rows.Balance(id, bal[id])
	}
	return rows
}

// writeBatchRowsPG runs writeBatchPG for rows stamped now and returns the
// transfers' ids by key and the entries' by (transfer id, account id).
func writeBatchRowsPG(ctx context.Context, pool gorm.ConnPool, rows *ledgerwrite.PGRows, now time.Time) (map[string]int64, map[[2]int64]int64, error) {
	args := pgx.NamedArgs{}
	rows.Args(now, args)
	res, err := pool.QueryContext(ctx, writeBatchPG, args)
	if err != nil {
		return nil, nil, batchWriteErr(err)
	}
	defer res.Close()
	trID := map[string]int64{}
	entID := map[[2]int64]int64{}
	var nbal int64
	for res.Next() {
		var id, tid, acc int64
		var key string
		if err := res.Scan(&id, &tid, &acc, &key, &nbal); err != nil {
			return nil, nil, fmt.Errorf("write batch: %w", err)
		}
		trID[key] = tid
		entID[[2]int64{tid, acc}] = id
	}
	if err := res.Err(); err != nil {
		return nil, nil, batchWriteErr(err)
	}
	if len(trID) != rows.Transfers() || len(entID) != rows.Entries() || nbal != int64(rows.Balances()) {
		return nil, nil, fmt.Errorf("write batch: %d transfers, %d entries, %d balances back for %d, %d, %d",
			len(trID), len(entID), nbal, rows.Transfers(), rows.Entries(), rows.Balances())
	}
	return trID, entID, nil
}

// batchWriteErr maps the write statement's failure.
func batchWriteErr(err error) error {
	switch {
	case sqldb.IsUniqueViolation(err):
		return fmt.Errorf("write batch: %w", errors.Join(errBatchKeyRace, err))
	case sqldb.Violates(err, "ledger_accounts_balance_sign"):
		return &errs.Error{Code: errs.Internal, Message: "a batch would have left an account below zero", Err: err}
	}
	return fmt.Errorf("write batch: %w", err)
}

// lockAccountsByRef runs lockAccountsPG: the ids and balances of the
// accounts found, and how many of keys are taken.
func lockAccountsByRef(ctx context.Context, pool gorm.ConnPool, refs []ledger.AccountRef, keys []string) (map[ledger.AccountRef]int64, map[int64]money.Amount, int64, error) {
	kinds := make([]string, len(refs))
	names := make([]string, len(refs))
	for i, a := range refs {
		kinds[i], names[i] = string(a.Kind), a.Ref
	}
	rows, err := pool.QueryContext(ctx, lockAccountsPG, kinds, names, keys)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("lock accounts: %w", err)
	}
	defer rows.Close()
	idOf := make(map[ledger.AccountRef]int64, len(refs))
	bal := make(map[int64]money.Amount, len(refs))
	var taken int64
	for rows.Next() {
		var row ledgerAccountRow
		var b int64
		if err := rows.Scan(&row.ID, &row.Kind, &row.Ref, &b, &taken); err != nil {
			return nil, nil, 0, fmt.Errorf("lock accounts: %w", err)
		}
		idOf[toDomainAccountRef(row)] = row.ID
		bal[row.ID] = money.Amount(b)
	}
	return idOf, bal, taken, rows.Err()
}
