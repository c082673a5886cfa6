package apicontract

import (
	"os"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

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
