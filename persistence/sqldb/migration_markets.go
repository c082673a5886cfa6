package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// sqliteMarketCheck is tote_bets' CHECK on its market as 00010_tote.sql
// wrote it into SQLite's schema; migration 411 removes it.
const sqliteMarketCheck = ` CONSTRAINT tote_bets_market CHECK (market IN ('WIN', 'COMBINATION', 'EXPRESS'))`

// dropSQLiteMarketCheck is SQLite's migration 411: tote_bets loses the
// CHECK listing the markets, which tote_markets and its triggers replace
// (00410_tote_markets.sql). SQLite cannot drop a constraint; rather than
// rebuild tote_bets (copying every bet, then recreating its indexes, the
// pool-total triggers and the views over it), this is the in-place edit
// SQLite documents for removing a CHECK (the ALTER TABLE page,
// "Making Other Kinds Of Table Schema Changes"): no stored row changes
// format, so the table's definition in sqlite_master is rewritten and the
// schema version raised. The definition must hold the CHECK exactly once,
// and the database must pass integrity_check afterwards; otherwise the
// migration fails and its transaction rolls back.
func dropSQLiteMarketCheck(ctx context.Context, tx *sql.Tx) error {
	return editTableSQL(ctx, tx, "tote_bets", func(ddl string) (string, error) {
		if n := strings.Count(ddl, sqliteMarketCheck); n != 1 {
			return "", fmt.Errorf("tote_bets' definition holds the market CHECK %d times, want once", n)
		}
		return strings.Replace(ddl, sqliteMarketCheck, "", 1), nil
	})
}

// restoreSQLiteMarketCheck is migration 411 down: the CHECK back, after
// its column's type.
func restoreSQLiteMarketCheck(ctx context.Context, tx *sql.Tx) error {
	const column = "market           TEXT        NOT NULL"
	return editTableSQL(ctx, tx, "tote_bets", func(ddl string) (string, error) {
		if strings.Contains(ddl, sqliteMarketCheck) || strings.Count(ddl, column+",") != 1 {
			return "", fmt.Errorf("tote_bets' market column is not as migration 411 left it")
		}
		return strings.Replace(ddl, column+",", column+sqliteMarketCheck+",", 1), nil
	})
}

// editTableSQL rewrites the stored definition of SQLite table name with
// edit, raises the schema version so every connection rereads the schema,
// and checks the database's integrity.
func editTableSQL(ctx context.Context, tx *sql.Tx, name string, edit func(ddl string) (string, error)) error {
	var ddl string
	var version int64
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&ddl); err != nil {
		return fmt.Errorf("read %s's definition: %w", name, err)
	}
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return fmt.Errorf("read the schema version: %w", err)
	}
	next, err := edit(ddl)
	if err != nil {
		return err
	}
	for _, q := range []string{
		`PRAGMA writable_schema = ON`,
		`UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?`,
		fmt.Sprintf(`PRAGMA schema_version = %d`, version+1),
		`PRAGMA writable_schema = OFF`,
	} {
		var args []any
		if strings.HasPrefix(q, "UPDATE") {
			args = []any{next, name}
		}
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("edit %s's definition: %s: %w", name, q, err)
		}
	}
	var check string
	if err := tx.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		return fmt.Errorf("after editing %s's definition, integrity_check says %q: %v", name, check, err)
	}
	return nil
}
