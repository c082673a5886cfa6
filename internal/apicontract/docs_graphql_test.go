package apicontract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/pokertote/pokertote/trusteddocs"
)

// fence matches a fenced block of the given language and its body.
func fence(lang string) *regexp.Regexp {
	return regexp.MustCompile("(?s)```" + lang + "\n(.*?)```")
}

// docFiles are the documents whose examples must hold: README.md and every
// page under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, files...)
}

func schema(t *testing.T) *ast.Schema {
	t.Helper()
	s, err := LoadRepoSchema(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDocsGraphQLValidates parses every ```graphql block of README.md and
// docs/*.md and validates each operation in it against the schema.
// A block may hold several operations (each validated alone) and may use
// fragments defined in any block of the same file.
func TestDocsGraphQLValidates(t *testing.T) {
	s := schema(t)
	blocks := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(f, root+"/")
		var docs []*ast.QueryDocument
		frags := map[string]*ast.FragmentDefinition{}
		for _, m := range fence("graphql").FindAllSubmatch(b, -1) {
			blocks++
			doc, err := parser.ParseQuery(&ast.Source{Name: name, Input: string(m[1])})
			if err != nil {
				t.Errorf("%s: a graphql block does not parse: %v\n%s", name, err, m[1])
				continue
			}
			docs = append(docs, doc)
			for _, fr := range doc.Fragments {
				frags[fr.Name] = fr
			}
		}
		for _, doc := range docs {
			for _, op := range doc.Operations {
				one := &ast.QueryDocument{Operations: ast.OperationList{op}, Fragments: usedFragments(op.SelectionSet, frags)}
				if errs := validator.ValidateWithRules(s, one, nil); len(errs) > 0 {
					t.Errorf("%s: operation %q (line %d) does not validate against the schema: %v", name, op.Name, op.Position.Line, errs)
				}
			}
		}
	}
	if blocks < 10 {
		t.Fatalf("found only %d graphql blocks: the scan is broken", blocks)
	}
	t.Logf("%d graphql blocks validated", blocks)
}

// usedFragments is every fragment set reaches, directly or through others.
func usedFragments(set ast.SelectionSet, all map[string]*ast.FragmentDefinition) ast.FragmentDefinitionList {
	var out ast.FragmentDefinitionList
	seen := map[string]bool{}
	var walk func(ast.SelectionSet)
	walk = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch sel := sel.(type) {
			case *ast.Field:
				walk(sel.SelectionSet)
			case *ast.InlineFragment:
				walk(sel.SelectionSet)
			case *ast.FragmentSpread:
				if f, ok := all[sel.Name]; ok && !seen[sel.Name] {
					seen[sel.Name] = true
					out = append(out, f)
					walk(f.SelectionSet)
				}
			}
		}
	}
	walk(set)
	return out
}

// TestPossibleTypes checks docs/frontend.md's possibleTypes block (Apollo's
// cache configuration) against the schema's interfaces.
func TestPossibleTypes(t *testing.T) {
	s := schema(t)
	b, err := os.ReadFile(filepath.Join(root, "docs/frontend.md"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string][]string
	for _, m := range fence("json").FindAllSubmatch(b, -1) {
		if strings.Contains(string(m[1]), `"TableEvent"`) {
			if err := json.Unmarshal(m[1], &got); err != nil {
				t.Fatalf("the possibleTypes block is not JSON: %v", err)
			}
		}
	}
	if got == nil {
		t.Fatal("docs/frontend.md has no possibleTypes block")
	}
	want := map[string][]string{}
	for name, d := range s.Types {
		if d.Kind == ast.Interface && !strings.HasPrefix(name, "__") {
			for _, p := range s.GetPossibleTypes(d) {
				want[name] = append(want[name], p.Name)
			}
		}
	}
	for name := range want {
		w, g := slices.Sorted(slices.Values(want[name])), slices.Sorted(slices.Values(got[name]))
		if !slices.Equal(w, g) {
			t.Errorf("possibleTypes[%s] = %v, the schema has %v", name, g, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("possibleTypes names %s, which is not an interface of the schema", name)
		}
	}
}

// TestTrustedDocumentsValidate: every registered document (trusteddocs/,
// the web client's and any other team's) parses and validates against
// the schema, so a schema change that breaks a registered client's
// operation fails here, before any client sees it.
func TestTrustedDocumentsValidate(t *testing.T) {
	s := schema(t)
	m, err := trusteddocs.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	docs, sources := m.Documents()
	for id, text := range docs {
		doc, err := parser.ParseQuery(&ast.Source{Name: sources[id], Input: text})
		if err != nil {
			t.Errorf("%s %s does not parse: %v", sources[id], id, err)
			continue
		}
		if errs := validator.ValidateWithRules(s, doc, nil); len(errs) > 0 {
			t.Errorf("%s %s does not validate: %v", sources[id], id, errs)
		}
	}
}

// TestGraphiQLExamplesValidate: the example tabs GraphiQL opens with
// (app/graphiql/examples.json) validate against the schema.
func TestGraphiQLExamplesValidate(t *testing.T) {
	s := schema(t)
	b, err := os.ReadFile(filepath.Join(root, "app/graphiql/examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tabs []struct{ Query, Variables string }
	if err := json.Unmarshal(b, &tabs); err != nil {
		t.Fatal(err)
	}
	if len(tabs) < 3 {
		t.Fatalf("%d example tabs", len(tabs))
	}
	for i, tab := range tabs {
		doc, err := parser.ParseQuery(&ast.Source{Name: "examples.json", Input: tab.Query})
		if err != nil {
			t.Errorf("tab %d does not parse: %v", i, err)
			continue
		}
		if errs := validator.ValidateWithRules(s, doc, nil); len(errs) > 0 {
			t.Errorf("tab %d does not validate: %v", i, errs)
		}
		var vars map[string]any
		if err := json.Unmarshal([]byte(tab.Variables), &vars); err != nil {
			t.Errorf("tab %d's variables are not JSON: %v", i, err)
		}
	}
}
