// Package ledgerwrite is ledgerdb's writer: every row stored in
// ledger_accounts, ledger_transfers and ledger_entries, and every balance
// set, goes through a statement built here, with one builder per table
// holding that table's INSERT (insertAccounts, insertTransfers,
// insertEntries; setBalances for the balance UPDATE). Each builder offers
// the shapes its callers need, both dialects:
//
//   - GORM, ? placeholders, multi-row VALUES lists of sqldb.ChunkRows rows
//     at most (a single post is a list of one): CreateAccounts,
//     InsertTransfers, InsertEntries, SetBalances, used by ledgerdb's posts
//     and batches and by totedb's SQLite bet batch;
//   - Postgres, arrays through unnest with named parameters (pgx.NamedArgs,
//     filled by PGRows), as data-modifying CTEs a caller puts in one
//     statement with its own (WritePG): ledgerdb's Postgres batch and
//     totedb's Postgres bet batch, whose single write statement also
//     inserts the bets and moves the protection counters.
//
// It is a package of its own, below ledgerdb, because ledgerdb imports
// protectiondb (every post runs the protection guard) while protectiondb
// needs a wallet's row when it changes an exclusion: it asks for it here
// (HoldAccount) rather than writing the ledger's rows itself. It imports no
// store.
//
// No rule is written here: which transfers move, and every balance after
// each entry, come from ledger.Apply (through ledgerdb or tote.PlanBatch);
// the statements only store them. The database's CHECK constraints stay the
// last line of defence (SetBalances maps them).
package ledgerwrite
