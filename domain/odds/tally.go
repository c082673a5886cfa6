package odds

import (
	"math/bits"

	"github.com/pokertote/pokertote/domain/hand"
)

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

// outcomeCache remembers, per rank pattern of a board, who won and with
// what were no flush possible, and each position's Value then; a
// direct-mapped table whose tag is the full RankKey, so a collision only
// costs a recomputation. RankKey 0 never occurs for five cards, so the
// zero entry is empty. The Values, read only on boards where some position
// may make a flush, are kept apart so that the tags stay compact (64 KB).
type outcomeCache struct {
	tags [1 << cacheBits]outcome
	vals [1 << cacheBits][MaxPositions]uint16 // Values fit 16 bits: the category from bit 12 up is at most 9
}

type outcome struct {
	rankKey uint32
	won     uint16
	cat     hand.Category
}

// minCacheBoards is the enumeration size from which the outcome cache pays
// for its 224 KB.
const minCacheBoards = 10_000

// newTally returns an empty tally for an enumeration of n boards, with an
// outcome cache when n is large enough to profit from one.
func (e *enumerator) newTally(n int) *tally {
	t := new(tally)
	if n >= minCacheBoards {
		t.cache = new(outcomeCache)
	}
	return t
}

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
