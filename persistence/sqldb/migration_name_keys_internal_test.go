package sqldb

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/internal/testenv"
)

// Migration 120 turns the register's stored name keys into confusable
// skeletons: an entry stored as "ivanov ivan" before it then matches
// "Ivan Іvanov" (Cyrillic І, given name first); a document entry is left
// alone.
func TestNameKeyMigration(t *testing.T) {
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "names.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			db, p := openMigratedTo(t, d, o, 119)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			for _, q := range []string{
				`INSERT INTO exclusion_register (id, name_key, birth_date, added_at) VALUES (1, 'ivanov ivan', '1990-05-17', ?)`,
				`INSERT INTO exclusion_register (id, document_hash, added_at) VALUES (2, 'abab', ?)`,
			} {
				if _, err := db.sql.ExecContext(ctx, rebind(d, q), now); err != nil {
					t.Fatalf("seed: %v", err)
				}
			}
			if _, err := p.UpTo(ctx, 120); err != nil {
				t.Fatal(err)
			}
			got := map[int64]string{}
			rows, err := db.sql.QueryContext(ctx, `SELECT id, name_key FROM exclusion_register`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				var k string
				if err := rows.Scan(&id, &k); err != nil {
					t.Fatal(err)
				}
				got[id] = k
			}
			rows.Close()
			if want := protection.NameKey("Ivan \u0406vanov"); got[1] != want {
				t.Fatalf("entry 1 key %q, want %q", got[1], want)
			}
			if got[2] != "" {
				t.Fatalf("document entry's name key became %q", got[2])
			}
		})
	}
}
