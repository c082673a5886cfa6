// Package totedb stores the tote aggregate over sqldb: tables, draws,
// bets, events and leases, and the bet batch that writes bets, ledger
// entries and protection counters in one transaction (over ledgerdb and
// protectiondb). Its GORM rows stay unexported.
package totedb
