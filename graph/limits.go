package graph

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// MaxEcho is how many bytes of a message may come back to the client: an
// error about a 10 MB argument must not be 10 MB long.
const MaxEcho = 200

// LimitBody refuses a request body larger than max bytes before reading it:
// at once when Content-Length says so, or as soon as a chunked body passes
// the limit (the GraphQL handler then fails to read it, and the error
// presenter names the reason).
func LimitBody(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			fmt.Fprintf(w, `{"errors":[{"message":"the request body is larger than %d bytes","extensions":{"code":%q,"reason":%q}}]}`+"\n",
				limit, errs.Invalid, ReasonRequestTooLarge)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		next.ServeHTTP(w, r)
	})
}

// transportError rewrites the errors gqlgen's transports make about the
// request itself, which would echo the whole body and name Go types, into a
// short message with a stable reason. ok is false for other errors.
func transportError(msg string) (out, reason string, ok bool) {
	switch {
	case strings.HasPrefix(msg, "could not read request body"):
		if strings.Contains(msg, "request body too large") {
			return "the request body is too large", ReasonRequestTooLarge, true
		}
		return "the request body could not be read", ReasonMalformedRequest, true
	case strings.HasPrefix(msg, "json request body could not be decoded"):
		if strings.Contains(msg, "cannot unmarshal array") {
			return "batched operations (a JSON array) are not supported: send one operation per request", ReasonBatchNotSupported, true
		}
		return "the request body is not a JSON object of query, variables, operationName and extensions", ReasonMalformedRequest, true
	case strings.HasPrefix(msg, "invalid message received"), strings.HasPrefix(msg, "invalid json"):
		return "the message is not valid JSON", ReasonMalformedRequest, true
	}
	return "", "", false
}

// shorten cuts s to at most MaxEcho bytes (on a rune boundary), marking the
// cut; it also drops Go type names gqlgen's decoders put in messages.
func shorten(s string) string {
	if i := strings.Index(s, " into Go "); i >= 0 {
		s = s[:i]
	}
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// depthLimit refuses operations whose selections nest deeper than max.
type depthLimit struct{ max int }

// DepthLimit is the extension that refuses an operation nested deeper than
// max fields (fragments followed; introspection fields not counted, since
// introspection is allowed or refused as a whole): a cheap guard beside the
// complexity and token limits against queries that walk the graph in
// circles (bet → draw → table → currentDraw → ...).
func DepthLimit(max int) graphql.HandlerExtension { return depthLimit{max} }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (d depthLimit) MutateOperationContext(ctx context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	if d.max <= 0 || rc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(rc.Operation.SelectionSet, 0, d.max); depth > d.max {
		err := gqlerror.Errorf("the operation nests %d or more fields deep; at most %d are allowed", depth, d.max)
		err.Extensions = map[string]any{"code": string(errs.Invalid), "reason": ReasonDepthLimitExceeded}
		return err
	}
	return nil
}

// selectionDepth is the depth of set below a field at depth; it stops
// descending once past max (so fragment cycles, already refused by
// validation, could not loop either).
func selectionDepth(set ast.SelectionSet, depth, limit int) int {
	if depth > limit {
		return depth
	}
	deepest := depth
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue
			}
			d = selectionDepth(s.SelectionSet, depth+1, limit)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, depth, limit)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				d = selectionDepth(s.Definition.SelectionSet, depth, limit)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// singleRootSubscription refuses a subscription that selects more than one
// root field, counting aliases and fragments: GraphQL allows one stream
// per subscription, and gqlgen's executor would otherwise fail it as an
// internal error. A validation error, as the specification has it.
type singleRootSubscription struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = singleRootSubscription{}

func (singleRootSubscription) ExtensionName() string                   { return "SingleRootSubscription" }
func (singleRootSubscription) Validate(graphql.ExecutableSchema) error { return nil }
func (singleRootSubscription) MutateOperationContext(_ context.Context, rc *graphql.OperationContext) *gqlerror.Error {
	if rc.Operation == nil || rc.Operation.Operation != ast.Subscription {
		return nil
	}
	if n := countRootFields(rc.Doc, rc.Operation.SelectionSet, 0); n > 1 {
		err := gqlerror.Errorf("a subscription selects exactly one root field; this one selects %d (each alias counts): open one subscription per stream", n)
		err.Extensions = map[string]any{"code": string(errs.Invalid), "reason": errcode.ValidationFailed}
		return err
	}
	return nil
}
