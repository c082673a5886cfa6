package persistence

// # Locks
//
// Every lock a repository takes goes through this file, so both dialects
// are handled in one place:
//
//   - row locks: lockRows (gorm clauses) or lockSuffix (raw SQL) append
//     FOR UPDATE or FOR SHARE on Postgres and nothing on SQLite, whose
//     transactions start IMMEDIATE on one connection and so run one at a
//     time;
//   - advisory locks: advisoryXactLock takes a transaction-scoped advisory
//     lock, shared or exclusive, on Postgres, and nothing on SQLite. Unlike
//     FOR SHARE, advisory locks queue fairly: once an exclusive taker waits,
//     later shared takers queue behind it.
//
// The money core's own locks (the balance rows a post updates, in
// lockOrder) are taken by the ledger; another repository that needs a
// balance held asks the LedgerRepo (lockBalance). The Postgres-only fast
// paths (pgx statements prepared once, tote_batch_pg.go and
// ledger_batch_pg.go) append the lock clauses below to their statements and
// take the draw's lock with pgDrawLockShared. TestLocksAndRetriesInOnePlace
// refuses a lock clause or a retry loop anywhere else in the package.

import (
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
)

// The lock clauses of the Postgres-only statements.
const (
	// pgForUpdate locks the rows a statement reads.
	pgForUpdate = " FOR UPDATE"
	// pgForUpdateOfA locks the rows of the statement's table aliased a.
	pgForUpdateOfA = " FOR UPDATE OF a"
	// pgDrawLockShared is advisoryXactLock(drawLockClass, id, lockShared)
	// as one statement of a pipeline.
	pgDrawLockShared = `SELECT pg_advisory_xact_lock_shared($1, $2)`
)

// lockMode is how strongly a lock is held.
type lockMode int

const (
	// lockExclusive is FOR UPDATE, or an exclusive advisory lock.
	lockExclusive lockMode = iota
	// lockShared is FOR SHARE, or a shared advisory lock.
	lockShared
)

// lockRows is the row lock of mode as gorm clauses: none on SQLite.
func (db *DB) lockRows(mode lockMode) []clause.Expression {
	if db.dialect != Postgres {
		return nil
	}
	if mode == lockShared {
		return []clause.Expression{clause.Locking{Strength: "SHARE"}}
	}
	return []clause.Expression{clause.Locking{Strength: "UPDATE"}}
}

// lockSuffix is lockRows for raw SQL: " FOR UPDATE", " FOR SHARE" or "".
func (db *DB) lockSuffix(mode lockMode) string {
	switch {
	case db.dialect != Postgres:
		return ""
	case mode == lockShared:
		return " FOR SHARE"
	}
	return " FOR UPDATE"
}

// advisoryXactLock takes the advisory lock (class, key) in mode until tx
// ends, on Postgres; on SQLite it does nothing. The two-key form is used:
// class namespaces the locks of one kind of row and key is usually the
// row's id wrapped into int4 (two rows 2^32 apart sharing a lock only wait
// for each other a little).
func (db *DB) advisoryXactLock(tx *gorm.DB, class, key int32, mode lockMode) error {
	if db.dialect != Postgres {
		return nil
	}
	fn := "pg_advisory_xact_lock"
	if mode == lockShared {
		fn = "pg_advisory_xact_lock_shared"
	}
	return tx.Exec("SELECT "+fn+"(?, ?)", class, key).Error
}

// holdWallet creates the player's wallet if missing (at zero) and holds its
// row until tx ends, on Postgres (SQLite runs one transaction at a time). It
// is the lock every stake and deposit of the player takes before it reads
// the player's protection state (post, PlaceBatch), so a change of that
// state made under it (an exclusion, issue 22) is ordered with the money:
// a stake committed before it, or one that reads it.
func (db *DB) holdWallet(tx *gorm.DB, userID int64) error {
	ref := ledger.UserWallet(ids.UserID(userID))
	if _, err := ensureAccounts(tx, []ledger.AccountRef{ref}); err != nil {
		return err
	}
	var got []int64
	q := "SELECT id FROM ledger_accounts WHERE kind = ? AND ref = ?" + db.lockSuffix(lockExclusive)
	if err := tx.Raw(q, string(ref.Kind), ref.Ref).Scan(&got).Error; err != nil {
		return fmt.Errorf("hold wallet %s: %w", ref, err)
	}
	if len(got) != 1 {
		return fmt.Errorf("hold wallet %s: %d rows", ref, len(got))
	}
	return nil
}
