package odds

import (
	"math/bits"

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
// (201,376 boards) take one or two milliseconds, a flop or turn microseconds.
func Compute(pockets [][2]cards.Card, board []cards.Card) (*Result, error) {
	d, err := parseDeal(pockets, board, 0, 3, 4, 5)
	if err != nil {
		return nil, err
	}
	e := newEnumerator(d)
	if d.missing == 5 {
		// Right after the pocket deal: flushless boards are counted per
		// rank pattern, not visited (see walkSplit).
		t := new(tally)
		e.walkSplit(t, d.unseen)
		return e.result(t), nil
	}
	t := e.newTally(boards(len(d.unseen), d.missing))
	e.walk(t, d.missing, 0, d.board)
	return e.result(t), nil
}

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
	// flushable is, per suit, how many cards of it a complete board must
	// hold for some position to make a flush: five less the most any
	// pocket holds of that suit.
	flushable hand.SuitNeeds
	// holding[s][k] is the set of positions whose pocket holds at least k
	// cards of suit s.
	holding [4][3]uint16
}

func newEnumerator(d *deal) *enumerator {
	e := newEnumeratorOf(d.pockets, make([]hand.Key, len(d.unseen)))
	for i, c := range d.unseen {
		e.keys[i] = hand.KeyOf(c)
	}
	return e
}

func newEnumeratorOf(pockets, keys []hand.Key) *enumerator {
	e := &enumerator{pockets: pockets, keys: keys}
	need := [4]int{5, 5, 5, 5}
	for s := range cards.Suit(4) {
		for i, p := range pockets {
			n := p.SuitCount(s)
			for k := 0; k <= n; k++ {
				e.holding[s][k] |= 1 << i
			}
			need[s] = min(need[s], 5-n)
		}
	}
	e.flushable = hand.NewSuitNeeds(need)
	return e
}

// mayFlush returns the set of positions that may make a flush on the
// complete board b: those holding enough cards of a suit the board has
// three or more of.
func (e *enumerator) mayFlush(b hand.Key) uint16 {
	var m uint16
	for s := range cards.Suit(4) {
		if n := b.SuitCount(s); n >= 3 {
			m |= e.holding[s][5-n]
		}
	}
	return m
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

// score tallies the complete board b. On most boards no pocket can make a
// flush (no three cards of a suit, or three of a suit no pocket holds two
// of, or four of one no pocket holds): then every hand's Value depends on
// the board's ranks alone, and the outcome is cached per rank pattern when
// the tally has a cache. On the other boards the cached flushless Values
// are reused for the positions that cannot make a flush, and only the
// others are evaluated.
func (e *enumerator) score(t *tally, b hand.Key) {
	if t.cache == nil {
		t.add(e.play(b, b.ReachesAny(e.flushable)))
		return
	}
	i := e.cached(t.cache, b)
	if !b.ReachesAny(e.flushable) {
		t.add(t.cache.tags[i].won, t.cache.tags[i].cat)
		return
	}
	t.add(e.withFlushes(&t.cache.vals[i], b))
}

// withFlushes returns the winners on the complete board b, on which some
// position may make a flush, and their category: the flushless Values vals
// of b's rank pattern, with the positions that may make a flush evaluated.
func (e *enumerator) withFlushes(vals *[MaxPositions]uint16, b hand.Key) (won uint16, cat hand.Category) {
	var v [MaxPositions]hand.Value
	for i := range v {
		v[i] = hand.Value(vals[i])
	}
	for m := e.mayFlush(b); m != 0; m &= m - 1 {
		i := bits.TrailingZeros16(m)
		v[i] = hand.EvalKey(b.Add(e.pockets[i]))
	}
	return e.decide(&v)
}

// cached returns the index of the cache entry of b's rank pattern, filling
// it if need be: each position's Value on b were no flush possible, and the
// winners and their category then.
func (e *enumerator) cached(cache *outcomeCache, b hand.Key) uint32 {
	rk := b.RankKey()
	i := (rk * 0x9e3779b1) >> (32 - cacheBits)
	if c := &cache.tags[i]; c.rankKey != rk {
		var v [MaxPositions]hand.Value
		e.values(&v, b, false)
		for j, x := range v {
			cache.vals[i][j] = uint16(x)
		}
		c.won, c.cat = e.decide(&v)
		c.rankKey = rk
	}
	return i
}

// play evaluates every position on board b and returns the set of winning
// positions and the winning hand's category. With flush false no position
// may make a flush on the board.
func (e *enumerator) play(b hand.Key, flush bool) (won uint16, cat hand.Category) {
	var v [MaxPositions]hand.Value
	e.values(&v, b, flush)
	return e.decide(&v)
}

// values sets v to every position's Value on board b; absent positions
// keep Value 0, below every hand. With flush false no position may make a
// flush on the board.
func (e *enumerator) values(v *[MaxPositions]hand.Value, b hand.Key, flush bool) {
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
}

// decide returns the set of positions holding the best of the Values v
// and its category. The fixed-size max and winner set need no loop.
func (e *enumerator) decide(v *[MaxPositions]hand.Value) (won uint16, cat hand.Category) {
	var best hand.Value
	if len(e.pockets) <= 4 {
		best = best4((*[4]hand.Value)(v[:4]))
		won = is(v[0], best) | is(v[1], best)<<1 | is(v[2], best)<<2 | is(v[3], best)<<3
	} else {
		best = best10(v)
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
