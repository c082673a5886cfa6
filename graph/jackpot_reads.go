package graph

import (
	"context"

	"golang.org/x/sync/singleflight"

	"github.com/pokertote/pokertote/graph/model"
)

// jackpotReads shares a jackpot read among the callers that ask while it is
// in flight: when thousands of viewers join a table at once, each join's
// snapshot carries the jackpot, and they all take the one read under way
// instead of a database query each. A caller that arrives after a read
// finished starts a new one (singleflight forgets a finished call), so no
// answer is older than the caller's request.
type jackpotReads struct{ group singleflight.Group }

// read returns the jackpot as load reads it, joining a read in flight.
func (r *jackpotReads) read(ctx context.Context, load func(context.Context) (*model.Jackpot, error)) (*model.Jackpot, error) {
	// The read is the group's: one caller leaving must not fail it for the
	// others.
	shared := context.WithoutCancel(ctx)
	ch := r.group.DoChan("jackpot", func() (any, error) { return load(shared) })
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		jp := *res.Val.(*model.Jackpot) // each snapshot its own copy
		return &jp, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
