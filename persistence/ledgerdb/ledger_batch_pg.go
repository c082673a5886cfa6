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

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
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
// entries (in posting order, ids drawn in that order) in one statement.
const writeBatchPG = `WITH tr AS (
	INSERT INTO ledger_transfers (idempotency_key, request_hash, kind, memo, created_at)
	SELECT k, h, kd, m, $5 FROM unnest($1::text[], $2::bytea[], $3::text[], $4::text[]) AS t(k, h, kd, m)
	RETURNING id, idempotency_key
), bal AS (
	UPDATE ledger_accounts a SET balance = v.b FROM unnest($6::bigint[], $7::bigint[]) AS v(id, b)
	WHERE a.id = v.id RETURNING a.id
), ent AS (
	INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after, created_at)
	SELECT tr.id, e.acc, e.amt, e.aft, $5
	FROM unnest($8::text[], $9::bigint[], $10::bigint[], $11::bigint[]) WITH ORDINALITY AS e(k, acc, amt, aft, ord)
	JOIN tr ON tr.idempotency_key = e.k ORDER BY e.ord
	RETURNING id, transfer_id, account_id
)
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
	var refs []ledger.AccountRef
	seen := map[ledger.AccountRef]bool{}
	keys := make([]string, 0, len(valid))
	for _, i := range valid {
		keys = append(keys, ts[i].IdempotencyKey)
		for _, e := range ts[i].Entries {
			if !seen[e.Account] {
				seen[e.Account] = true
				refs = append(refs, e.Account)
			}
		}
	}
	slices.SortFunc(refs, LockCompare)
	idOf, bal, taken, err := lockAccountsByRef(ctx, pool, refs, keys)
	if err != nil {
		return err
	}
	if len(idOf) < len(refs) {
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
			return err
		}
		if idOf, bal, taken, err = lockAccountsByRef(ctx, pool, refs, keys); err != nil {
			return err
		}
		if len(idOf) < len(refs) {
			return fmt.Errorf("lock accounts: %d of %d found after creating them", len(idOf), len(refs))
		}
	}
	if taken > 0 {
		for _, i := range valid {
			posted[i], errList[i] = r.postTx(ctx, tx, ts[i])
		}
		return nil
	}

	ok := applyAll(ts, valid, idOf, bal, errList)
	if len(ok) == 0 {
		return nil
	}
	now := sqldb.StoredTime(r.now())
	var (
		trKeys, trKinds, trMemos []string
		trHashes                 [][]byte
		balIDs, balValues        []int64
		eKeys                    []string
		eAccs, eAmts, eAfters    []int64
	)
	touched := map[int64]bool{}
	for _, a := range ok {
		t := ts[a.I]
		h := t.RequestHash()
		trKeys, trHashes, trKinds, trMemos = append(trKeys, t.IdempotencyKey), append(trHashes, h[:]), append(trKinds, string(t.Kind)), append(trMemos, t.Memo)
		for j, e := range t.Entries {
			id := idOf[e.Account]
			touched[id] = true
			eKeys, eAccs, eAmts, eAfters = append(eKeys, t.IdempotencyKey), append(eAccs, id), append(eAmts, int64(e.Amount)), append(eAfters, int64(a.After[j]))
		}
	}
	for id := range touched {
		balIDs = append(balIDs, id)
	}
	slices.Sort(balIDs)
	for _, id := range balIDs {
		balValues = append(balValues, int64(bal[id]))
	}
	rows, err := pool.QueryContext(ctx, writeBatchPG, trKeys, trHashes, trKinds, trMemos, now, balIDs, balValues, eKeys, eAccs, eAmts, eAfters)
	if err != nil {
		return batchWriteErr(err)
	}
	defer rows.Close()
	trID := map[string]int64{}
	entID := map[[2]int64]int64{}
	var nbal int64
	for rows.Next() {
		var id, tid, acc int64
		var key string
		if err := rows.Scan(&id, &tid, &acc, &key, &nbal); err != nil {
			return fmt.Errorf("write batch: %w", err)
		}
		trID[key] = tid
		entID[[2]int64{tid, acc}] = id
	}
	if err := rows.Err(); err != nil {
		return batchWriteErr(err)
	}
	if len(trID) != len(ok) || len(entID) != len(eKeys) || nbal != int64(len(balIDs)) {
		return fmt.Errorf("write batch: %d transfers, %d entries, %d balances back for %d, %d, %d", len(trID), len(entID), nbal, len(ok), len(eKeys), len(balIDs))
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
