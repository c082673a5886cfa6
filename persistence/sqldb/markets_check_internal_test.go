package sqldb

import (
	"context"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/internal/testenv"
)

// The bets table's CHECK on its market (tote_bets_market) is the one place
// the database names the markets. A market added to the registry (or
// dropped) needs a migration changing it in both dialects; these tests
// fail until there is one.

var (
	// marketCheck finds the constraint in a migration or a table's DDL.
	marketCheck = regexp.MustCompile(`(?s)CONSTRAINT\s+tote_bets_market\s+CHECK\s*\((.*?)\)\s*\)`)
	// quoted are the constraint's market names, in either dialect's
	// writing ('WIN' or 'WIN'::text).
	quoted = regexp.MustCompile(`'([A-Z_]+)'`)
)

func registryMarkets() []string {
	var out []string
	for _, m := range parimutuel.Production().Markets() {
		out = append(out, string(m))
	}
	return out
}

func namesIn(s string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestMarketCheckInMigrationsIsRegistry: the last definition of
// tote_bets_market in each dialect's migrations (in the order they run)
// lists exactly the registry's markets.
func TestMarketCheckInMigrationsIsRegistry(t *testing.T) {
	for _, d := range []Dialect{Postgres, SQLite} {
		dir := "migrations/" + string(d)
		entries, err := fs.ReadDir(migrationFiles, dir)
		if err != nil {
			t.Fatal(err)
		}
		var last, from string
		for _, e := range entries { // ReadDir sorts by name: the order goose runs them
			b, err := fs.ReadFile(migrationFiles, dir+"/"+e.Name())
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range marketCheck.FindAllStringSubmatch(string(b), -1) {
				last, from = m[1], e.Name()
			}
		}
		if from == "" {
			t.Fatalf("%s: no migration defines tote_bets_market", d)
		}
		if got := namesIn(last); !slices.Equal(sorted(got), sorted(registryMarkets())) {
			t.Errorf("%s: %s allows markets %v, the registry has %v", d, from, got, registryMarkets())
		}
	}
}

// TestMarketCheckInSchemaIsRegistry: so does the constraint of a database
// migrated to the end, in each dialect.
func TestMarketCheckInSchemaIsRegistry(t *testing.T) {
	ctx := context.Background()
	for d, o := range map[Dialect]Options{
		SQLite:   {SQLitePath: filepath.Join(t.TempDir(), "markets.db")},
		Postgres: {DatabaseURL: testenv.Postgres(t)},
	} {
		db := openMigrated(t, d, o)
		var def string
		var err error
		if d == Postgres {
			err = db.sql.QueryRowContext(ctx, `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'tote_bets_market'`).Scan(&def)
		} else {
			var ddl string
			err = db.sql.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tote_bets'`).Scan(&ddl)
			if m := marketCheck.FindStringSubmatch(ddl); m != nil {
				def = m[1]
			}
		}
		if err != nil || def == "" {
			t.Fatalf("%s: read tote_bets_market: %q, %v", d, def, err)
		}
		if got := namesIn(def); !slices.Equal(sorted(got), sorted(registryMarkets())) {
			t.Errorf("%s: tote_bets_market %q allows %v, the registry has %v", d, def, got, registryMarkets())
		}
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
