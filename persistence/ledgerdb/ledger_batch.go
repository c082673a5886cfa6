package ledgerdb

// The batch poster: many independent transfers in a few statements.
//
// The tote's bet intake posts the stakes of a burst of bets (one wallet →
// escrow transfer each) inside one transaction. Posting them one by one
// costs about eight statements each (savepoint, transfer row, account
// lookup, two balance updates, entries, release); postBatchTx does the same
// work for the whole batch with about six statements in all:
//
//  1. the accounts of every transfer are found (created if missing) and
//     locked with one SELECT ... FOR UPDATE, in the same total order as
//     single posts use (never-negative accounts first, then by kind and
//     reference; see lockOrder), so batches and single posts never wait
//     for each other in a cycle;
//  2. the transfers are applied in memory, in order, each with the same
//     per-transfer checks as a single post: Validate, and no never-negative
//     account below zero (INSUFFICIENT_FUNDS for that transfer only, which
//     then moves nothing while the later ones go on);
//  3. the transfer rows of the transfers that passed are inserted with ON
//     CONFLICT (idempotency_key) DO NOTHING; should any key be taken
//     already (a replay), the whole batch is rolled back to its savepoint
//     and posted again one transfer at a time through postTx, which
//     answers replays exactly;
//  4. each touched balance is set to its final value with one UPDATE (the
//     CHECK constraint stays the last line of defence), and the entries are
//     inserted with the balances after each transfer, in posting order,
//     after the locks were taken (so one account's entries commit in id
//     order, as with single posts).
//
// The rules are not written here: balances move through ledger.Apply on
// both paths, and a transfer the protection guard counts (a deposit, a
// stake, a return) goes through post and its guard (protection.Admit), or,
// for returns alone on Postgres, protectiondb's CountReturnsPG (protection.Admit too).

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

var _ ledger.BatchPoster = ledgerTx{}

// PostBatch implements ledger.BatchPoster through postBatchTx.
func (l ledgerTx) PostBatch(ctx context.Context, ts []ledger.Transfer) ([]ledger.Posted, []error, error) {
	l.watch(ts...)
	return l.r.postBatchTx(ctx, l.tx, ts)
}

// batchNeedsGuard reports whether any transfer of the batch means something
// to the player-protection guard (a deposit, a stake or a return to a
// player's wallet; protection.Classify).
func batchNeedsGuard(ts []ledger.Transfer, valid []int) bool {
	for _, i := range valid {
		// A transfer protection refuses to classify needs the guard too:
		// the guard's Check refuses it.
		if flows, err := protection.Classify(ts[i]); err != nil || len(flows) > 0 {
			return true
		}
	}
	return false
}

// onlyReturns reports whether no transfer of ts[valid...] holds a flow the
// guard checks (a deposit or a stake): such a batch needs only its returns
// counted.
func onlyReturns(ts []ledger.Transfer, valid []int) bool {
	for _, i := range valid {
		flows, err := protection.Classify(ts[i])
		if err != nil {
			return false // the full guard runs, and refuses it
		}
		for _, f := range flows {
			if f.Checked() {
				return false
			}
		}
	}
	return true
}

// checkBatchTransfer is the per-transfer check of a batch before any money
// moves; see the top of this file.
func checkBatchTransfer(t ledger.Transfer) error { return t.Validate() }

// postBatchTx posts ts inside the open transaction tx, with a result per
// transfer exactly as postTx one after another would give.
func (r *Repo) postBatchTx(ctx context.Context, tx *gorm.DB, ts []ledger.Transfer) ([]ledger.Posted, []error, error) {
	posted := make([]ledger.Posted, len(ts))
	errList := make([]error, len(ts))
	if !inTransaction(tx) {
		return nil, nil, errs.E(errs.Internal, "ledger: postBatchTx needs an open transaction")
	}
	tx = tx.WithContext(ctx)
	var valid []int
	for i, t := range ts {
		if errList[i] = checkBatchTransfer(t); errList[i] == nil {
			valid = append(valid, i)
		}
	}
	if len(valid) == 0 {
		return posted, errList, nil
	}
	if batchNeedsGuard(ts, valid) && (r.db.Dialect() != sqldb.Postgres || !onlyReturns(ts, valid)) {
		// The protection guard (protectiondb) runs inside post: until
		// the batch path applies it in memory, transfers that deposit or
		// stake go one by one through postTx, so each is checked and
		// counted exactly as a single post. Returns alone are counted by
		// the Postgres batch path itself (protectiondb.Guard.CountReturnsPG).
		r.postOneByOne(ctx, tx, ts, valid, posted, errList)
		return posted, errList, nil
	}
	if r.db.Dialect() == sqldb.Postgres {
		if err := r.postBatchPG(ctx, tx, ts, valid, posted, errList); err != nil {
			return nil, nil, errs.Wrap(err, "posting the transfers failed")
		}
		return posted, errList, nil
	}
	if len(valid) == 1 {
		r.postOneByOne(ctx, tx, ts, valid, posted, errList)
		return posted, errList, nil
	}
	if err := tx.Exec("SAVEPOINT ledger_batch").Error; err != nil {
		return nil, nil, errs.Wrap(err, "posting the transfers failed")
	}
	keysFree, err := r.postBatch(tx, ts, valid, posted, errList)
	if err != nil || !keysFree {
		if rbErr := tx.Exec("ROLLBACK TO SAVEPOINT ledger_batch").Error; rbErr != nil {
			return nil, nil, errs.Wrap(errors.Join(err, rbErr), "posting the transfers failed")
		}
	}
	if relErr := tx.Exec("RELEASE SAVEPOINT ledger_batch").Error; relErr != nil && err == nil {
		err = relErr
	}
	if err != nil {
		return nil, nil, errs.Wrap(err, "posting the transfers failed")
	}
	if !keysFree {
		r.postOneByOne(ctx, tx, ts, valid, posted, errList)
	}
	return posted, errList, nil
}

// postOneByOne posts ts[valid...] one by one through postTx (each
// answered as a single post would be: replays, the guard), setting
// posted[i] and errList[i].
func (r *Repo) postOneByOne(ctx context.Context, tx *gorm.DB, ts []ledger.Transfer, valid []int, posted []ledger.Posted, errList []error) {
	for _, i := range valid {
		posted[i], errList[i] = r.postTx(ctx, tx, ts[i])
	}
}

// LockCompare is the one lock order on accounts (lockOrder, the batch
// poster, the bet batches' wallets and escrows): never-negative first,
// then by kind and reference. Exported for totedb's bet batches, which
// lock wallets and escrows in this order too.
func LockCompare(a, b ledger.AccountRef) int {
	if na, nb := a.Kind.MayGoNegative(), b.Kind.MayGoNegative(); na != nb {
		if na {
			return 1
		}
		return -1
	}
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Ref, b.Ref))
}

// postBatch does postBatchTx's work for the transfers ts[valid...]. It
// reports keysFree=false (having written transfer rows the caller must roll
// back) when a key was taken already.
func (r *Repo) postBatch(tx *gorm.DB, ts []ledger.Transfer, valid []int, posted []ledger.Posted, errList []error) (keysFree bool, err error) {
	refs := batchRefs(ts, valid)
	ids, err := EnsureAccounts(tx, refs)
	if err != nil {
		return false, err
	}
	bal, err := r.LockBalances(tx, ids)
	if err != nil {
		return false, err
	}
	idOf := make(map[ledger.AccountRef]int64, len(refs))
	for i, a := range refs {
		idOf[a] = ids[i]
	}

	// 2. Apply in memory, in order.
	ok := applyAll(ts, valid, idOf, bal, errList)
	if len(ok) == 0 {
		return true, nil
	}

	// 3. Transfer rows.
	now := sqldb.StoredTime(r.now())
	trIDs, err := ledgerwrite.InsertTransfers(tx, appliedTransfers(ts, ok), now)
	if err != nil || len(trIDs) != len(ok) {
		return false, err
	}

	// 4. Balances and entries.
	if err := SetBalances(tx, bal); err != nil {
		return false, err
	}
	var ents []ledgerwrite.Entry
	for _, a := range ok {
		for j, e := range ts[a.I].Entries {
			ents = append(ents, ledgerwrite.Entry{Transfer: trIDs[ts[a.I].IdempotencyKey], Account: idOf[e.Account], Amount: e.Amount, After: a.After[j]})
		}
	}
	entIDs, err := ledgerwrite.InsertEntries(tx, ents, now)
	if err != nil {
		return false, err
	}
	fillPosted(posted, ts, ok, trIDs, entIDs, idOf, now)
	return true, nil
}

// appliedTransfers are the transfers of ts that applied, in order.
func appliedTransfers(ts []ledger.Transfer, ok []BatchApplied) []ledger.Transfer {
	out := make([]ledger.Transfer, len(ok))
	for j, a := range ok {
		out[j] = ts[a.I]
	}
	return out
}

// batchRefs are the accounts the transfers ts[valid...] touch, each once,
// in the ledger's lock order (LockCompare).
func batchRefs(ts []ledger.Transfer, valid []int) []ledger.AccountRef {
	var refs []ledger.AccountRef
	seen := map[ledger.AccountRef]bool{}
	for _, i := range valid {
		for _, e := range ts[i].Entries {
			if !seen[e.Account] {
				seen[e.Account] = true
				refs = append(refs, e.Account)
			}
		}
	}
	slices.SortFunc(refs, LockCompare)
	return refs
}

// fillPosted sets posted[i] for each applied transfer i from the ids its
// rows got: the transfer's by key, each entry's by (transfer, account).
func fillPosted(posted []ledger.Posted, ts []ledger.Transfer, ok []BatchApplied, trIDs map[string]int64, entIDs map[[2]int64]int64, idOf map[ledger.AccountRef]int64, now time.Time) {
	for _, a := range ok {
		t := ts[a.I]
		trID := trIDs[t.IdempotencyKey]
		p := ledger.Posted{ID: trID, IdempotencyKey: t.IdempotencyKey, Kind: t.Kind, Memo: t.Memo,
			Entries: make([]ledger.PostedEntry, len(t.Entries)), PostedAt: now}
		for j, e := range t.Entries {
			p.Entries[j] = ledger.PostedEntry{ID: entIDs[[2]int64{trID, idOf[e.Account]}], Account: e.Account, Amount: e.Amount, BalanceAfter: a.After[j]}
		}
		posted[a.I] = p
	}
}

// LockBalances locks the accounts ids in the order given (on Postgres) and
// returns their balances. Exported for totedb's SQLite bet batch, which
// locks its wallets and escrows in its own transaction.
func (r *Repo) LockBalances(tx *gorm.DB, ids []int64) (map[int64]money.Amount, error) {
	bal := make(map[int64]money.Amount, len(ids))
	for chunk := range slices.Chunk(ids, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(CAST(? AS BIGINT), CAST(? AS INT))", func(i int, id int64) []any { return []any{id, i} })
		q := "SELECT a.id, a.balance FROM ledger_accounts a JOIN (VALUES " + list + ") AS v ON a.id = v.column1 ORDER BY v.column2"
		if r.db.Dialect() == sqldb.Postgres {
			q += sqldb.PGForUpdateOfA
		}
		var rows []struct {
			ID      int64
			Balance int64
		}
		if err := tx.Raw(q, args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("lock accounts: %w", err)
		}
		for _, row := range rows {
			bal[row.ID] = money.Amount(row.Balance)
		}
	}
	if len(bal) != len(ids) {
		return nil, fmt.Errorf("lock accounts: %d of %d found", len(bal), len(ids))
	}
	return bal, nil
}

// applyAll applies the valid transfers in order (applyInMemory) and
// returns those that applied; a refused one gets its error in errList and
// leaves bal as it was.
func applyAll(ts []ledger.Transfer, valid []int, idOf map[ledger.AccountRef]int64, bal map[int64]money.Amount, errList []error) []BatchApplied {
	var ok []BatchApplied
	for _, i := range valid {
		after, err := applyInMemory(ts[i], idOf, bal)
		if err != nil {
			errList[i] = err
			continue
		}
		ok = append(ok, BatchApplied{i, after})
	}
	return ok
}

// applyInMemory applies t to the balances bal (by account id) through
// ledger.Apply and returns each entry's balance after; on error bal is
// unchanged.
func applyInMemory(t ledger.Transfer, idOf map[ledger.AccountRef]int64, bal map[int64]money.Amount) ([]money.Amount, error) {
	b := make(ledger.Balances, len(t.Entries))
	for _, e := range t.Entries {
		b[e.Account] = bal[idOf[e.Account]]
	}
	after, err := ledger.Apply(t, b)
	if err != nil {
		return nil, err
	}
	for a, v := range b {
		bal[idOf[a]] = v
	}
	return after, nil
}

// BatchApplied is a transfer of a batch that passed its checks: its index
// and each entry's balance after it.
type BatchApplied struct {
	I     int
	After []money.Amount
}

// SetBalances stores the new balances of a post or a batch (by account
// id): ledgerwrite.SetBalances.
func SetBalances(tx *gorm.DB, bal map[int64]money.Amount) error {
	return ledgerwrite.SetBalances(tx, bal)
}
