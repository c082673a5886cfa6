// Package sqldbtest gives the persistence packages' tests fresh, migrated
// databases: each dialect's migrations run once per test process, and a
// test takes a copy of that template (internal/testenv/template.go),
// dropped or deleted when the test ends. A package using it calls
// testenv.Main from its TestMain so the templates are dropped at exit.
package sqldbtest

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// MigratedPostgres and MigratedSQLite are the migrated templates
// (internal/testenv/template.go): the migrations run once per test process
// and each test's database is a copy. The package's TestMain must call
// testenv.Main, which drops them after the tests.
var (
	MigratedPostgres = &testenv.PostgresTemplate{Build: func(ctx context.Context, u string) error {
		return openAndMigrate(ctx, sqldb.Options{DatabaseURL: u})
	}}
	MigratedSQLite = &testenv.SQLiteTemplate{Build: func(ctx context.Context, path string) error {
		return openAndMigrate(ctx, sqldb.Options{SQLitePath: path})
	}}
)

func openAndMigrate(ctx context.Context, o sqldb.Options) error {
	db, err := sqldb.Open(ctx, o)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	return db.SyncMarkets(ctx, parimutuel.Production())
}

// MigratedOptions returns the Options of a fresh database of dialect
// ("sqlite" or "postgres"), private to t and already migrated.
func MigratedOptions(t testing.TB, dialect string) sqldb.Options {
	t.Helper()
	switch dialect {
	case "sqlite":
		return sqldb.Options{SQLitePath: MigratedSQLite.Path(t)}
	case "postgres":
		return sqldb.Options{DatabaseURL: MigratedPostgres.Postgres(t)}
	}
	t.Fatalf("unknown dialect %q", dialect)
	return sqldb.Options{}
}

// Dialects are the databases every repository test runs against, as named
// subtests.
var Dialects = []string{"sqlite", "postgres"}

// EachDialect runs test once per dialect, as parallel subtests named by
// the dialect: each opens databases of its own (Open), so they share no
// state.
func EachDialect(t *testing.T, test func(t *testing.T, dialect string)) {
	t.Helper()
	for _, dialect := range Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			test(t, dialect)
		})
	}
}

// Open opens a fresh, migrated database of one dialect, private to t (a
// copy of the migrated SQLite file, or of the migrated Postgres template,
// dropped after t).
func Open(t testing.TB, dialect string) *sqldb.DB {
	t.Helper()
	return OpenWith(t, dialect, nil)
}

// OpenWith is Open with edit (nil for none) applied to the Options first,
// for a test that needs a setting of its own (a runtime parameter in the
// Postgres URL, say).
func OpenWith(t testing.TB, dialect string, edit func(*sqldb.Options)) *sqldb.DB {
	t.Helper()
	o := MigratedOptions(t, dialect)
	if dialect == "postgres" {
		o.MaxOpenConns = 20
	}
	if edit != nil {
		edit(&o)
	}
	ctx := context.Background()
	db, err := sqldb.Open(ctx, o)
	if err != nil {
		t.Fatalf("open %s: %v", dialect, err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate %s: %v", dialect, err)
	}
	return db
}
