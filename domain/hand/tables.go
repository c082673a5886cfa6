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

// eval7Tables are the tables of Eval7 (and, for hash, of seven-card Keys).
// Eval7 reads them from package variables rather than fields of a struct,
// which keeps its inlining cost within the compiler's budget: inlined, the
// benchmark loop and the odds enumeration keep their variables in registers
// instead of spilling them around a call.
type eval7Tables struct {
	// keys is keys7: one card's part of Eval7's sum, which has a layout of
	// its own (not a Key's): the rank weight times hashMul in the top 25
	// bits (as in a Key), and seven per card in a 6-bit counter of its suit
	// at bits 6*suit. A counter reaches 32, its top bit (flags7), at the
	// fifth card of a suit and stays below 64 at the seventh, so no bias is
	// added and every card reads the same table.
	keys [256]uint64
	// hash is hash7: the bucket displacements of the seven-card rank hash
	// in its first hash7Disp entries, then the Value of seven cards without
	// a flush at the perfect hash of their rank sum (see slot7), which the
	// displacements keep at or above hash7Disp. One table for both loads
	// of the lookup: Eval7 computes its address once.
	hash [1 << rank7Bits]uint16
	// suitRanks is suitRanks7: at row 6*suit+5 (the position of that suit's
	// flag in Eval7's sum), each card of the suit has its rank bit; other
	// entries are zero. Or-ing a hand's seven entries of the row its flush
	// suit names gives the ranks held in that suit.
	suitRanks [65][256]Value
	// flush is flush7: the Value of a flush by the ranks held in its suit.
	// It is indexed by a uint16 so that no bounds check is needed; only its
	// first 8192 entries are ever read.
	flush [1 << 16]Value
}

// flags7 are the counters' top bits in Eval7's sum: one is set when five or
// more cards share a suit.
const flags7 = 1<<5 | 1<<11 | 1<<17 | 1<<23

// hash7Disp is the number of bucket displacements at the start of hash7.
const hash7Disp = 1 << bucket7Bits

var (
	tab        tables
	keys7      [256]uint64
	hash7      [1 << rank7Bits]uint16
	suitRanks7 [65][256]Value
	flush7     [1 << 16]Value
)

func init() {
	e := new(eval7Tables)
	tab.build(e)
	keys7, hash7, suitRanks7, flush7 = e.keys, e.hash, e.suitRanks, e.flush
}

func (t *tables) build(e *eval7Tables) {
	for c := cards.Card(0); c < cards.NumCards; c++ {
		t.keys[c] = Key{
			sum:  rankSum(rankMult[c.Rank()]) | 1<<countShift | 1<<(suitShift+4*uint64(c.Suit())),
			mask: bits.RotateLeft64(1<<c.Rank(), laneStart(c.Suit())),
		}
		e.keys[c] = uint64(rankMult[c.Rank()]*hashMul)<<rankShift | 7<<(6*uint64(c.Suit()))
		e.suitRanks[6*int(c.Suit())+5][c] = 1 << c.Rank()
	}
	for m := range t.flush {
		if bits.OnesCount16(uint16(m)) >= 5 {
			t.flush[m] = uint16(flushValue(rankMask(m)))
			e.flush[m] = Value(t.flush[m])
		}
	}
	// The generated displacements keep every seven-card sum below the top
	// flushSlots slots; flipping the top three bits of each moves the sums
	// to hash7Disp and above instead, leaving the start for the
	// displacements themselves.
	for b, d := range disp7 {
		e.hash[b] = d ^ (1<<rank7Bits - flushSlots)
	}
	var counts [13]uint8
	t.fillRank(e, &counts, 0, 0, 0)
}

// laneStart is where a suit's 16-bit lane starts in a Key's mask: the flag
// bit of suit s in a biased sum is bit suitShift+3+4s, and a left rotation
// by four times that must bring the lane to bit 0.
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
// the same table share a slot and no seven-card sum takes one of the top
// flushSlots slots (which build turns into the start of hash7).

// slot7 is the perfect hash of a seven-card Key's sum into hash7. The low
// 16 bits of a Key's sum repeat those of its rank product, so they are the
// same as Eval7's uint16(s>>rankShift).
func slot7(sum uint64) uint16 {
	return uint16(sum) ^ hash7[sum>>(64-bucket7Bits)]
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
			i := uint16(key) ^ e.hash[key>>(64-bucket7Bits)] // slot7, before hash7 is set
			if i < hash7Disp {
				panic("hand: a seven-card rank sum hashes into the displacements; regenerate tables_gen.go")
			}
			slot = &e.hash[i]
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
