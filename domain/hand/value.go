package hand

import (
	"math/bits"

	"github.com/pokertote/pokertote/domain/cards"
)

// Value is the strength of a hand's best five cards: higher is better and
// equal Values tie. Hands of 5, 6 and 7 cards share one scale. The zero
// Value is below every hand, a handy "no hand yet".
//
// A Value is the Category in the bits from 12 up and, below, one plus the
// hand's order within its category.
type Value uint32

const catShift = 12

// Category returns the kind of hand the Value stands for.
func (v Value) Category() Category { return Category(v >> catShift) }

func makeValue(c Category, index int) Value {
	return Value(uint32(c)<<catShift | uint32(index+1))
}

func (v Value) index() int { return int(v&(1<<catShift-1)) - 1 }

// rankMask holds one bit per rank, bit r for cards.Rank r.
type rankMask uint16

const allRanks rankMask = 1<<13 - 1

// binom[n][k] is n choose k for the colexicographic index of rank sets.
var binom = func() (t [14][6]int) {
	for n := range t {
		t[n][0] = 1
		for k := 1; k < 6 && k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

// colex numbers the k-subsets of ranks so that comparing numbers compares
// the sets highest rank first, as kickers are compared.
func colex(m rankMask) int {
	idx, i := 0, 1
	for ; m != 0; m &= m - 1 {
		idx += binom[bits.TrailingZeros16(uint16(m))][i]
		i++
	}
	return idx
}

// uncolex is the inverse of colex for sets of k ranks.
func uncolex(idx, k int) rankMask {
	var m rankMask
	for i := k; i >= 1; i-- {
		r := 12
		for binom[r][i] > idx {
			r--
		}
		m |= 1 << r
		idx -= binom[r][i]
	}
	return m
}

// squeeze removes rank r's bit position, so that the ranks other than r
// number 0..11.
func squeeze(m rankMask, r int) rankMask { return m&(1<<r-1) | m>>(r+1)<<r }

// unsqueeze is the inverse of squeeze: it inserts an empty bit at r.
func unsqueeze(m rankMask, r int) rankMask { return m&(1<<r-1) | m>>r<<(r+1) }

// topRanks keeps the n highest ranks of m.
func topRanks(m rankMask, n int) rankMask {
	for bits.OnesCount16(uint16(m)) > n {
		m &= m - 1
	}
	return m
}

func highest(m rankMask) int { return bits.Len16(uint16(m)) - 1 }

// straightTop returns the top rank of the best straight in m, or -1. The
// wheel A-2-3-4-5 counts as five high.
func straightTop(m rankMask) int {
	run := m & (m << 1) & (m << 2) & (m << 3) & (m << 4) & allRanks
	if run != 0 {
		return highest(run)
	}
	const wheel = 1<<cards.Ace | 1<<cards.Two | 1<<cards.Three | 1<<cards.Four | 1<<cards.Five
	if m&wheel == wheel {
		return int(cards.Five)
	}
	return -1
}

// flushValue is the Value of a flush whose suit holds the ranks in m (five
// to seven of them).
func flushValue(m rankMask) Value {
	switch top := straightTop(m); {
	case top == int(cards.Ace):
		return makeValue(RoyalFlush, 0)
	case top >= 0:
		return makeValue(StraightFlush, top-int(cards.Five))
	}
	return makeValue(Flush, colex(topRanks(m, 5)))
}

// countsValue is the Value of five to seven cards that hold no flush, given
// how many cards of each rank there are.
func countsValue(counts *[13]uint8) Value {
	var present, pairs, trips rankMask
	quad := -1
	for r, n := range counts {
		if n > 0 {
			present |= 1 << r
		}
		switch n {
		case 4:
			quad = r
		case 3:
			trips |= 1 << r
		case 2:
			pairs |= 1 << r
		}
	}
	if quad >= 0 {
		kicker := highest(squeeze(present, quad))
		return makeValue(FourOfAKind, quad*12+kicker)
	}
	if trips != 0 {
		t := highest(trips)
		if rest := squeeze(trips|pairs, t); rest != 0 {
			return makeValue(FullHouse, t*12+highest(rest))
		}
	}
	if top := straightTop(present); top >= 0 {
		return makeValue(Straight, top-int(cards.Five))
	}
	if trips != 0 {
		t := highest(trips)
		return makeValue(ThreeOfAKind, t*66+colex(topRanks(squeeze(present, t), 2)))
	}
	if bits.OnesCount16(uint16(pairs)) >= 2 {
		two := topRanks(pairs, 2)
		kicker := highest(present &^ two)
		lo, hi := bits.TrailingZeros16(uint16(two)), highest(two)
		return makeValue(TwoPair, colex(two)*11+kicker-b2i(kicker > lo)-b2i(kicker > hi))
	}
	if pairs != 0 {
		p := highest(pairs)
		return makeValue(Pair, p*220+colex(topRanks(squeeze(present, p), 3)))
	}
	return makeValue(HighCard, colex(topRanks(present, 5)))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ranks returns the ranks of the Value's best five cards in display order:
// the biggest group first, then kickers high to low; a wheel as 5-4-3-2-A.
func (v Value) ranks() [5]cards.Rank {
	idx := v.index()
	switch v.Category() {
	case HighCard, Flush:
		return spread(uncolex(idx, 5))
	case Pair:
		p := idx / 220
		k := spread(unsqueeze(uncolex(idx%220, 3), p))
		return group(p, 2, k)
	case TwoPair:
		two := uncolex(idx/11, 2)
		lo, hi := bits.TrailingZeros16(uint16(two)), highest(two)
		k := idx % 11
		if k >= lo {
			k++
		}
		if k >= hi {
			k++
		}
		return [5]cards.Rank{rk(hi), rk(hi), rk(lo), rk(lo), rk(k)}
	case ThreeOfAKind:
		t := idx / 66
		return group(t, 3, spread(unsqueeze(uncolex(idx%66, 2), t)))
	case Straight, StraightFlush:
		return straightRanks(idx + int(cards.Five))
	case RoyalFlush:
		return straightRanks(int(cards.Ace))
	case FullHouse, FourOfAKind:
		n := 3
		if v.Category() == FourOfAKind {
			n = 4
		}
		hi, lo := idx/12, idx%12
		if lo >= hi {
			lo++
		}
		return group(hi, n, [5]cards.Rank{rk(lo), rk(lo)})
	}
	return [5]cards.Rank{}
}

func rk(r int) cards.Rank { return cards.Rank(r) }

// spread lists the ranks of m high to low.
func spread(m rankMask) [5]cards.Rank {
	var out [5]cards.Rank
	for i := 0; m != 0 && i < 5; i++ {
		h := highest(m)
		out[i] = rk(h)
		m &^= 1 << h
	}
	return out
}

// group puts n cards of rank r first, then the leading kickers.
func group(r, n int, kickers [5]cards.Rank) [5]cards.Rank {
	var out [5]cards.Rank
	for i := range out {
		if i < n {
			out[i] = rk(r)
		} else {
			out[i] = kickers[i-n]
		}
	}
	return out
}

func straightRanks(top int) [5]cards.Rank {
	var out [5]cards.Rank
	for i := range out {
		r := top - i
		if r < 0 {
			r = int(cards.Ace)
		}
		out[i] = rk(r)
	}
	return out
}
