package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// lagTolerantFields are the root query fields that may read from a replica
// a little behind the primary (issue 27): results and draw history, the
// verification of a finished draw, and a player's own histories. Balances
// (me), limits and everything a mutation does stay on the primary.
var lagTolerantFields = map[string]bool{
	"results": true, "draw": true, "verifyDraw": true, "auditLog": true,
	"myBets": true, "myLedger": true, "holdemHand": true, "holdemHands": true,
	"__typename": true,
}

// RecentWriters remembers which players changed something lately, so that
// their next reads see their own writes (read-your-writes).
type RecentWriters interface {
	// Wrote records that userID ran a mutation now.
	Wrote(ctx context.Context, userID int64)
	// Recent reports whether userID wrote within the window.
	Recent(ctx context.Context, userID int64) bool
}

// ReplicaReads is the operation middleware that sends lag-tolerant queries
// to the read replica: a query all of whose root fields are in
// lagTolerantFields, or any query of an affiliate's API key, gets its
// context marked by Mark, unless the viewer is a player who wrote within
// the window (their reads stay on the primary). A mutation by a signed-in
// user is recorded in Recent, before it runs and again when it answers.
type ReplicaReads struct {
	Mark   func(context.Context) context.Context
	Recent RecentWriters
}

// Middleware implements graphql.OperationMiddleware.
func (r ReplicaReads) Middleware(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil {
		return next(ctx)
	}
	v, signedIn := ViewerFrom(ctx)
	signedIn = signedIn && v.UserID != 0
	switch oc.Operation.Operation {
	case ast.Mutation:
		if !signedIn {
			return next(ctx)
		}
		r.Recent.Wrote(ctx, v.UserID)
		h := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			res := h(ctx)
			r.Recent.Wrote(ctx, v.UserID)
			return res
		}
	case ast.Query:
		_, byKey := APIKeyFrom(ctx)
		if byKey {
			return next(r.Mark(ctx))
		}
		if _, ok := firstOutside(oc.Doc, oc.Operation.SelectionSet, lagTolerantFields, 0); !ok {
			return next(ctx)
		}
		if signedIn && r.Recent.Recent(ctx, v.UserID) {
			return next(ctx)
		}
		return next(r.Mark(ctx))
	}
	return next(ctx)
}
