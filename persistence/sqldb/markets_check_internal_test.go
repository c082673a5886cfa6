package sqldb

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/internal/testenv"
)

// tote_bets.market names a row of tote_markets, which the server writes
// from the market registry at start (SyncMarkets): the database names no
// market itself, and a market added to the registry needs no migration.

// marketDBs are a fresh database of each dialect, migrated to the end (not
// synced).
func marketDBs(t *testing.T) map[Dialect]*DB {
	t.Helper()
	return map[Dialect]*DB{
		SQLite:   openMigrated(t, SQLite, Options{SQLitePath: filepath.Join(t.TempDir(), "markets.db")}),
		Postgres: openMigrated(t, Postgres, Options{DatabaseURL: testenv.Postgres(t)}),
	}
}

// betOn inserts a bet of draw 1 on market m, the n-th such insert.
func betOn(db *DB, m string, n int) error {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return db.gorm.Exec(`INSERT INTO tote_bets (draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at)
		VALUES (1, 1, 7, 1, ?, '1', 10000, 'ACCEPTED', 0, ?, ?)`, m, m+string(rune('a'+n)), now).Error
}

func seedMarketDraw(t *testing.T, d Dialect, db *DB) {
	t.Helper()
	seedDraw(func(q string, args ...any) {
		t.Helper()
		if _, err := db.sql.Exec(rebind(d, q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 2)
}

func marketsTable(t *testing.T, db *DB) []string {
	t.Helper()
	var names []string
	if err := db.gorm.Raw(`SELECT name FROM tote_markets ORDER BY name`).Scan(&names).Error; err != nil {
		t.Fatal(err)
	}
	return names
}

func names(reg *parimutuel.Registry) []string {
	var out []string
	for _, m := range reg.Markets() {
		out = append(out, string(m))
	}
	return sorted(out)
}

// TestMarketsAreRegistry: in each dialect, migrated to the end, no CHECK
// names a market (the other CHECKs of tote_bets stay), tote_markets after
// SyncMarkets is the registry's markets, a bet on each is taken, a bet on
// any other name is refused as a violation of tote_bets_market (inserted
// or updated), and a market's row can be neither changed nor removed.
func TestMarketsAreRegistry(t *testing.T) {
	ctx := context.Background()
	for d, db := range marketDBs(t) {
		t.Run(string(d), func(t *testing.T) {
			var ddl string
			var err error
			if d == Postgres {
				err = db.sql.QueryRowContext(ctx, `SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), '; ') FROM pg_constraint WHERE conrelid = 'tote_bets'::regclass AND contype = 'c'`).Scan(&ddl)
			} else {
				err = db.sql.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tote_bets'`).Scan(&ddl)
			}
			if err != nil || strings.Contains(ddl, "'WIN'") || strings.Contains(ddl, "tote_bets_market") || !strings.Contains(ddl, "tote_bets_status") || !strings.Contains(ddl, "tote_bets_stake") {
				t.Fatalf("tote_bets' checks: %q, %v", ddl, err)
			}
			if err := db.SyncMarkets(ctx, parimutuel.Production()); err != nil {
				t.Fatal(err)
			}
			if got, want := marketsTable(t, db), names(parimutuel.Production()); !slices.Equal(got, want) {
				t.Fatalf("tote_markets %v, the registry %v", got, want)
			}
			seedMarketDraw(t, d, db)
			for i, m := range parimutuel.Production().Markets() {
				if err := betOn(db, string(m), i); err != nil {
					t.Errorf("a %s bet: %v", m, err)
				}
			}
			err = betOn(db, "PLACE", 0)
			if !IsCheckViolation(err) || !Violates(err, "tote_bets_market") {
				t.Errorf("a PLACE bet: %v", err)
			}
			err = db.gorm.Exec(`UPDATE tote_bets SET market = 'PLACE' WHERE market = 'WIN'`).Error
			if !Violates(err, "tote_bets_market") {
				t.Errorf("a bet moved to PLACE: %v", err)
			}
			for _, q := range []string{`DELETE FROM tote_markets WHERE name = 'EXPRESS'`, `UPDATE tote_markets SET name = 'EXPRESS_' WHERE name = 'EXPRESS'`} {
				if err := db.gorm.Exec(q).Error; !Violates(err, "tote_markets_kept") {
					t.Errorf("%s: %v", q, err)
				}
			}
			// The bets' views are as they were, and no trigger counts a
			// bet into the pool totals (the bet plan writes them: 00400).
			var totals, rated int64
			if err := db.gorm.Raw(`SELECT COUNT(*) FROM tote_pool_totals WHERE draw_id = 1`).Row().Scan(&totals); err != nil || totals != 0 {
				t.Errorf("pool totals rows %d, %v", totals, err)
			}
			if err := db.gorm.Raw(`SELECT COUNT(*) FROM tote_bets_rated`).Row().Scan(&rated); err != nil || rated != 3 {
				t.Errorf("tote_bets_rated %d, %v", rated, err)
			}
		})
	}
}

// TestNewMarketTakesOnlyItsRegistryEntry: TOP_TWO (a position finishes
// first or second, domain/tote/verify/market_example_test.go) added to a
// registry of the production markets is, once the server syncs that
// registry, a market the database takes bets on: no migration. Before the
// sync it is refused; syncing production again keeps it (its bets name
// it). graph's test of the same name shows the API side.
func TestNewMarketTakesOnlyItsRegistryEntry(t *testing.T) {
	ctx := context.Background()
	win, _ := parimutuel.Production().Lookup(parimutuel.MarketWin)
	topTwo := win // the grade does not matter to the database
	topTwo.Name, topTwo.Input = "TOP_TWO", "topTwo"
	reg, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), topTwo)...)
	if err != nil {
		t.Fatal(err)
	}
	for d, db := range marketDBs(t) {
		t.Run(string(d), func(t *testing.T) {
			seedMarketDraw(t, d, db)
			if err := betOn(db, "TOP_TWO", 0); !Violates(err, "tote_bets_market") {
				t.Fatalf("a TOP_TWO bet before the sync: %v", err)
			}
			for range 2 { // syncing is idempotent
				if err := db.SyncMarkets(ctx, reg); err != nil {
					t.Fatal(err)
				}
			}
			if err := betOn(db, "TOP_TWO", 1); err != nil {
				t.Fatalf("a TOP_TWO bet: %v", err)
			}
			if err := db.SyncMarkets(ctx, parimutuel.Production()); err != nil {
				t.Fatal(err)
			}
			if got, want := marketsTable(t, db), names(reg); !slices.Equal(got, want) {
				t.Fatalf("tote_markets %v, want %v", got, want)
			}
		})
	}
}

// TestSQLiteMarketCheckMigration: SQLite's migration 411 removes the
// market CHECK from tote_bets' definition in place and its down puts it
// back; the database stays whole (the migration checks integrity, and a
// reopened file reads the new definition).
func TestSQLiteMarketCheckMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	db, p := openMigratedTo(t, SQLite, Options{SQLitePath: path}, 411)
	ddl := func(db *DB) string {
		t.Helper()
		var s string
		if err := db.sql.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tote_bets'`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if strings.Contains(ddl(db), "tote_bets_market") {
		t.Fatalf("411 left the CHECK: %s", ddl(db))
	}
	if _, err := p.Down(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ddl(db), sqliteMarketCheck+",") {
		t.Fatalf("411 down: %s", ddl(db))
	}
	if _, err := p.UpByOne(ctx); err != nil {
		t.Fatal(err)
	}
	db.Close()
	again := openMigrated(t, SQLite, Options{SQLitePath: path})
	if strings.Contains(ddl(again), "tote_bets_market") {
		t.Fatalf("reopened: %s", ddl(again))
	}
	seedMarketDraw(t, SQLite, again)
	if err := again.SyncMarkets(ctx, parimutuel.Production()); err != nil {
		t.Fatal(err)
	}
	if err := betOn(again, "WIN", 0); err != nil {
		t.Fatal(err)
	}
	var check string
	if err := again.sql.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check %q, %v", check, err)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
