package apicontract

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestReasonsAreCatalogued fails on a reason written as a string literal
// where an error is made (errs.R's reason argument, errs.Error's Reason
// field) in the module's non-test code: every reason is a constant in its
// package's catalogue, so a reason is spelled once and the docs' table and
// the web client can follow it.
func TestReasonsAreCatalogued(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	err := walkGoSources(func(path string) error {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, lit := range reasonLiterals(f) {
			found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("%d reasons written as literals; name each in its package's catalogue (reasons.go):\n  %s", len(found), strings.Join(found, "\n  "))
	}
}

// reasonLiterals returns the string literals f passes as a reason: the
// second argument of errs.R (R inside package errs) and the Reason field
// of an errs.Error literal.
func reasonLiterals(f *ast.File) []*ast.BasicLit {
	inErrs := f.Name.Name == "errs"
	isErrs := func(e ast.Expr, name string) bool {
		switch e := e.(type) {
		case *ast.SelectorExpr:
			x, ok := e.X.(*ast.Ident)
			return ok && x.Name == "errs" && e.Sel.Name == name
		case *ast.Ident:
			return inErrs && e.Name == name
		}
		return false
	}
	var lits []*ast.BasicLit
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if isErrs(n.Fun, "R") && len(n.Args) > 1 {
				if lit, ok := n.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					lits = append(lits, lit)
				}
			}
		case *ast.CompositeLit:
			if !isErrs(n.Type, "Error") {
				return true
			}
			for _, el := range n.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Reason" {
					if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						lits = append(lits, lit)
					}
				}
			}
		}
		return true
	})
	return lits
}

// TestReasonLiteralScan pins the scan on a file that breaks the rule in
// each way it looks for, and on one that keeps it.
func TestReasonLiteralScan(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"errs.R literal", `package p; var e = errs.R(errs.Invalid, "BAD", "bad %d", 1)`, 1},
		{"errs.Error literal", `package p; var e = &errs.Error{Code: errs.Conflict, Reason: "TAKEN"}`, 1},
		{"R inside errs", `package errs; var e = R(Invalid, "BAD", "bad")`, 1},
		{"constants", `package p; const ReasonBad = "BAD"; var e = errs.R(errs.Invalid, ReasonBad, "bad"); var f = &errs.Error{Reason: ReasonBad}`, 0},
		{"message only", `package p; var e = errs.E(errs.Invalid, "BAD")`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), "p.go", tc.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(reasonLiterals(f)); got != tc.want {
				t.Errorf("found %d literals, want %d", got, tc.want)
			}
		})
	}
}
