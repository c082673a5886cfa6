package graph

import (
	"context"
	"sync"

	"github.com/pokertote/pokertote/graph/model"
)

// jackpotReads shares a jackpot read among the callers that ask while it is
// in flight: when thousands of viewers join a table at once, each join's
// snapshot carries the jackpot, and they all take the one read under way
// instead of a database query each. A caller that arrives after a read
// finished starts a new one, so no answer is older than the caller's
// request.
type jackpotReads struct {
	mu   sync.Mutex
	call *jackpotCall
}

type jackpotCall struct {
	done chan struct{}
	jp   *model.Jackpot
	err  error
}

// read returns the jackpot as load reads it, joining a read in flight.
func (r *jackpotReads) read(ctx context.Context, load func(context.Context) (*model.Jackpot, error)) (*model.Jackpot, error) {
	r.mu.Lock()
	c := r.call
	if c == nil {
		c = &jackpotCall{done: make(chan struct{})}
		r.call = c
		r.mu.Unlock()
		// The read is the group's: one caller leaving must not fail it for
		// the others.
		c.jp, c.err = load(context.WithoutCancel(ctx))
		r.mu.Lock()
		r.call = nil
		r.mu.Unlock()
		close(c.done)
	} else {
		r.mu.Unlock()
	}
	select {
	case <-c.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if c.err != nil {
		return nil, c.err
	}
	jp := *c.jp // each snapshot its own copy
	return &jp, nil
}
