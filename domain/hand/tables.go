package hand

import (
	"math/bits"

	"github.com/pokertote/pokertote/domain/cards"
)

//go:generate go run ./internal/gentables -o tables_gen.go

// tables are the evaluator's lookup tables but Eval7's, built at package
// init in a few milliseconds from the generated rank multipliers and
// displacements.
type tables struct {
	// rank56 maps the perfect hash of a five- or six-card rank sum (see
	// slot56) to the Value of those cards without a flush.
	rank56 [1 << rank56Bits]uint16
	// flush maps the ranks held in the flush suit to the Value.
	flush [1 << 13]uint16
	// keys is each card's Key, indexed by any byte so that no bounds check
	// is needed; invalid cards have the empty Key.
	keys [256]Key
}

// eval7Tables are the tables of Eval7 (and of seven-card Keys). Eval7 reads
// them from package variables rather than fields of a struct, which keeps
// its inlining cost within the compiler's budget: inlined, the benchmark
// loop and the odds enumeration keep their variables in registers instead
// of spilling them around a call.
type eval7Tables struct {
	// rank is rank7: the Value of seven cards without a flush at the
	// perfect hash of their rank sum (see slot7), and the flush Values in
	// the top flushSlots slots, at flushSlotBase | the flush suit's ranks.
	rank [1 << rank7Bits]uint16
	// pairs is pairs7: the sum part of the Key of two cards, indexed by any
	// two bytes; invalid cards add nothing. Three pairs and one card make
	// seven cards in four loads. Only 52 of each row's entries are ever
	// read: 23 KB of its 528 KB.
	pairs [256][pairStride]uint64
	// first is first7: one card's sum plus suitBias, added once per hand.
	first [256]uint64
	// lanes is lanes7: each card's rank bit in its suit's 16-bit lane of a
	// 64-bit word. The lanes are placed so that rotating the word left by
	// four times the position of the flush suit's flag bit in a biased sum
	// brings that suit's lane to the bottom; each lane's three spare bits
	// are set, so the bottom 16 bits are the flush slot of rank7.
	lanes [256]uint64
}

var (
	tab    tables
	rank7  [1 << rank7Bits]uint16
	pairs7 [256][pairStride]uint64
	first7 [256]uint64
	lanes7 [256]uint64
)

func init() {
	e := new(eval7Tables)
	tab.build(e)
	rank7, pairs7, first7, lanes7 = e.rank, e.pairs, e.first, e.lanes
}

func (t *tables) build(e *eval7Tables) {
	var sums [256]uint64
	for c := cards.Card(0); c < cards.NumCards; c++ {
		t.keys[c] = Key{
			sum:  rankSum(rankMult[c.Rank()]) | 1<<countShift | 1<<(suitShift+4*uint64(c.Suit())),
			mask: bits.RotateLeft64(1<<c.Rank(), laneStart(c.Suit())),
		}
		sums[c] = t.keys[c].sum
		e.first[c] = sums[c] + suitBias
		e.lanes[c] = t.keys[c].mask | bits.RotateLeft64(flushSlotBase, laneStart(c.Suit()))
	}
	for a := range e.pairs {
		for b := range sums {
			e.pairs[a][b] = sums[a] + sums[b]
		}
	}
	for m := range t.flush {
		if bits.OnesCount16(uint16(m)) >= 5 {
			t.flush[m] = uint16(flushValue(rankMask(m)))
			e.rank[flushSlotBase|m] = t.flush[m]
		}
	}
	var counts [13]uint8
	t.fillRank(e, &counts, 0, 0, 0)
}

// pairStride is the length of a row of pairs7: more than any byte, and 33
// cache lines rather than 32, so that the 52 rows' first lines do not all
// fall into the same two sets of the L1 cache.
const pairStride = 264

// flushSlotBase is the first of rank7's flush slots.
const flushSlotBase = 1<<rank7Bits - flushSlots

// laneStart is where a suit's lane starts in lanes7: the flag bit of suit s
// in a biased sum is bit suitShift+3+4s, and a left rotation by four times
// that must bring the lane to bit 0.
func laneStart(s cards.Suit) int { return -4 * (suitShift + 3 + 4*int(s)) & 63 }

// rankSum places a rank sum in a Key's sum: times hashMul, modulo 2^16 in
// the low bits and modulo 2^25 in the top ones.
func rankSum(sum uint32) uint64 {
	h := sum * hashMul
	return uint64(uint16(h)) | uint64(h)<<rankShift
}

// The rank hashes. The slot is the low bits of the premultiplied rank sum
// XOR the displacement of its bucket, the top bits of the sum. The
// displacements were chosen (internal/gentables) so that no two sums of
// the same table share a slot and no seven-card sum takes a flush slot.

// slot7 is the perfect hash of a seven-card Key's sum into rank7.
func slot7(sum uint64) uint16 {
	return uint16(sum) ^ disp7[sum>>(64-bucket7Bits)]
}

// slot56 is the perfect hash of a five- or six-card Key's sum into
// tables.rank56.
func slot56(sum uint64) uint16 {
	return (uint16(sum) ^ disp56[sum>>(64-bucket56Bits)]) & (1<<rank56Bits - 1)
}

// fillRank walks every multiset of 5 to 7 ranks (at most four of each) and
// stores its Value.
func (t *tables) fillRank(e *eval7Tables, counts *[13]uint8, rank, size int, sum uint32) {
	if rank == 13 {
		if size < 5 {
			return
		}
		key := rankSum(sum)
		var slot *uint16
		if size == 7 {
			slot = &e.rank[slot7(key)]
		} else {
			slot = &t.rank56[slot56(key)]
		}
		if *slot != 0 {
			panic("hand: rank hash collision; regenerate tables_gen.go")
		}
		*slot = uint16(countsValue(counts))
		return
	}
	for n := 0; n <= 4 && size+n <= 7; n++ {
		counts[rank] = uint8(n)
		t.fillRank(e, counts, rank+1, size+n, sum+uint32(n)*rankMult[rank])
	}
	counts[rank] = 0
}
