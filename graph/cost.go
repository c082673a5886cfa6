package graph

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/pokertote/pokertote/domain/paging"
)

// Cost is an operation's price as a number, the unit API keys are budgeted
// in (their per-minute allowance) and every query's and mutation's response
// reports in extensions.cost:
//
//   - requested, before it runs, from the document: each field of an
//     object, interface or union type costs 1 for every object it may
//     return, plus what is selected inside it; a list counts the objects
//     its first or last asks for (its own, or its connection's: edges and
//     nodes), another list one; scalars, enums and
//     introspection are free; every root field costs at least 1, so
//     aliases of a scalar root field are not free either. Fragments on
//     several types add up (an upper bound).
//   - actual, after it ran: the objects the response's data holds, so a
//     short page or a null costs less than was requested, and a list
//     without first/last shows its real size.
//
// gqlgen's complexity limit (COMPLEXITY_LIMIT_EXCEEDED) stays the guard
// against expensive documents; Cost is what a client sees and a key pays.
type Cost struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = Cost{}

func (Cost) ExtensionName() string { return "Cost" }

func (Cost) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse adds extensions.cost to a query's or mutation's
// response (a subscription's events carry none: its cost is its
// subscribe's).
func (Cost) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil || oc.Operation.Operation == ast.Subscription {
		return resp
	}
	if resp.Extensions == nil {
		resp.Extensions = map[string]any{}
	}
	resp.Extensions["cost"] = map[string]int{"requested": requestedCost(oc), "actual": objectsIn(resp.Data)}
	return resp
}

// requestedCost is the operation's requested cost (see Cost).
func requestedCost(oc *graphql.OperationContext) int {
	if oc == nil || oc.Operation == nil {
		return 0
	}
	c := coster{doc: oc.Doc, vars: oc.Variables}
	return c.set(oc.Operation.SelectionSet, true, 0, 1)
}

type coster struct {
	doc  *ast.QueryDocument
	vars map[string]any
}

// maxCostDepth bounds the walk (the depth limit refuses deeper documents
// before any cost is asked; fragments cycles are refused by validation).
const maxCostDepth = 32

func (c coster) set(set ast.SelectionSet, root bool, depth, page int) int {
	if depth > maxCostDepth {
		return 0
	}
	n := 0
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			f := c.field(s, depth, page)
			if root && !strings.HasPrefix(s.Name, "__") {
				f = max(f, 1)
			}
			n += f
		case *ast.InlineFragment:
			n += c.set(s.SelectionSet, root, depth+1, page)
		case *ast.FragmentSpread:
			frag := s.Definition
			if frag == nil && c.doc != nil {
				frag = c.doc.Fragments.ForName(s.Name)
			}
			if frag != nil {
				n += c.set(frag.SelectionSet, root, depth+1, page)
			}
		}
	}
	return n
}

// field is f's cost where page is the size its parent connection asked
// for: a list counts page objects (or its own first/last), a connection
// object (an object taking first/last) one, its lists the size it takes.
func (c coster) field(f *ast.Field, depth, page int) int {
	if strings.HasPrefix(f.Name, "__") || f.Definition == nil || len(f.SelectionSet) == 0 {
		return 0 // introspection, or a scalar or enum (no selection)
	}
	list := f.Definition.Type.Elem != nil
	size, inner := 1, 1
	if list {
		size = page
	}
	if n, ok := c.pageArg(f); ok {
		if list {
			size = n
		} else {
			inner = n
		}
	}
	return size * (1 + c.set(f.SelectionSet, false, depth+1, inner))
}

// pageArg is the first or last f asks for, if it takes one: the page the
// server reads (paging.Default) when it takes them and neither is given.
func (c coster) pageArg(f *ast.Field) (int, bool) {
	if !isConnection(f) {
		return 0, false
	}
	args := f.ArgumentMap(c.vars)
	for _, name := range []string{"first", "last"} {
		switch v := args[name].(type) {
		case int64:
			return clampPage(int(v)), true
		case int:
			return clampPage(v), true
		case json.Number:
			if n, err := strconv.Atoi(string(v)); err == nil {
				return clampPage(n), true
			}
		}
	}
	return paging.Default, true
}

func clampPage(n int) int { return min(max(n, 1), 1000) }

// objectsIn counts the JSON objects inside data (its own root object not
// counted): the objects a response returned.
func objectsIn(data []byte) int {
	n, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch b {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{':
			n++
		}
	}
	return max(n-1, 0)
}

// isConnection reports whether f pages (it takes first or last).
func isConnection(f *ast.Field) bool {
	for _, a := range f.Definition.Arguments {
		if a.Name == "first" || a.Name == "last" {
			return true
		}
	}
	return false
}
