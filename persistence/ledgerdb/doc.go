// Package ledgerdb stores the ledger aggregate over sqldb: accounts,
// transfers and entries, posted one at a time or in batches, inside a
// transaction of its own or of another store's. Every post runs the
// player-protection guard of protectiondb in the money's transaction. Its
// GORM rows stay unexported; the few helpers another store's transaction
// needs (the tote's bet batch, the jackpot) are exported and say why.
package ledgerdb
