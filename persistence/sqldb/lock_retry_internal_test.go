package sqldb

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLocksAndRetriesInOnePlace keeps lock and retry SQL in lock.go and
// retry.go (issue 24): no string literal elsewhere in persistence/'s code
// holds a row lock clause (FOR UPDATE, FOR SHARE, ...) or an advisory lock,
// and no function elsewhere decides on a serialization failure to run
// again (only retry does; errors.go defines the test).
func TestLocksAndRetriesInOnePlace(t *testing.T) {
	lockSQL := regexp.MustCompile(`(?i)\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE|KEY\s+SHARE)\b|pg_(try_)?advisory`)
	var files []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && name != filepath.Join("..", "sqldb", "lock.go") && lockSQL.MatchString(n.Value) {
					t.Errorf("%s: lock SQL outside lock.go: %s", fset.Position(n.Pos()), n.Value)
				}
			case *ast.Ident:
				switch n.Name {
				case "IsSerializationFailure", "TxAttempts", "txRetryBackoff":
					if name != filepath.Join("..", "sqldb", "retry.go") && name != filepath.Join("..", "sqldb", "errors.go") {
						t.Errorf("%s: %s outside retry.go: retry through retry or RetryTx", fset.Position(n.Pos()), n.Name)
					}
				}
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("only %d files checked: run from the package's directory", checked)
	}
}
