package sqldb

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"

	"github.com/pokertote/pokertote/domain/protection"
)

// goMigrations are the migrations written in Go, beside each dialect's SQL
// files: the ones that need a rule (or an error message) only Go has.
func goMigrations(d Dialect) []*goose.Migration {
	ms := []*goose.Migration{
		goose.NewGoMigration(120, &goose.GoFunc{RunTx: recomputeNameKeys(d)}, nil),
		goose.NewGoMigration(420, &goose.GoFunc{RunTx: refuseUnfinishedV1Draws}, nil),
	}
	if d == SQLite {
		ms = append(ms, goose.NewGoMigration(411, &goose.GoFunc{RunTx: dropSQLiteMarketCheck}, &goose.GoFunc{RunTx: restoreSQLiteMarketCheck}))
	}
	return ms
}

// recomputeNameKeys is migration 120: the register's name keys
// become protection.NameKey's confusable skeletons. The register keeps no
// name, only its key; the old key (NFKC, lower case, spaces collapsed,
// punctuation but hyphens and apostrophes dropped) loses nothing the new
// key keeps, so the new key is computed from it.
func recomputeNameKeys(d Dialect) func(ctx context.Context, tx *sql.Tx) error {
	update := `UPDATE exclusion_register SET name_key = ? WHERE id = ?`
	if d == Postgres {
		update = `UPDATE exclusion_register SET name_key = $1 WHERE id = $2`
	}
	return func(ctx context.Context, tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, name_key FROM exclusion_register WHERE name_key <> ''`)
		if err != nil {
			return fmt.Errorf("read name keys: %w", err)
		}
		type entry struct {
			id  int64
			key string
		}
		var entries []entry
		for rows.Next() {
			var e entry
			if err := rows.Scan(&e.id, &e.key); err != nil {
				rows.Close()
				return fmt.Errorf("read name keys: %w", err)
			}
			entries = append(entries, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read name keys: %w", err)
		}
		for _, e := range entries {
			k := protection.NameKey(e.key)
			if k == e.key {
				continue
			}
			if k == "" { // a key of punctuation only: keep it matching nothing new
				continue
			}
			if _, err := tx.ExecContext(ctx, update, k, e.id); err != nil {
				return fmt.Errorf("write name key of entry %d: %w", e.id, err)
			}
		}
		return nil
	}
}
