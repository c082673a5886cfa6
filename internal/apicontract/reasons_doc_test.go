package apicontract

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// root is the repository, two levels up from this package.
const root = "../.."

var (
	// A reason constant of a catalogue: ReasonX = "X" (or ReasonX string = "X").
	reasonConst = regexp.MustCompile(`\bReason[A-Za-z0-9]*\s*(?:string\s*)?=\s*"([A-Z][A-Z0-9_]+)"`)
	// A reason literal: errs.R(errs.Code, "X", ...) or Reason: "X".
	reasonLiteral = regexp.MustCompile(`errs\.R\(errs\.[A-Za-z]+,\s*"([A-Z][A-Z0-9_]+)"|Reason:\s*"([A-Z][A-Z0-9_]+)"|"reason":\s*"([A-Z][A-Z0-9_]+)"`)
)

// serverReasons reads every reason the Go code can put on an error: the
// catalogues' constants and the literals given to errs.R.
func serverReasons(t *testing.T) map[string]string {
	t.Helper()
	found := map[string]string{}
	err := walkGoSources(func(path string) error {
		if strings.HasSuffix(path, "generated.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range reasonConst.FindAllSubmatch(b, -1) {
			found[string(m[1])] = path
		}
		for _, m := range reasonLiteral.FindAllSubmatch(b, -1) {
			for _, g := range m[1:] {
				if len(g) > 0 {
					found[string(g)] = path
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// walkGoSources calls fn with the path of every non-test Go file of the
// module, leaving out the web client, data and test data.
func walkGoSources(fn func(path string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "web", "data", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return fn(path)
	})
}

// gqlgenReasons are the codes gqlgen itself gives to the errors it makes
// (parse, validation, complexity, APQ), which the error presenter keeps as
// reasons (graph/errors.go).
var gqlgenReasons = []string{"GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "COMPLEXITY_LIMIT_EXCEEDED", "PERSISTED_QUERY_NOT_FOUND"}

func TestReasonsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs/frontend.md"))
	if err != nil {
		t.Fatal(err)
	}
	reasons := serverReasons(t)
	for _, r := range gqlgenReasons {
		reasons[r] = "gqlgen"
	}
	// Sanity: the scan sees the catalogues at all.
	for _, r := range []string{"INSUFFICIENT_FUNDS", "INVALID_SEQ", "TOKEN_REVOKED", "API_KEY_SCOPE", "TABLE_NAME_TAKEN"} {
		if _, ok := reasons[r]; !ok {
			t.Fatalf("the scan missed %s: %d reasons found", r, len(reasons))
		}
	}
	var missing []string
	for r, where := range reasons {
		if !strings.Contains(string(doc), "`"+r+"`") {
			missing = append(missing, r+" ("+where+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/frontend.md's reason table lacks %d reasons the server can return:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	if len(missing) == 0 {
		t.Logf("%d reasons, all documented", len(reasons))
	}
}
