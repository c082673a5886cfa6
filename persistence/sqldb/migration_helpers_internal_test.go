package sqldb

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/pokertote/pokertote/internal/testenv"
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

// openMigrated opens o and migrates it to the end, closing it when t ends.
func openMigrated(t *testing.T, d Dialect, o Options) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, o)
	if err != nil {
		t.Fatalf("open %s: %v", d, err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate %s: %v", d, err)
	}
	return db
}

// seedDraw writes table 1 and its draw 1 (SETTLED, of the given algorithm
// version) as the migrations from 00110 on know them, through must.
func seedDraw(must func(q string, args ...any), now time.Time, version int) {
	must(`INSERT INTO tote_tables (id, name, positions, status, min_stake, max_stake, commission_bp, round1_ms, round2_ms, round3_ms, round4_ms,
		card_interval_ms, result_ms, express_share1_bp, express_share2_bp, created_at, updated_at)
		VALUES (1, 'T', 2, 'RUNNING', 10000, 100000, 300, 1, 1, 1, 1, 1, 1, 6000, 4000, ?, ?)`, now, now)
	must(`INSERT INTO tote_draws (id, table_id, number, positions, phase, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp,
		express_share1_bp, express_share2_bp, server_seed, commitment, board, opened_at)
		VALUES (1, 1, 1, 2, 'SETTLED', ?, 10000, 300, true, 1, 6000, 4000, 'seed', 'commitment', '', ?)`, version, now)
}

// onEachDialect runs fn on a fresh database of each dialect migrated to
// version; must runs a statement (written with ?) or fails the test.
func onEachDialect(t *testing.T, version int64, fn func(t *testing.T, d Dialect, db *DB, p *goose.Provider, must func(q string, args ...any))) {
	t.Helper()
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "migrate.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		t.Run(string(d), func(t *testing.T) {
			db, p := openMigratedTo(t, d, o, version)
			must := func(q string, args ...any) {
				t.Helper()
				if _, err := db.sql.ExecContext(context.Background(), rebind(d, q), args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			fn(t, d, db, p, must)
		})
	}
}
