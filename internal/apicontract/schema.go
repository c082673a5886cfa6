package apicontract

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// SchemaFiles lists the files that make up the API's schema, as gqlgen.yml
// names them: schema.graphqls at the repository root (the root types, the
// shared scalars and directives) and each area's file under graph/schema/,
// in name order.
func SchemaFiles(root string) ([]string, error) {
	areas, err := filepath.Glob(filepath.Join(root, "graph", "schema", "*.graphqls"))
	if err != nil {
		return nil, err
	}
	sort.Strings(areas)
	return append([]string{filepath.Join(root, "schema.graphqls")}, areas...), nil
}

// RepoSchemaSource is the whole schema as one SDL text: every file of
// SchemaFiles joined in order. Tools that take one file (and the tests that
// edit the schema as text) read this.
func RepoSchemaSource(root string) (string, error) {
	files, err := SchemaFiles(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		b.Write(src)
		b.WriteString("\n")
	}
	return b.String(), nil
}

// LoadRepoSchema reads and validates the repository's schema (every file of
// SchemaFiles) the way gqlgen does.
func LoadRepoSchema(root string) (*ast.Schema, error) {
	src, err := RepoSchemaSource(root)
	if err != nil {
		return nil, err
	}
	return LoadSchema("schema", src)
}

// LoadSchemaFile reads and validates a schema file (SDL) the way gqlgen
// does, with the GraphQL prelude (built-in scalars and directives).
func LoadSchemaFile(path string) (*ast.Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return LoadSchema(path, string(b))
}

// LoadSchema validates the schema src, named name in errors.
func LoadSchema(name, src string) (*ast.Schema, error) {
	s, gerr := gqlparser.LoadSchema(&ast.Source{Name: name, Input: src})
	if gerr != nil {
		return nil, gerr
	}
	return s, nil
}
