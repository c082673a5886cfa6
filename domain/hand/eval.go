// Package hand evaluates Texas Hold'em hands: the best five of five, six or
// seven cards, as a Value that compares with < and ==, its Category, the five
// cards used and a description in words.
//
// The evaluator sums a 64-bit key per card. The low 32 bits add up rank
// weights chosen so that every multiset of up to seven ranks has its own
// sum; a perfect hash maps that sum into a table of Values. The high bits
// count cards per suit, offset so that a fifth card of one suit sets a flag
// bit; a flush is then looked up by the ranks held in that suit. Keys add,
// so a board's key can be summed once and reused for every pocket.
package hand

import (
	"fmt"
	"math/bits"

	"github.com/pokertote/pokertote/domain/cards"
)

const (
	suitShift = 32
	// suitBias starts each 4-bit suit counter at 3, so that the fifth card
	// of a suit sets the counter's top bit.
	suitBias  = 0x3333 << suitShift
	flushBits = 0x8888 << suitShift
	mask13    = 1<<13 - 1
)

// Key is the additive summary of a set of distinct cards: the zero Key is
// the empty set, and Add joins two disjoint sets. Accumulate a board's Key
// once and Add each pocket's Key to it to evaluate many hands cheaply.
type Key struct {
	sum  uint64 // rank weights (low 32 bits) and suit counters
	mask uint64 // bit 16*suit+rank per card, to read a flush's ranks
}

// KeyOf returns the Key of one card. An invalid card has the empty Key.
func KeyOf(c cards.Card) Key { return tab.keys[c] }

// KeyOfCards returns the Key of a set of distinct cards.
func KeyOfCards(cs ...cards.Card) Key {
	var k Key
	for _, c := range cs {
		k = k.Add(KeyOf(c))
	}
	return k
}

// Add returns the Key of the union of two disjoint card sets. Adding a card
// twice yields a Key that evaluates to nonsense.
func (k Key) Add(o Key) Key { return Key{k.sum + o.sum, k.mask | o.mask} }

// Len returns how many cards the Key holds.
func (k Key) Len() int { return bits.OnesCount64(k.mask) }

// RankKey identifies the ranks of the Key's cards, ignoring suits: Keys of
// the same multiset of ranks have the same RankKey, and different
// multisets of up to seven cards have different ones. Without a possible
// flush, a hand's Value depends on its RankKey alone, which lets callers
// cache results per rank pattern. Only the empty Key has RankKey 0.
func (k Key) RankKey() uint32 { return uint32(k.sum) }

// SuitedAtLeast reports whether at least n (1 to 8) of the Key's cards
// share a suit. A five-card board without three suited cards lets no
// pocket make a flush, so EvalKeyNoFlush is safe for every position.
func (k Key) SuitedAtLeast(n int) bool {
	bias := uint64(8-n) * 0x1111 << suitShift
	return (k.sum+bias)&flushBits != 0
}

// EvalKeyNoFlush is EvalKey for a Key known to hold at most four cards of
// any suit: it skips the flush test. On any other Key its Value is wrong.
func EvalKeyNoFlush(k Key) Value { return Value(tab.rank[rankSlot(uint32(k.sum))]) }

// EvalKey returns the Value of the best five cards of a Key holding five,
// six or seven distinct cards. Other Keys give meaningless Values.
func EvalKey(k Key) Value {
	s := k.sum + suitBias
	if f := s & flushBits; f != 0 {
		shift := (uint(bits.TrailingZeros64(f)) - (suitShift + 3)) * 4
		return Value(tab.flush[(k.mask>>shift)&mask13])
	}
	return Value(tab.rank[rankSlot(uint32(s))])
}

// Eval7 returns the Value of the best five of seven distinct cards. It is
// the evaluator's fast path: a few nanoseconds, no allocation. Duplicate or
// invalid cards give meaningless Values; checking them is the caller's job.
func Eval7(a, b, c, d, e, f, g cards.Card) Value {
	s := (tab.sums[a] + tab.sums[b]) + (tab.sums[c] + tab.sums[d]) +
		((tab.sums[e] + tab.sums[f]) + (tab.sums[g] + suitBias))
	if fl := s & flushBits; fl != 0 {
		// Rare path (3% of random hands): read the flush suit's ranks.
		m := tab.keys[a].mask | tab.keys[b].mask | tab.keys[c].mask |
			tab.keys[d].mask | tab.keys[e].mask | tab.keys[f].mask | tab.keys[g].mask
		shift := (uint(bits.TrailingZeros64(fl)) - (suitShift + 3)) * 4
		return Value(tab.flush[(m>>shift)&mask13])
	}
	return Value(tab.rank[rankSlot(uint32(s))])
}

// Evaluate returns the Value of the best five of 5, 6 or 7 distinct cards.
// It panics on any other number of cards; duplicate or invalid cards give
// meaningless Values, so validate input before calling it.
func Evaluate(cs []cards.Card) Value {
	switch len(cs) {
	case 7:
		return Eval7(cs[0], cs[1], cs[2], cs[3], cs[4], cs[5], cs[6])
	case 5, 6:
		return EvalKey(KeyOfCards(cs...))
	}
	panic(fmt.Sprintf("hand.Evaluate: %d cards, want 5, 6 or 7", len(cs)))
}
