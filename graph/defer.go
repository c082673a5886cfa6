package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// ReasonDeferNotSupported: the operation uses @defer, which this server
// does not deliver (its HTTP transports write one response, so a deferred
// fragment's data would silently never arrive).
const ReasonDeferNotSupported = "DEFER_NOT_SUPPORTED"

// noDefer refuses operations that use @defer. The directive is in the
// schema (gqlparser's prelude declares it and schema.graphqls says what it
// does here), so validation alone lets it through.
type noDefer struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = noDefer{}

func (noDefer) ExtensionName() string { return "NoDefer" }

func (noDefer) Validate(graphql.ExecutableSchema) error { return nil }

func (noDefer) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || !usesDefer(oc.Operation.SelectionSet, oc.Doc.Fragments, map[string]bool{}) {
		return nil
	}
	return &gqlerror.Error{
		Message:    "@defer is not supported: ask for the fields in the one response",
		Extensions: map[string]any{"code": string(errs.Invalid), "reason": ReasonDeferNotSupported},
	}
}

func usesDefer(set ast.SelectionSet, frags ast.FragmentDefinitionList, seen map[string]bool) bool {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if usesDefer(s.SelectionSet, frags, seen) {
				return true
			}
		case *ast.InlineFragment:
			if s.Directives.ForName("defer") != nil || usesDefer(s.SelectionSet, frags, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Directives.ForName("defer") != nil {
				return true
			}
			if f := frags.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				if usesDefer(f.SelectionSet, frags, seen) {
					return true
				}
			}
		}
	}
	return false
}
