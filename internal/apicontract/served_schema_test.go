package apicontract

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/pokertote/pokertote/graph"
)

// specDirectives are the directives of the GraphQL specification, which
// every tool knows without a declaration.
var specDirectives = map[string]bool{"include": true, "skip": true, "deprecated": true, "specifiedBy": true, "oneOf": true}

// TestServedSchemaMatchesFile: the schema the server serves (what
// introspection answers) and the schema files (schema.graphqls and graph/schema/*.graphqls) read alone (as graphql-codegen
// or graphql-js read it, with no gqlgen prelude) have the same types, fields
// and non-standard directives.
func TestServedSchemaMatchesFile(t *testing.T) {
	served := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}, Directives: graph.Directives()}).Schema()
	src, err := RepoSchemaSource(root)
	if err != nil {
		t.Fatal(err)
	}
	file, err := parser.ParseSchema(&ast.Source{Name: "schema", Input: src})
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, d := range file.Directives {
		declared[d.Name] = true
	}
	for name := range served.Directives {
		if !specDirectives[name] && !declared[name] {
			t.Errorf("the server serves @%s, which the schema files does not declare", name)
		}
	}
	for name := range declared {
		if served.Directives[name] == nil {
			t.Errorf("the schema files declare @%s, which the server does not serve", name)
		}
	}
	fromFile, err := LoadSchema("schema", src)
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range served.Types {
		f := fromFile.Types[name]
		if f == nil {
			t.Errorf("the server serves type %s, which the schema files lacks", name)
			continue
		}
		for _, fd := range d.Fields {
			if f.Fields.ForName(fd.Name) == nil {
				t.Errorf("the server serves %s.%s, which the schema files lacks", name, fd.Name)
			}
		}
	}
	for name := range fromFile.Types {
		if served.Types[name] == nil {
			t.Errorf("the schema files have type %s, which the server does not serve", name)
		}
	}
}
