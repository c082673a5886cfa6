package sqldb

// # Locks
//
// Every lock a repository takes goes through this file, so both dialects
// are handled in one place:
//
//   - row locks: LockRows (gorm clauses) or LockSuffix (raw SQL) append
//     FOR UPDATE or FOR SHARE on Postgres and nothing on SQLite, whose
//     transactions start IMMEDIATE on one connection and so run one at a
//     time;
//   - advisory locks: AdvisoryXactLock takes a transaction-scoped advisory
//     lock, shared or exclusive, on Postgres, and nothing on SQLite. Unlike
//     FOR SHARE, advisory locks queue fairly: once an exclusive taker waits,
//     later shared takers queue behind it.
//
// The money core's own locks (the balance rows a post updates, in
// lockOrder) are taken by the ledger; another repository that needs a
// balance held asks the ledgerdb.Repo (lockBalance). The Postgres-only fast
// paths (pgx statements prepared once) append the lock clauses below to
// their statements and take the draw's lock with PGDrawLockShared.
// TestLocksAndRetriesInOnePlace refuses a lock clause or a retry loop
// anywhere else under persistence/.

import (
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The lock clauses of the Postgres-only statements.
const (
	// PGForUpdate locks the rows a statement reads.
	PGForUpdate = " FOR UPDATE"
	// PGForUpdateOfA locks the rows of the statement's table aliased a.
	PGForUpdateOfA = " FOR UPDATE OF a"
	// PGDrawLockShared is AdvisoryXactLock(class, id, LockShared)
	// as one statement of a pipeline.
	PGDrawLockShared = `SELECT pg_advisory_xact_lock_shared($1, $2)`
)

// LockMode is how strongly a lock is held.
type LockMode int

const (
	// LockExclusive is FOR UPDATE, or an exclusive advisory lock.
	LockExclusive LockMode = iota
	// LockShared is FOR SHARE, or a shared advisory lock.
	LockShared
)

// LockRows is the row lock of mode as gorm clauses: none on SQLite.
func (db *DB) LockRows(mode LockMode) []clause.Expression {
	if db.dialect != Postgres {
		return nil
	}
	if mode == LockShared {
		return []clause.Expression{clause.Locking{Strength: "SHARE"}}
	}
	return []clause.Expression{clause.Locking{Strength: "UPDATE"}}
}

// LockSuffix is LockRows for raw SQL: " FOR UPDATE", " FOR SHARE" or "".
func (db *DB) LockSuffix(mode LockMode) string {
	switch {
	case db.dialect != Postgres:
		return ""
	case mode == LockShared:
		return " FOR SHARE"
	}
	return " FOR UPDATE"
}

// AdvisoryXactLock takes the advisory lock (class, key) in mode until tx
// ends, on Postgres; on SQLite it does nothing. The two-key form is used:
// class namespaces the locks of one kind of row and key is usually the
// row's id wrapped into int4 (two rows 2^32 apart sharing a lock only wait
// for each other a little).
func (db *DB) AdvisoryXactLock(tx *gorm.DB, class, key int32, mode LockMode) error {
	if db.dialect != Postgres {
		return nil
	}
	fn := "pg_advisory_xact_lock"
	if mode == LockShared {
		fn = "pg_advisory_xact_lock_shared"
	}
	return tx.Exec("SELECT "+fn+"(?, ?)", class, key).Error
}
