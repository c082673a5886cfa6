// Package hand evaluates Texas Hold'em hands: the best five of five, six or
// seven cards, as a Value that compares with < and ==, its Category, the five
// cards used and a description in words.
//
// The evaluator sums a 64-bit key per card. Rank weights, chosen so that
// every multiset of up to seven ranks has its own sum, are added
// premultiplied by a hash constant, in the top 25 bits and again in the low
// 16; a perfect hash of that product maps it into a table of Values (one
// table for seven cards, one for five or six). The bits between count
// cards per suit, offset so that a fifth card of one suit sets a flag bit,
// and count the cards; a flush is then looked up by the ranks held in that
// suit. Keys add, so a board's key can be summed once and reused for every
// pocket. Eval7 sums keys of its own, one load per card (see keys7), and
// gathers a flush suit's ranks only when its sum says there is one.
package hand

import (
	"fmt"
	"math/bits"

	"github.com/pokertote/pokertote/domain/cards"
)

// A Key's sum, from bit 0 up: the rank sum times hashMul modulo 2^16 (the
// low bits of a rank slot), three bits that take its carries, the four suit
// counters, the card count, and the rank sum times hashMul modulo 2^25 in
// the top bits, where it wraps around without disturbing the rest (the
// rank slot's bucket and RankKey).
const (
	suitShift = 19
	// suitBias starts each 4-bit suit counter (bits suitShift+4*suit up) at
	// 3, so that the fifth card of a suit sets the counter's top bit.
	suitBias  = 0x3333 << suitShift
	flushBits = 0x8888 << suitShift
	// countShift places the 4-bit card count above the suit counters.
	countShift = 35
	// rankShift places the premultiplied rank sum in the top 25 bits.
	rankShift = 39
	mask13    = 1<<13 - 1
)

// Key is the additive summary of a set of distinct cards: the zero Key is
// the empty set, and Add joins two disjoint sets. Accumulate a board's Key
// once and Add each pocket's Key to it to evaluate many hands cheaply.
type Key struct {
	sum  uint64 // rank weights times hashMul, suit counters and card count
	mask uint64 // one bit per card, in its suit's lane (see laneStart), to read a flush's ranks
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

// RankKey identifies the ranks of the Key's cards, ignoring suits: Keys of
// the same multiset of ranks have the same RankKey, and different
// multisets of up to seven cards have different ones. Without a possible
// flush, a hand's Value depends on its RankKey alone, which lets callers
// cache results per rank pattern. Only the empty Key has RankKey 0.
func (k Key) RankKey() uint32 { return uint32(k.sum >> rankShift) }

// SuitedAtLeast reports whether at least n (1 to 8) of the Key's cards
// share a suit. A five-card board without three suited cards lets no
// pocket make a flush, so EvalKeyNoFlush is safe for every position.
func (k Key) SuitedAtLeast(n int) bool {
	bias := uint64(8-n) * 0x1111 << suitShift
	return (k.sum+bias)&flushBits != 0
}

// keyBias is added to a Key's sum before its evaluation: suitBias, and one
// more card in the count, which then has its top bit set for seven cards
// (and only for seven, of five to seven).
const (
	keyBias    = suitBias + 1<<countShift
	sevenCards = 8 << countShift
)

// SuitCount returns how many of the Key's cards are of suit s.
func (k Key) SuitCount(s cards.Suit) int {
	return int(k.sum>>(suitShift+4*uint(s&3))) & 15
}

// SuitNeeds holds, per suit, a number of cards from 1 to 8; see
// Key.ReachesAny.
type SuitNeeds struct{ bias uint64 }

// NewSuitNeeds returns the SuitNeeds of need[s] cards of suit s. Needs out
// of 1 to 8 are clamped.
func NewSuitNeeds(need [4]int) SuitNeeds {
	var bias uint64
	for s, n := range need {
		bias |= uint64(8-min(max(n, 1), 8)) << (suitShift + 4*s)
	}
	return SuitNeeds{bias}
}

// ReachesAny reports whether, for some suit s, the Key holds at least
// n[s] cards of suit s. An enumeration of boards uses it to tell, from
// what the pockets hold, the boards on which no position can make a flush
// (then EvalKeyNoFlush is safe for every position).
func (k Key) ReachesAny(n SuitNeeds) bool {
	return (k.sum+n.bias)&flushBits != 0
}

// EvalKeyNoFlush is EvalKey for a Key known to hold at most four cards of
// any suit: it skips the flush test. On any other Key its Value is wrong.
func EvalKeyNoFlush(k Key) Value {
	if s := k.sum + keyBias; s&sevenCards != 0 {
		return Value(hash7[slot7(s)])
	}
	return Value(tab.rank56[slot56(k.sum)])
}

// EvalKey returns the Value of the best five cards of a Key holding five,
// six or seven distinct cards. Other Keys give meaningless Values.
func EvalKey(k Key) Value {
	s := k.sum + keyBias
	if f := s & flushBits; f != 0 {
		return Value(tab.flush[bits.RotateLeft64(k.mask, 4*bits.TrailingZeros64(f))&mask13])
	}
	if s&sevenCards != 0 {
		return Value(hash7[slot7(s)])
	}
	return Value(tab.rank56[slot56(s)])
}

// Eval7 returns the Value of the best five of seven distinct cards. It is
// the evaluator's fast path: a few nanoseconds, no allocation, and small
// enough for the compiler to inline (cost 78 of 80, go build
// -gcflags=-m=2). Duplicate or invalid cards give meaningless Values;
// checking them is the caller's job.
func Eval7(a, b, c, d, e, f, g cards.Card) (v Value) {
	// Seven single-card loads, one sum: the rank product in the top bits,
	// the suit counters at the bottom (see keys7).
	s := keys7[a] + keys7[b] + keys7[c] + keys7[d] + keys7[e] + keys7[f] + keys7[g]
	if s&flags7 == 0 {
		return Value(hash7[uint16(s>>rankShift)^hash7[s>>(64-bucket7Bits)]]) // slot7, written out
	}
	// Rare path (3% of random hands): or the ranks of the flush suit's
	// cards, the row of suitRanks7 that the flag names, into v (which
	// starts at zero). A loop, because seven loads written out would not
	// fit the inlining budget. The mask has one more bit, always clear in
	// s, so that the compiler does not share it with the test above:
	// shared, s&flags7 would take a register on the fast path.
	for _, a = range [...]cards.Card{a, b, c, d, e, f, g} {
		v |= suitRanks7[bits.TrailingZeros64(s&(flags7|1<<30))][a]
	}
	return flush7[uint16(v)]
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
