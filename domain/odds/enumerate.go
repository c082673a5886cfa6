package odds

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// Compute enumerates every completion of the board and tallies, per
// position, the boards won alone, tied and lost, and the winning hand's
// category. pockets holds 2..10 positions' two cards; board holds the
// community cards known so far: 0 (right after the pocket deal), 3 (flop),
// 4 (turn) or 5 (river, one board: the final result). Wrong counts, invalid
// or duplicate cards are errs.Invalid.
//
// It runs on the calling goroutine: ten positions right after the deal
// (201,376 boards) take a few milliseconds, a flop or turn microseconds.
func Compute(pockets [][2]cards.Card, board []cards.Card) (*Result, error) {
	d, err := parseDeal(pockets, board, 0, 3, 4, 5)
	if err != nil {
		return nil, err
	}
	e := newEnumerator(d)
	t := e.newTally(boards(len(d.unseen), d.missing))
	e.walk(t, d.missing, 0, d.board)
	return e.result(t), nil
}

// ComputeParallel is Compute spread over workers goroutines (all available
// cores when workers <= 0). The result is identical to Compute's. A flop,
// turn or river has too few boards to be worth sharing (starting the
// goroutines would cost more) and runs on the calling goroutine.
func ComputeParallel(pockets [][2]cards.Card, board []cards.Card, workers int) (*Result, error) {
	d, err := parseDeal(pockets, board, 0, 3, 4, 5)
	if err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := newEnumerator(d)
	n := boards(len(d.unseen), d.missing)
	if workers == 1 || n < minParallelBoards {
		t := e.newTally(n)
		e.walk(t, d.missing, 0, d.board)
		return e.result(t), nil
	}
	// Workers take the first board card in turn, lowest first: the
	// earliest ones head the most boards, so the shares even out.
	tallies := make([]*tally, workers)
	var next atomic.Int64
	last := int64(len(e.keys) - d.missing)
	var wg sync.WaitGroup
	for w := range tallies {
		t := e.newTally(n)
		tallies[w] = t
		wg.Go(func() {
			for i := next.Add(1) - 1; i <= last; i = next.Add(1) - 1 {
				e.walk(t, d.missing-1, int(i)+1, d.board.Add(e.keys[i]))
			}
		})
	}
	wg.Wait()
	for w := 1; w < workers; w++ {
		tallies[0].merge(tallies[w])
	}
	return e.result(tallies[0]), nil
}

// minParallelBoards is the enumeration size below which ComputeParallel
// stays on one goroutine.
const minParallelBoards = 20_000

// boards returns n choose k, the number of boards to enumerate.
func boards(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// tally counts boards by the set of winning positions and by the winning
// hand's category; per-position figures are derived from it at the end.
type tally struct {
	winners [1 << MaxPositions]int64
	cats    [16]int64 // indexed by hand.Category, padded for bounds checks
	cache   *outcomeCache
	_       [64]byte // keeps workers' tallies off each other's cache lines
}

func (t *tally) add(won uint16, cat hand.Category) {
	t.winners[won&(1<<MaxPositions-1)]++
	t.cats[cat&15]++
}

// cacheBits sizes the outcome cache: 8,192 entries for the 6,175 rank
// patterns of five board cards.
const cacheBits = 13

// outcomeCache remembers, per rank pattern of a flushless board, who won
// and with what; a direct-mapped table whose tag is the full RankKey, so
// a collision only costs a recomputation. RankKey 0 never occurs for five
// cards, so the zero entry is empty.
type outcomeCache [1 << cacheBits]struct {
	rankKey uint32
	won     uint16
	cat     hand.Category
}

// minCacheBoards is the enumeration size from which the outcome cache pays
// for its 64 KB.
const minCacheBoards = 10_000

func (t *tally) merge(o *tally) {
	for i, n := range o.winners {
		t.winners[i] += n
	}
	for i, n := range o.cats {
		t.cats[i] += n
	}
}

// enumerator holds the pockets' keys and the unseen cards' keys.
type enumerator struct {
	pockets []hand.Key
	keys    []hand.Key
}

// newTally returns an empty tally for an enumeration of n boards, with an
// outcome cache when n is large enough to profit from one.
func (e *enumerator) newTally(n int) *tally {
	t := new(tally)
	if n >= minCacheBoards {
		t.cache = new(outcomeCache)
	}
	return t
}

func newEnumerator(d *deal) *enumerator {
	e := &enumerator{pockets: d.pockets, keys: make([]hand.Key, len(d.unseen))}
	for i, c := range d.unseen {
		e.keys[i] = hand.KeyOf(c)
	}
	return e
}

// walk adds need more cards, each above the last one added, to the board
// key k, and scores every complete board. Keys accumulate level by level,
// so each board costs one Add and one lookup per position.
func (e *enumerator) walk(t *tally, need, from int, k hand.Key) {
	last := len(e.keys) - need
	switch need {
	case 0:
		e.score(t, k)
	case 1:
		for _, c := range e.keys[from : last+1] {
			e.score(t, k.Add(c))
		}
	default:
		for i := from; i <= last; i++ {
			e.walk(t, need-1, i+1, k.Add(e.keys[i]))
		}
	}
}

// score tallies the complete board b. Most boards (about 63%) hold no
// three cards of a suit: then no pocket can make a flush, every hand's
// Value depends on the board's ranks alone, and the outcome is cached per
// rank pattern when the tally has a cache.
func (e *enumerator) score(t *tally, b hand.Key) {
	if b.SuitedAtLeast(3) {
		t.add(e.play(b, true))
		return
	}
	if t.cache == nil {
		t.add(e.play(b, false))
		return
	}
	rk := b.RankKey()
	c := &t.cache[(rk*0x9e3779b1)>>(32-cacheBits)]
	if c.rankKey != rk {
		c.won, c.cat = e.play(b, false)
		c.rankKey = rk
	}
	t.add(c.won, c.cat)
}

// play evaluates every position on board b and returns the set of winning
// positions and the winning hand's category. With flush false the board
// must hold no three cards of a suit.
func (e *enumerator) play(b hand.Key, flush bool) (won uint16, cat hand.Category) {
	// Absent positions keep Value 0, below every hand, so the fixed-size
	// max and winner set below need no loop.
	var v [MaxPositions]hand.Value
	ps := e.pockets
	vs := v[:len(ps)]
	if flush {
		for i, p := range ps {
			vs[i] = hand.EvalKey(b.Add(p))
		}
	} else {
		for i, p := range ps {
			vs[i] = hand.EvalKeyNoFlush(b.Add(p))
		}
	}
	var best hand.Value
	if len(ps) <= 4 {
		best = best4((*[4]hand.Value)(v[:4]))
		won = is(v[0], best) | is(v[1], best)<<1 | is(v[2], best)<<2 | is(v[3], best)<<3
	} else {
		best = best10(&v)
		won = is(v[0], best) | is(v[1], best)<<1 | is(v[2], best)<<2 | is(v[3], best)<<3 | is(v[4], best)<<4 |
			is(v[5], best)<<5 | is(v[6], best)<<6 | is(v[7], best)<<7 | is(v[8], best)<<8 | is(v[9], best)<<9
	}
	return won, best.Category()
}

// best10 is the highest of ten Values, as a tree of conditional moves
// (kept out of line: inlined into score, the compiler emits branches).
//
//go:noinline
func best10(v *[MaxPositions]hand.Value) hand.Value {
	return hi(hi(hi(v[0], v[1]), hi(v[2], v[3])), hi(hi(hi(v[4], v[5]), hi(v[6], v[7])), hi(v[8], v[9])))
}

// best4 is best10 for tables of up to four positions.
//
//go:noinline
func best4(v *[4]hand.Value) hand.Value {
	return hi(hi(v[0], v[1]), hi(v[2], v[3]))
}

// hi is max(a, b) written so that the compiler emits a conditional move:
// which position leads is random, so a branch would mispredict.
func hi(a, b hand.Value) hand.Value {
	m := b
	if a > b {
		m = a
	}
	return m
}

// is returns 1 when a == b, else 0, without a branch.
func is(a, b hand.Value) uint16 { return uint16((uint64(a^b) - 1) >> 63) }

// result turns a tally into per-position figures.
func (e *enumerator) result(t *tally) *Result {
	r := &Result{Positions: make([]Position, len(e.pockets))}
	for c := range r.Categories {
		r.Categories[c] = t.cats[c]
		r.Boards += t.cats[c]
	}
	for set, n := range t.winners[:1<<len(e.pockets)] {
		if n == 0 {
			continue
		}
		k := bits.OnesCount(uint(set))
		for m := uint(set); m != 0; m &= m - 1 {
			p := &r.Positions[bits.TrailingZeros(m)]
			if k == 1 {
				p.Wins += n
			} else {
				p.Ties += n
				p.TiesBy[k] += n
			}
			p.EquityUnits += n * int64(EquityUnit/k)
		}
	}
	for i := range r.Positions {
		p := &r.Positions[i]
		p.Boards = r.Boards
		p.Losses = r.Boards - p.Wins - p.Ties
	}
	return r
}
