package archtest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// moneyWriters names, for each table that holds money or the player
// protection counted with it, the one file whose builder writes the SQL
// of its INSERT (or of the balance UPDATE): every other store asks that
// builder, in whatever shape it needs.
var moneyWriters = map[string]string{
	"INSERT INTO ledger_accounts":     "persistence/ledgerdb/ledgerwrite/accounts.go",
	"INSERT INTO ledger_transfers":    "persistence/ledgerdb/ledgerwrite/transfers.go",
	"INSERT INTO ledger_entries":      "persistence/ledgerdb/ledgerwrite/entries.go",
	"UPDATE ledger_accounts":          "persistence/ledgerdb/ledgerwrite/balances.go",
	"INSERT INTO protection_counters": "persistence/protectiondb/protection_write.go",
	"INSERT INTO protection_sessions": "persistence/protectiondb/protection_write.go",
	// The pool totals: an upsert adding a batch's increments (no trigger;
	// no UPDATE or DELETE of its rows anywhere else).
	"INSERT INTO tote_pool_totals": "persistence/totedb/tote_pool_totals.go",
}

// moneyStatement finds the statements of moneyWriters in SQL text.
var moneyStatement = regexp.MustCompile(`(?i)\b(INSERT\s+INTO)\s+(ledger_accounts|ledger_transfers|ledger_entries|protection_counters|protection_sessions|tote_pool_totals)\b|\b(UPDATE|DELETE\s+FROM)\s+(ledger_accounts|tote_pool_totals)\b`)

// TestOneWriterPerMoneyTable keeps the SQL of each money table's write in
// its one builder: a string literal of the code (not of the tests) that
// writes such a statement stands in the builder's file, once.
func TestOneWriterPerMoneyTable(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{} // statement -> places
	fset := token.NewFileSet()
	err = filepath.WalkDir(filepath.Join(root, "persistence"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			text, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range moneyStatement.FindAllStringSubmatch(text, -1) {
				verb, table := m[1]+m[3], m[2]+m[4]
				stmt := strings.ToUpper(strings.Join(strings.Fields(verb), " ")) + " " + strings.ToLower(table)
				found[stmt] = append(found[stmt], filepath.ToSlash(rel)+":"+strconv.Itoa(fset.Position(lit.Pos()).Line))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for stmt, file := range moneyWriters {
		places := found[stmt]
		if len(places) != 1 || !strings.HasPrefix(places[0], file+":") {
			t.Errorf("%s is written at %v; want once, in %s", stmt, places, file)
		}
	}
	for stmt, places := range found {
		if _, ok := moneyWriters[stmt]; !ok {
			t.Errorf("%s at %v: a money table written without its builder", stmt, places)
		}
	}
}
