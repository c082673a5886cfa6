package graph

import (
	"context"
	"sync"

	"github.com/pokertote/pokertote/graph/model"
)

// jackpotReads shares jackpot reads among the callers that ask at the same
// time (thousands of viewers joining a table, each join's snapshot carrying
// the jackpot; the lobby's query asked by every open lobby), as a group
// commit shares a flush: at most one read is in flight, and every caller
// that arrives while it runs waits for the next read, which starts when that
// one finishes, and takes its answer. A read a caller takes therefore always
// began after the caller asked (joining the read in flight could answer
// what the database held before, say, a top-up the caller had just made):
// no answer is older than the caller's request, and the database sees at
// most one jackpot read at a time however many callers there are.
type jackpotReads struct {
	mu      sync.Mutex
	running bool
	next    *jackpotRead // the read that starts when the running one ends
}

// jackpotRead is one read and the callers waiting for it.
type jackpotRead struct {
	done chan struct{}
	val  *model.Jackpot
	err  error
}

// read returns the jackpot as load reads it in a read that began after
// read was called.
func (r *jackpotReads) read(ctx context.Context, load func(context.Context) (*model.Jackpot, error)) (*model.Jackpot, error) {
	r.mu.Lock()
	var rd *jackpotRead
	if !r.running {
		r.running = true
		rd = &jackpotRead{done: make(chan struct{})}
		// The read is the group's: one caller leaving must not fail it
		// for the others.
		go r.run(context.WithoutCancel(ctx), rd, load)
	} else {
		if r.next == nil {
			r.next = &jackpotRead{done: make(chan struct{})}
		}
		rd = r.next
	}
	r.mu.Unlock()
	select {
	case <-rd.done:
		if rd.err != nil {
			return nil, rd.err
		}
		jp := *rd.val // each caller its own copy
		return &jp, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run performs rd, then the read the callers that came meanwhile wait for,
// until none is waiting.
func (r *jackpotReads) run(ctx context.Context, rd *jackpotRead, load func(context.Context) (*model.Jackpot, error)) {
	for rd != nil {
		rd.val, rd.err = load(ctx)
		close(rd.done)
		r.mu.Lock()
		rd, r.next = r.next, nil
		if rd == nil {
			r.running = false
		}
		r.mu.Unlock()
	}
}
