package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage keeps docs/architecture.md's package
// tables true to the tree: every package of the module has a line there,
// and every package a table's first column names exists.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatalf("read the architecture page: %v", err)
	}
	var paths []string
	for _, p := range listModule(t) {
		if p.ImportPath != "" && !strings.Contains(p.ImportPath, ".") {
			paths = append(paths, p.ImportPath)
		}
	}
	missing, unknown := docsCheck(string(doc), paths)
	for _, p := range missing {
		t.Errorf("docs/architecture.md has no line for package %s", p)
	}
	for _, p := range unknown {
		t.Errorf("docs/architecture.md names package %s, which is not in the tree", p)
	}
}

// TestDocsCheckCatches shows that the check finds a package the page leaves
// out and a row naming a package that does not exist.
func TestDocsCheckCatches(t *testing.T) {
	doc := "| package | owns |\n|---|---|\n| `app` | wiring |\n| `cmd/gone` | nothing |\n\n| floor | packages |\n|---|---|\n| bottom | `money` (tiyn) |\n"
	missing, unknown := docsCheck(doc, []string{"app", "domain/money", "graph"})
	if !slices.Equal(missing, []string{"graph"}) {
		t.Errorf("missing = %v, want [graph]", missing)
	}
	if !slices.Equal(unknown, []string{"cmd/gone"}) {
		t.Errorf("unknown = %v, want [cmd/gone]", unknown)
	}
}

var (
	docsCode     = regexp.MustCompile("`([a-z0-9_/-]+)`")
	docsFirstCol = regexp.MustCompile("(?m)^\\| ((?:`[a-z0-9_/-]+`(?:, )?)+) \\|")
)

// docsCheck returns the packages (module-relative paths) that doc never
// names in backquotes, and the paths a table row's first column names that
// are not packages. A domain package may be named without its "domain/"
// prefix, as the floors table does.
func docsCheck(doc string, packages []string) (missing, unknown []string) {
	named := map[string]bool{}
	for _, m := range docsCode.FindAllStringSubmatch(doc, -1) {
		named[m[1]] = true
		named["domain/"+m[1]] = true
	}
	for _, p := range packages {
		if !named[p] {
			missing = append(missing, p)
		}
	}
	for _, row := range docsFirstCol.FindAllStringSubmatch(doc, -1) {
		for _, m := range docsCode.FindAllStringSubmatch(row[1], -1) {
			if !slices.Contains(packages, m[1]) && !slices.Contains(packages, "domain/"+m[1]) {
				unknown = append(unknown, m[1])
			}
		}
	}
	return missing, unknown
}
