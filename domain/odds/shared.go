package odds

import (
	"slices"
	"sync"

	"github.com/pokertote/pokertote/domain/cards"
)

// The same cards are enumerated several times in one process: the dealer
// computes a round's chances when it opens (SPEC 1.9) and then the live
// odds it publishes for the same pockets and board, and the verifier
// recomputes those chances from the published result (in the server, on
// every request to verify a draw). ComputeShared and ComputeExpressShared
// let them share one enumeration through a small process-wide cache of the
// most recent deals. A deal's result depends on its cards alone, so a
// cached answer is exactly the one a new enumeration would give.

// Cache sizes: a draw opens three rounds (three Results, one Express), so
// these hold the last dozens of draws of every table a process deals or
// verifies, in under a megabyte.
const (
	sharedResults = 192
	sharedExpress = 48
)

// ComputeShared is Compute through the process-wide cache of recent
// deals. The caller owns the Result it returns.
func ComputeShared(pockets [][2]cards.Card, board []cards.Card) (*Result, error) {
	k, ok := keyOf(pockets, board)
	if r, hit := sharedResult.get(k); ok && hit {
		return r.clone(), nil
	}
	r, err := Compute(pockets, board)
	if err != nil {
		return nil, err
	}
	if ok {
		sharedResult.put(k, r.clone())
	}
	return r, nil
}

// ComputeExpressShared is ComputeExpress on every core through the
// process-wide cache of recent deals. The caller owns the Express it
// returns.
func ComputeExpressShared(pockets [][2]cards.Card) (*Express, error) {
	k, ok := keyOf(pockets, nil)
	if x, hit := sharedExpr.get(k); ok && hit {
		c := *x
		return &c, nil
	}
	x, err := ComputeExpress(pockets, 0)
	if err != nil {
		return nil, err
	}
	if ok {
		c := *x
		sharedExpr.put(k, &c)
	}
	return x, nil
}

// ForgetShared empties the cache: a benchmark of the callers calls it to
// time the enumeration rather than a lookup.
func ForgetShared() {
	sharedResult.clear()
	sharedExpr.clear()
}

func (r *Result) clone() *Result {
	c := *r
	c.Positions = slices.Clone(r.Positions)
	return &c
}

// dealKey names a deal by its cards in the order given: the number of
// positions and of board cards, the pockets, then the board; unused bytes
// stay zero.
type dealKey [2 + 2*MaxPositions + 5]byte

// keyOf returns the deal's key; ok is false when the deal cannot have one
// (too many cards): it is then computed (and refused) without the cache.
func keyOf(pockets [][2]cards.Card, board []cards.Card) (k dealKey, ok bool) {
	if len(pockets) > MaxPositions || len(board) > 5 {
		return k, false
	}
	k[0], k[1] = byte(len(pockets)), byte(len(board))
	i := 2
	for _, p := range pockets {
		k[i], k[i+1] = byte(p[0]), byte(p[1])
		i += 2
	}
	for _, c := range board {
		k[i] = byte(c)
		i++
	}
	return k, true
}

// recent is a bounded map: when full, the entry stored longest ago goes.
type recent[V any] struct {
	mu    sync.Mutex
	size  int
	m     map[dealKey]V
	order []dealKey // ring of the stored keys, oldest at next
	next  int
}

var (
	sharedResult = &recent[*Result]{size: sharedResults}
	sharedExpr   = &recent[*Express]{size: sharedExpress}
)

func (c *recent[V]) get(k dealKey) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *recent[V]) put(k dealKey, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if c.m == nil {
		c.m = make(map[dealKey]V, c.size)
	}
	if len(c.order) < c.size {
		c.order = append(c.order, k)
	} else {
		delete(c.m, c.order[c.next])
		c.order[c.next] = k
		c.next = (c.next + 1) % c.size
	}
	c.m[k] = v
}

func (c *recent[V]) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m, c.order, c.next = nil, nil, 0
}
