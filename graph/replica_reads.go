package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// lagTolerantFields are the root query fields that may read from a replica
// a little behind the primary: results and draw history, the
// verification of a finished draw, and a player's own histories. Balances
// (me), limits and everything a mutation does stay on the primary.
var lagTolerantFields = map[string]bool{
	"results": true, "draw": true, "verifyDraw": true, "auditLog": true, "jackpotChain": true,
	"myBets": true, "myLedger": true, "holdemHand": true, "holdemHands": true,
	"__typename": true,
}

// WritePositions remembers how far each player's writes reach, so that
// their next reads see them (read-your-writes).
type WritePositions interface {
	// Wrote records that userID's mutation is done (its commits made).
	Wrote(ctx context.Context, userID int64)
	// ReadAfter returns ctx marked for lag-tolerant reads that must see
	// userID's writes; ok is false when that cannot be told (the reads
	// then stay on the primary).
	ReadAfter(ctx context.Context, userID int64) (rctx context.Context, ok bool)
}

// ReplicaReads is the operation middleware that sends lag-tolerant queries
// to the read replica: a query all of whose root fields are in
// lagTolerantFields, or any query of an affiliate's API key, gets its
// context marked by Mark, or for a signed-in player by Writes.ReadAfter
// (the replica serves them once it has replayed their last write). A
// mutation by a signed-in user is recorded in Writes when it answers,
// before the answer leaves.
type ReplicaReads struct {
	Mark   func(context.Context) context.Context
	Writes WritePositions
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
		h := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			res := h(ctx)
			r.Writes.Wrote(ctx, v.UserID)
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
		if signedIn {
			if rctx, ok := r.Writes.ReadAfter(ctx, v.UserID); ok {
				return next(rctx)
			}
			return next(ctx)
		}
		return next(r.Mark(ctx))
	}
	return next(ctx)
}
