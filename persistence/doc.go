// Package persistence implements the money stores over sqldb: the ledger,
// player protection, the tote, accounts and Casino Hold'em, as GORM
// repositories over Postgres or SQLite. GORM structs stay unexported here;
// they cross into the domain only through named converters.
package persistence
