package odds

import (
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
	// earliest ones head the most boards, so the shares even out. There
	// are never more workers than first cards.
	last := int64(len(e.keys) - d.missing)
	workers = min(workers, int(last)+1)
	tallies := make([]*tally, workers)
	var next atomic.Int64
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

// enumerator holds the pockets' keys and the unseen cards' keys.
type enumerator struct {
	pockets []hand.Key
	keys    []hand.Key
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
		// Index loops here and in play: ranging over a slice of 16-byte
		// Keys steps an unsafe pointer, which the race detector's checkptr
		// checks on every element; the race build is what CI runs.
		keys := e.keys[from : last+1]
		for i := range keys {
			e.score(t, k.Add(keys[i]))
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
		for i := range ps {
			vs[i] = hand.EvalKey(b.Add(ps[i]))
		}
	} else {
		for i := range ps {
			vs[i] = hand.EvalKeyNoFlush(b.Add(ps[i]))
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
