package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// noIntrospection refuses operations that ask for __schema or __type when
// introspection is off, with a clear FORBIDDEN error instead of the runtime's
// anonymous failure.
type noIntrospection struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = noIntrospection{}

func (noIntrospection) ExtensionName() string { return "NoIntrospection" }

func (noIntrospection) Validate(graphql.ExecutableSchema) error { return nil }

func (noIntrospection) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || !asksIntrospection(oc.Operation.SelectionSet, oc.Doc.Fragments, 0) {
		return nil
	}
	return &gqlerror.Error{
		Message:    "introspection is disabled on this server; the schema is published as schema.graphqls and graph/schema/*.graphqls",
		Extensions: map[string]any{"code": string(errs.Forbidden), "reason": ReasonIntrospectionDisabled},
	}
}

func asksIntrospection(set ast.SelectionSet, frags ast.FragmentDefinitionList, depth int) bool {
	if depth > 10 {
		return false
	}
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if asksIntrospection(s.SelectionSet, frags, depth+1) {
				return true
			}
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil && asksIntrospection(f.SelectionSet, frags, depth+1) {
				return true
			}
		}
	}
	return false
}
