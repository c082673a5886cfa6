package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines is the longest function body (the lines between its braces)
// allowed in the money path: STYLE.md's "a function that passes ~60 lines
// is asking to be split", held where a mistake costs money.
const maxFuncLines = 60

// moneyPackages are the packages money moves through: the ledger, the
// desk, the tote and its settlement, intake, service and outbox, the pool
// arithmetic, Casino Hold'em, player protection, and their stores. Their
// non-test files are held to maxFuncLines. A directory missing here fails
// the test (a package renamed away must be renamed here too).
var moneyPackages = []string{
	"domain/ledger",
	"domain/cashier",
	"domain/tote",
	"domain/tote/settle",
	"domain/tote/intake",
	"domain/tote/service",
	"domain/tote/outbox",
	"domain/parimutuel",
	"domain/holdem",
	"domain/protection",
	"persistence/ledgerdb",
	"persistence/totedb",
	"persistence/holdemdb",
	"persistence/protectiondb",
}

// longFuncAllowed are the functions of moneyPackages that may still pass
// maxFuncLines, as "dir/file.go:Func" (a method as Type.Method). It is
// empty and should stay so; an entry that no longer passes the limit fails
// the test so it cannot linger.
var longFuncAllowed = []string{}

// TestMoneyPathFunctionsAreShort fails on a function of a money package
// whose body is longer than maxFuncLines lines, unless longFuncAllowed
// names it.
func TestMoneyPathFunctionsAreShort(t *testing.T) {
	root := filepath.Join("..", "..") // the test runs in internal/archtest
	long := map[string]int{}
	for _, pkg := range moneyPackages {
		files, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no Go files (moneyPackages names a package that is gone)", pkg)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for name, n := range longFuncs(t, f) {
				long[pkg+"/"+filepath.Base(f)+":"+name] = n
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(long)) {
		if n := long[name]; !slices.Contains(longFuncAllowed, name) {
			t.Errorf("%s: body of %d lines, more than %d: split it into well-named functions", name, n, maxFuncLines)
		}
	}
	for _, name := range longFuncAllowed {
		if _, ok := long[name]; !ok {
			t.Errorf("%s is allowed a long body but no longer has one (or is gone): remove it from longFuncAllowed", name)
		}
	}
}

// TestLongFuncsCountsBodyLines pins what longFuncs measures: the lines
// strictly between a body's braces, methods named with their receiver's
// type.
func TestLongFuncsCountsBodyLines(t *testing.T) {
	body := func(n int) string { return strings.Repeat("\t_ = 0\n", n) }
	src := "package p\n\n" +
		"func short() {\n" + body(maxFuncLines) + "}\n\n" +
		"func long() {\n" + body(maxFuncLines+1) + "}\n\n" +
		"type T[E any] struct{}\n\n" +
		"func (t *T[E]) method() {\n" + body(maxFuncLines+1) + "}\n\n" +
		"func (T[E]) value() {\n" + body(maxFuncLines+2) + "}\n"
	f := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(f, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got := longFuncs(t, f)
	want := map[string]int{"long": maxFuncLines + 1, "T.method": maxFuncLines + 1, "T.value": maxFuncLines + 2}
	if len(got) != len(want) {
		t.Fatalf("longFuncs = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("longFuncs[%q] = %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
}

// longFuncs returns the functions of file whose body passes maxFuncLines,
// with their body's length in lines.
func longFuncs(t *testing.T, file string) map[string]int {
	t.Helper()
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	long := map[string]int{}
	for _, d := range af.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		n := fset.Position(fd.Body.Rbrace).Line - fset.Position(fd.Body.Lbrace).Line - 1
		if n > maxFuncLines {
			long[funcName(fd)] = n
		}
	}
	return long
}

// funcName is fd's name, a method's prefixed with its receiver's type.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
