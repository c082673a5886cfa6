package hand

import (
	"math/bits"

	"github.com/pokertote/pokertote/domain/cards"
)

//go:generate go run ./internal/gentables -o tables_gen.go

// tables are the evaluator's lookup tables: about 285 KB, 535 KB with the
// generated rowOffsets. They are built at package init, in a few
// milliseconds, from the generated rank multipliers and row offsets.
type tables struct {
	// rank maps the perfect hash of a rank sum (see rankSlot) to the Value
	// of five to seven cards without a flush.
	rank [1 << rankTableBits]uint16
	// flush maps the ranks held in the flush suit to the Value.
	flush [1 << 13]uint16
	// keys is each card's Key, indexed by any byte so that no bounds check
	// is needed; invalid cards have the empty Key.
	keys [256]Key
	// sums is the sum part of keys indexed by any byte, so Eval7 needs
	// neither masks nor bounds checks; invalid cards add nothing.
	sums [256]uint64
}

var tab tables

func init() { tab.build() }

func (t *tables) build() {
	for c := cards.Card(0); c < cards.NumCards; c++ {
		t.keys[c] = Key{
			sum:  1<<(suitShift+4*uint64(c.Suit())) | uint64(rankMult[c.Rank()]),
			mask: 1 << (16*uint64(c.Suit()) + uint64(c.Rank())),
		}
		t.sums[c] = t.keys[c].sum
	}
	for m := range t.flush {
		if bits.OnesCount16(uint16(m)) >= 5 {
			t.flush[m] = uint16(flushValue(rankMask(m)))
		}
	}
	var counts [13]uint8
	t.fillRank(&counts, 0, 0, 0)
}

// rankSlot is the perfect hash of a rank sum into tables.rank.
func rankSlot(sum uint32) uint32 {
	return (sum + rowOffsets[(sum>>rowShift)&(1<<rowBits-1)]) & (1<<rankTableBits - 1)
}

// fillRank walks every multiset of 5 to 7 ranks (at most four of each) and
// stores its Value.
func (t *tables) fillRank(counts *[13]uint8, rank, size int, sum uint32) {
	if rank == 13 {
		if size < 5 {
			return
		}
		slot := rankSlot(sum)
		if t.rank[slot] != 0 {
			panic("hand: rank hash collision; regenerate tables_gen.go")
		}
		t.rank[slot] = uint16(countsValue(counts))
		return
	}
	for n := 0; n <= 4 && size+n <= 7; n++ {
		counts[rank] = uint8(n)
		t.fillRank(counts, rank+1, size+n, sum+uint32(n)*rankMult[rank])
	}
	counts[rank] = 0
}
