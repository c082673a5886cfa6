package sqldb_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// openDBs returns a migrated SQLite database and a migrated Postgres
// database, each fresh, as named subtests can range over them.
func openDBs(t *testing.T) map[string]*sqldb.DB {
	t.Helper()
	ctx := context.Background()
	out := map[string]*sqldb.DB{}
	for name, o := range map[string]sqldb.Options{
		"sqlite":   {SQLitePath: filepath.Join(t.TempDir(), "test.db")},
		"postgres": {DatabaseURL: testenv.Postgres(t)},
	} {
		db, err := sqldb.Open(ctx, o)
		if err != nil {
			t.Fatalf("open %s: %v", name, err)
		}
		t.Cleanup(func() { db.Close() })
		if err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate %s: %v", name, err)
		}
		out[name] = db
	}
	return out
}

func TestMigrateTwiceIsANoOp(t *testing.T) {
	for name, db := range openDBs(t) {
		t.Run(name, func(t *testing.T) {
			if err := db.Migrate(context.Background()); err != nil {
				t.Fatalf("second migrate: %v", err)
			}
			if err := db.Ping(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}
