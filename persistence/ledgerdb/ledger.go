package ledgerdb

// The ledger adapter: the money core.
//
// # Posting inside another store's transaction
//
// A store that must change its own rows and move money atomically (totedb
// accepting a bet and moving its stake, holdemdb settling a hand) posts
// through its own transaction with the Poster of that transaction, and
// retries the whole transaction with sqldb.RetryTx on a serialization
// failure or deadlock:
//
//	err := sqldb.RetryTx(ctx, db, func(tx *gorm.DB) error {
//		if err := tx.Create(&betRow).Error; err != nil {
//			return err
//		}
//		_, err := led.Poster(tx).Post(ctx, ledger.Move(key, ledger.BetStake, memo, wallet, escrow, stake))
//		return err // INSUFFICIENT_FUNDS here rolls the bet back too
//	})
//
// The Poster's Post is postTx:
//
//	func (r *Repo) postTx(ctx context.Context, tx *gorm.DB, t ledger.Transfer) (ledger.Posted, error)
//	func (r *Repo) Poster(tx *gorm.DB) ledger.Poster // a ledgerTx, for domain services taking a Poster
//	func RetryTx(ctx context.Context, db *sqldb.DB, fn func(tx *gorm.DB) error) error // in sqldb
//
// postTx validates t and runs inside a SAVEPOINT: when it fails (for any
// reason, INSUFFICIENT_FUNDS and IDEMPOTENCY_KEY_REUSED included) nothing of
// that post remains in tx and tx stays usable, so the caller may go on and
// commit its other work; when it succeeds, the money moves if and only if tx
// commits. A replayed key returns the first post with Replayed set and moves
// nothing. The caller's transaction must be a real one (db.Tx, sqldb.RetryTx or
// gorm's Transaction; postTx refuses a bare *gorm.DB) at the default READ
// COMMITTED isolation. The balance rows a post locks stay locked until the
// caller commits, and CASH and HOUSE are hot: post late in the transaction
// and keep it short. Locks the caller took before posting can still form a
// cycle with other transactions; sqldb.RetryTx runs the whole function again
// when Postgres breaks such a deadlock.
//
// # How a post is made safe
//
//  1. The transfer row is inserted first with ON CONFLICT (idempotency_key)
//     DO NOTHING. A concurrent post of the same key on Postgres waits on the
//     unique index until the first one commits (then finds the row: a replay
//     or KeyReused) or rolls back (then inserts and moves the money itself).
//     Unlike catching the unique violation, this leaves a caller's
//     transaction usable.
//  2. The accounts are created if missing (INSERT ... ON CONFLICT DO NOTHING),
//     then locked and read with one SELECT ... FOR UPDATE (LockBalances), in
//     one total order (see lockOrder), so two posts never wait for each
//     other in a cycle. ledger.Apply, the one home of "never below zero",
//     decides (INSUFFICIENT_FUNDS undoes the whole post) and gives the
//     balances after each entry, which one UPDATE stores (SetBalances). The
//     CHECK constraint on ledger_accounts is the last line of defence and
//     also maps to INSUFFICIENT_FUNDS.
//  3. The entries are inserted with the balances Apply returned, in
//     posting order, and never updated (triggers refuse UPDATE and DELETE).
//     Entry ids are drawn after the account's row lock is taken, so one
//     account's entries commit in id order and history pages never skip one.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database ledger.Store.
type Repo struct {
	db  *sqldb.DB
	now func() time.Time
	// loc is the operator's zone: the calendar of the protection counters.
	loc *time.Location
}

var _ ledger.Store = (*Repo)(nil)

// New returns the ledger on db.
// Every post runs the player-protection guard (protectiondb.Guard), with
// periods in the operator's default zone until SetLocation says otherwise.
func New(db *sqldb.DB) *Repo {
	loc, err := account.LoadZone(account.DefaultZone)
	if err != nil {
		loc = time.UTC
	}
	return &Repo{db: db, now: time.Now, loc: loc}
}

// SetLocation sets the operator's zone (TIME_ZONE) that the protection
// counters' days, weeks and months follow. Call it before the repository
// is shared.
func (r *Repo) SetLocation(loc *time.Location) {
	if loc != nil {
		r.loc = loc
	}
}

// Location is the operator's zone the protection counters follow, for the
// tote's bet batch, which counts its stakes itself.
func (r *Repo) Location() *time.Location { return r.loc }

// Now is the ledger's clock, for the tote's bet batch, which stamps the
// transfers it writes itself.
func (r *Repo) Now() time.Time { return r.now() }

// guard is the player-protection guard every post runs.
func (r *Repo) guard() protectiondb.Guard { return protectiondb.NewGuard(r.db, r.loc) }

// SetClock replaces the clock stamping transfers and dating the protection
// counters; for tests that move through periods.
func (r *Repo) SetClock(now func() time.Time) { r.now = now }

// Post implements ledger.Poster: it posts t in a transaction of its own,
// retried as a whole when Postgres reports a serialization failure or a
// deadlock.
func (r *Repo) Post(ctx context.Context, t ledger.Transfer) (ledger.Posted, error) {
	if err := t.Validate(); err != nil {
		return ledger.Posted{}, err
	}
	var p ledger.Posted
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		var err error
		p, err = r.post(tx, t)
		return err
	})
	if err != nil {
		return ledger.Posted{}, errs.Wrap(err, "posting the transfer failed")
	}
	return p, nil
}

// postTx posts t inside the caller's open transaction tx, atomically with
// the caller's other work; see the top of this file. On error nothing of
// this post remains in tx.
func (r *Repo) postTx(ctx context.Context, tx *gorm.DB, t ledger.Transfer) (ledger.Posted, error) {
	if err := t.Validate(); err != nil {
		return ledger.Posted{}, err
	}
	if !inTransaction(tx) {
		return ledger.Posted{}, errs.E(errs.Internal, "ledger: postTx needs an open transaction")
	}
	tx = tx.WithContext(ctx)
	if err := tx.Exec("SAVEPOINT ledger_post").Error; err != nil {
		return ledger.Posted{}, errs.Wrap(err, "posting the transfer failed")
	}
	p, err := r.post(tx, t)
	if err != nil {
		if rbErr := tx.Exec("ROLLBACK TO SAVEPOINT ledger_post").Error; rbErr != nil {
			return ledger.Posted{}, errs.Wrap(errors.Join(err, rbErr), "posting the transfer failed")
		}
	}
	if relErr := tx.Exec("RELEASE SAVEPOINT ledger_post").Error; relErr != nil && err == nil {
		err = relErr
	}
	if err != nil {
		return ledger.Posted{}, errs.Wrap(err, "posting the transfer failed")
	}
	return p, nil
}

// ledgerTx is a ledger.Poster bound to one open database transaction, for
// domain services that take a Poster inside a unit of work. It is dead once
// the transaction ends.
type ledgerTx struct {
	r  *Repo
	tx *gorm.DB
	// jackpot, when set, is called before a transfer that moves the
	// JACKPOT account is posted (PosterWatchingJackpot).
	jackpot func()
}

var _ ledger.Poster = ledgerTx{}

// Post implements ledger.Poster through postTx.
func (l ledgerTx) Post(ctx context.Context, t ledger.Transfer) (ledger.Posted, error) {
	l.watch(t)
	return l.r.postTx(ctx, l.tx, t)
}

// watch calls l.jackpot when ts move the JACKPOT account.
func (l ledgerTx) watch(ts ...ledger.Transfer) {
	if l.jackpot == nil {
		return
	}
	for _, t := range ts {
		for _, e := range t.Entries {
			if e.Account == ledger.JackpotAccount {
				l.jackpot()
				return
			}
		}
	}
}

// Poster is a ledger.Poster posting inside tx, exported for the stores
// whose own rows commit with the money (totedb, holdemdb); see the top of
// this file.
func (r *Repo) Poster(tx *gorm.DB) ledger.Poster { return ledgerTx{r: r, tx: tx} }

// PosterWatchingJackpot is Poster whose posts call jackpot first when they
// move the JACKPOT account (totedb's tote.JackpotWatch).
func (r *Repo) PosterWatchingJackpot(tx *gorm.DB, jackpot func()) ledger.Poster {
	return ledgerTx{r: r, tx: tx, jackpot: jackpot}
}

// LockBalance reads the balance of account a inside tx, a transaction of
// the caller's, and on Postgres holds its row (FOR UPDATE) until tx ends,
// so that callers who read a balance and then move it (the tote's jackpot
// payout) take turns. An account that has no row yet has balance 0.
// Exported for totedb's jackpot, read and paid in the draw's transaction.
func (r *Repo) LockBalance(tx *gorm.DB, a ledger.AccountRef) (money.Amount, error) {
	var bals []int64
	q := "SELECT balance FROM ledger_accounts WHERE kind = ? AND ref = ?" + r.db.LockSuffix(sqldb.LockExclusive)
	if err := tx.Raw(q, string(a.Kind), a.Ref).Scan(&bals).Error; err != nil {
		return 0, err
	}
	if len(bals) == 0 {
		return 0, nil
	}
	return money.Amount(bals[0]), nil
}

// InTx runs fn with a Poster whose posts commit together when fn returns nil
// and are all undone when it returns an error or panics: the database twin
// of ledgertest.MemStore.InTx. The transaction is retried as a whole after a
// serialization failure or deadlock, so fn must be safe to run again.
func (r *Repo) InTx(ctx context.Context, fn func(ctx context.Context, tx ledger.Poster) error) error {
	return sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		return fn(ctx, r.Poster(tx))
	})
}

// inTransaction reports whether tx runs inside a database transaction.
func inTransaction(tx *gorm.DB) bool {
	c, ok := tx.Statement.ConnPool.(gorm.TxCommitter)
	return ok && c != nil
}

// post does the work of one post of a validated transfer inside tx (the
// steps at the top of this file). Any error leaves tx to be rolled back (or
// rolled back to a savepoint) by the caller.
func (r *Repo) post(tx *gorm.DB, t ledger.Transfer) (ledger.Posted, error) {
	at := sqldb.StoredTime(r.now())
	trIDs, err := ledgerwrite.InsertTransfers(tx, []ledger.Transfer{t}, at)
	if err != nil {
		return ledger.Posted{}, err
	}
	trID, ok := trIDs[t.IdempotencyKey]
	if !ok {
		return replay(tx, t.IdempotencyKey, t.RequestHash())
	}
	accountIDs, after, err := r.applyLocked(tx, t, at)
	if err != nil {
		return ledger.Posted{}, err
	}
	// The protection state is read after the wallets are locked (their
	// balance updates above): an exclusion is set holding the wallet
	// (protectiondb's holdWallet), so it committed before this
	// read or starts after this post commits.
	states, err := r.guard().Check(tx, t, at)
	if err != nil {
		return ledger.Posted{}, err
	}
	if err := r.guard().Count(tx, states, at); err != nil {
		return ledger.Posted{}, err
	}
	entryIDs, err := insertEntries(tx, trID, accountIDs, t.Entries, after, at)
	if err != nil {
		return ledger.Posted{}, err
	}
	p := ledger.Posted{
		ID:             trID,
		IdempotencyKey: t.IdempotencyKey,
		Kind:           t.Kind,
		Memo:           t.Memo,
		Entries:        make([]ledger.PostedEntry, len(t.Entries)),
		PostedAt:       at,
	}
	for i, e := range t.Entries {
		p.Entries[i] = ledger.PostedEntry{ID: entryIDs[i], Account: e.Account, Amount: e.Amount, BalanceAfter: after[i]}
	}
	return p, nil
}

// applyLocked creates t's accounts if missing, locks them in lock order,
// applies t to their balances (ledger.Apply: never below zero) and stores
// the balances it returns. It returns each entry's account id and balance
// after.
func (r *Repo) applyLocked(tx *gorm.DB, t ledger.Transfer, at time.Time) ([]int64, []money.Amount, error) {
	order := lockOrder(t.Entries)
	refs := make([]ledger.AccountRef, len(order))
	for i, j := range order {
		refs[i] = t.Entries[j].Account
	}
	ids, err := EnsureAccounts(tx, refs)
	if err != nil {
		return nil, nil, err
	}
	accountIDs := make([]int64, len(t.Entries))
	for i, j := range order {
		accountIDs[j] = ids[i]
	}
	bal, err := r.LockBalances(tx, ids)
	if err != nil {
		return nil, nil, err
	}
	byRef := make(ledger.Balances, len(t.Entries))
	for j, e := range t.Entries {
		byRef[e.Account] = bal[accountIDs[j]]
	}
	after, err := ledger.Apply(t, byRef)
	if err != nil {
		if errs.ReasonOf(err) == ledger.ReasonInsufficientFunds {
			// An excluded player hears so rather than of a short wallet.
			if _, xErr := r.guard().Check(tx, t, at); errs.CodeOf(xErr) == errs.Forbidden {
				return nil, nil, xErr
			}
		}
		return nil, nil, err
	}
	for j, e := range t.Entries {
		bal[accountIDs[j]] = byRef[e.Account]
	}
	if err := SetBalances(tx, bal); err != nil {
		return nil, nil, err
	}
	return accountIDs, after, nil
}

// replay answers a post whose key is already taken: the first post's result
// when the request is the same, KeyReused otherwise.
func replay(tx *gorm.DB, key string, hash [32]byte) (ledger.Posted, error) {
	var tr ledgerTransferRow
	if err := tx.Where("idempotency_key = ?", key).Take(&tr).Error; err != nil {
		// The key was taken a moment ago, so the row must be visible: at the
		// default READ COMMITTED each statement sees every commit before it.
		return ledger.Posted{}, fmt.Errorf("read transfer %q after its key was found taken: %w", key, err)
	}
	if !bytes.Equal(tr.RequestHash, hash[:]) {
		return ledger.Posted{}, ledger.KeyReused(key)
	}
	var rows []postedEntryRow
	err := tx.Raw(`SELECT e.id, a.kind, a.ref, e.amount, e.balance_after
		FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
		WHERE e.transfer_id = ? ORDER BY e.id`, tr.ID).Scan(&rows).Error
	if err != nil {
		return ledger.Posted{}, fmt.Errorf("read entries of transfer %d: %w", tr.ID, err)
	}
	p := toDomainPosted(tr, rows)
	p.Replayed = true
	return p, nil
}

// lockOrder returns the indices of entries in the one order in which every
// post creates and locks accounts: never-negative accounts first (so a
// short wallet fails before the busy CASH or HOUSE row is touched, and those
// hot rows stay locked for the shortest time), then by kind and reference.
// One total order for all posts means no two of them wait for each other in
// a cycle.
func lockOrder(entries []ledger.Entry) []int {
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return LockCompare(entries[i].Account, entries[j].Account) })
	return order
}

// EnsureAccounts returns the ids of the accounts refs (distinct, in lock
// order), creating the missing ones in that order. Exported for totedb's
// SQLite bet batch, which creates its escrows in its own transaction.
func EnsureAccounts(tx *gorm.DB, refs []ledger.AccountRef) ([]int64, error) {
	ids, err := FindAccounts(tx, refs)
	if err != nil {
		return nil, err
	}
	var missing []ledger.AccountRef
	for i, id := range ids {
		if id == 0 {
			missing = append(missing, refs[i])
		}
	}
	if len(missing) == 0 {
		return ids, nil
	}
	// Created in lock order; an account a concurrent post created
	// meanwhile is skipped and found below.
	if err := ledgerwrite.CreateAccounts(tx, missing); err != nil {
		return nil, err
	}
	if ids, err = FindAccounts(tx, refs); err != nil {
		return nil, err
	}
	for i, id := range ids {
		if id == 0 {
			return nil, fmt.Errorf("account %s missing right after it was created", refs[i])
		}
	}
	return ids, nil
}

// FindAccounts returns the id of each of refs, 0 for those that do not
// exist. Exported for totedb's SQLite bet batch, which reads its wallets.
func FindAccounts(tx *gorm.DB, refs []ledger.AccountRef) ([]int64, error) {
	pos := make(map[ledger.AccountRef]int, len(refs))
	for i, a := range refs {
		pos[a] = i
	}
	ids := make([]int64, len(refs))
	for chunk := range slices.Chunk(refs, sqldb.ChunkRows) {
		list, args := sqldb.RowList(chunk, "(?, ?)", func(_ int, a ledger.AccountRef) []any { return []any{string(a.Kind), a.Ref} })
		var rows []ledgerAccountRow
		if err := tx.Raw("SELECT id, kind, ref, balance FROM ledger_accounts WHERE (kind, ref) IN ("+list+")", args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("find accounts: %w", err)
		}
		for _, row := range rows {
			if i, ok := pos[toDomainAccountRef(row)]; ok {
				ids[i] = row.ID
			}
		}
	}
	return ids, nil
}

// insertEntries records the entries of transfer trID (account ids and
// balances after in entry order) in posting order and returns their ids in
// that order.
func insertEntries(tx *gorm.DB, trID int64, accountIDs []int64, entries []ledger.Entry, after []money.Amount, at time.Time) ([]int64, error) {
	rows := make([]ledgerwrite.Entry, len(entries))
	for i, e := range entries {
		rows[i] = ledgerwrite.Entry{Transfer: trID, Account: accountIDs[i], Amount: e.Amount, After: after[i]}
	}
	got, err := ledgerwrite.InsertEntries(tx, rows, at)
	if err != nil {
		return nil, err
	}
	entryIDs := make([]int64, len(entries))
	for i, id := range accountIDs {
		var ok bool
		if entryIDs[i], ok = got[[2]int64{trID, id}]; !ok {
			return nil, fmt.Errorf("insert entries: no id back for account %d", id)
		}
	}
	return entryIDs, nil
}
