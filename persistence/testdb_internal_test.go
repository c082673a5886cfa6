package persistence

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

// The migrated templates: each dialect's migrations run once per test
// process, and a test that wants a fresh migrated database gets a copy
// (internal/testenv/template.go). Tests still call Migrate on their copy,
// which then finds nothing to apply; the migration tests themselves start
// from empty databases (testenv.Postgres, a new file).
var (
	migratedPostgres = &testenv.PostgresTemplate{Build: func(ctx context.Context, u string) error {
		return openAndMigrate(ctx, Options{DatabaseURL: u})
	}}
	migratedSQLite = &testenv.SQLiteTemplate{Build: func(ctx context.Context, path string) error {
		return openAndMigrate(ctx, Options{SQLitePath: path})
	}}
)

func openAndMigrate(ctx context.Context, o Options) error {
	db, err := Open(ctx, o)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Migrate(ctx)
}

// MigratedOptions returns the Options of a fresh database of dialect
// ("sqlite" or "postgres"), private to t and already migrated: a copy of
// the process's template, dropped (or deleted) when t ends. It is exported
// for the package's external tests.
func MigratedOptions(t testing.TB, dialect string) Options {
	t.Helper()
	switch dialect {
	case "sqlite":
		return Options{SQLitePath: migratedSQLite.Path(t)}
	case "postgres":
		return Options{DatabaseURL: migratedPostgres.Postgres(t)}
	}
	t.Fatalf("unknown dialect %q", dialect)
	return Options{}
}
