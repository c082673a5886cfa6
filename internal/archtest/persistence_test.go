package archtest_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// persistModule is the module path the persistence packages' imports start
// with.
const persistModule = "github.com/pokertote/pokertote/"

// persistSQL are the packages that speak SQL: the Redis package imports
// none of them, so a server's event bus never drags a database driver in.
var persistSQL = []string{"gorm.io/", "github.com/jackc/pgx", "github.com/glebarez/sqlite", "database/sql", "persistence/sqldb"}

// persistAggregates are the stores, one per aggregate, and which other
// aggregate stores each may import: only where one transaction spans
// them. Every ledger post runs the player-protection guard
// (protectiondb.Guard) in the money's transaction; protection records its
// audit entries in the change's transaction; a Casino Hold'em hand moves
// its money in the hand's transaction; the tote's bet batch writes ledger
// entries and protection counters in its own transaction and reads the
// players in the same pipeline.
var persistAggregates = map[string][]string{
	"persistence/accountdb":    nil,
	"persistence/holdemdb":     {"persistence/ledgerdb"},
	"persistence/ledgerdb":     {"persistence/protectiondb"},
	"persistence/protectiondb": {"persistence/accountdb"},
	"persistence/totedb":       {"persistence/ledgerdb", "persistence/protectiondb", "persistence/accountdb"},
	// An endpoint's change is audited in its transaction (accountdb.InsertAudit).
	"persistence/webhookdb": {"persistence/accountdb"},
	// The stop is audited in its transaction.
	"persistence/bettingstopdb": {"persistence/accountdb"},
	// A manifest's registration and revocation are audited in their
	// transaction.
	"persistence/trusteddocsdb": {"persistence/accountdb"},
}

// persistImports lists the imports of each package under persistence/
// (non-test files), keyed by its path in the module.
func persistImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(filepath.Join(root, "persistence"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			out[pkg] = append(out[pkg], strings.TrimPrefix(p, persistModule))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 4 {
		t.Fatalf("found only %d packages under persistence/", len(out))
	}
	return out
}

// TestPersistRedisImportsNoSQL keeps persistence/redisbus free of SQL.
func TestPersistRedisImportsNoSQL(t *testing.T) {
	imports := persistImports(t)
	got, ok := imports["persistence/redisbus"]
	if !ok {
		t.Fatal("persistence/redisbus not found")
	}
	for _, imp := range got {
		for _, sql := range persistSQL {
			if strings.HasPrefix(imp, sql) {
				t.Errorf("persistence/redisbus imports %s", imp)
			}
		}
	}
}

// TestPersistAggregatesStayApart lets an aggregate store import another
// only where persistAggregates says so; the tests' helper packages
// (...test) may import the stores they serve.
func TestPersistAggregatesStayApart(t *testing.T) {
	for pkg, imps := range persistImports(t) {
		if strings.HasSuffix(pkg, "test") {
			continue
		}
		allowed, isAggregate := persistAggregates[pkg]
		for _, imp := range imps {
			if _, other := persistAggregates[imp]; !other || imp == pkg {
				continue
			}
			if !isAggregate {
				t.Errorf("%s imports the store %s: only stores build on stores", pkg, imp)
			} else if !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s: not among %v", pkg, imp, allowed)
			}
		}
	}
}
