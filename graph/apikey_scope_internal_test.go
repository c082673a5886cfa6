package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestAPIKeyScopeIsThePublicFields: an API key may use exactly the root
// fields anyone may (those with neither @authenticated nor @hasRole), plus
// the results an affiliate reads: an anonymous caller is never answered
// what a partner's key is refused, and a key never reaches a field that
// needs a user (me, public because it answers null to a stranger, is
// about the caller, and a key is nobody).
func TestAPIKeyScopeIsThePublicFields(t *testing.T) {
	schema := NewExecutableSchema(Config{}).Schema()
	for op, typ := range map[ast.Operation]*ast.Definition{ast.Query: schema.Query, ast.Subscription: schema.Subscription} {
		for _, f := range typ.Fields {
			public := f.Directives.ForName("authenticated") == nil && f.Directives.ForName("hasRole") == nil && f.Name != "me"
			affiliate := f.Name == "results"
			if got := apiKeyRootFields[op][f.Name]; got != (public || affiliate) {
				t.Errorf("%s.%s: public %v, in the API key's scope %v", op, f.Name, public, got)
			}
		}
	}
}
