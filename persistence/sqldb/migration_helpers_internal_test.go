package sqldb

import (
	"context"
	"io/fs"
	"testing"

	"github.com/pressly/goose/v3"
)

// openMigratedTo opens a database of dialect d with o and migrates it up to
// version only, returning it with the goose provider that moves it on (the
// migration tests seed rows at one version and check them at the next).
func openMigratedTo(t *testing.T, d Dialect, o Options, version int64) (*DB, *goose.Provider) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sub, err := fs.Sub(migrationFiles, "migrations/"+string(d))
	if err != nil {
		t.Fatal(err)
	}
	gd := goose.DialectSQLite3
	if d == Postgres {
		gd = goose.DialectPostgres
	}
	p, err := goose.NewProvider(gd, db.sql, sub, goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(goMigrations(d)...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatal(err)
	}
	return db, p
}
