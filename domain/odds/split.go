package odds

import (
	"math/bits"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// The enumeration right after the pocket deal splits the boards in two.
//
// On a board where no position can make a flush (most boards), every
// hand's Value depends on the board's ranks alone. Those boards are not
// visited: for each multiset of five ranks the unseen cards can show, the
// outcome is computed once and counted as many times as there are such
// boards, the number of ways to pick the cards of those ranks from the
// unseen ones, less the boards of that rank pattern on which a flush is
// possible.
//
// A board on which some position may make a flush holds at least three
// cards of one suit (so of only one suit). Those boards are enumerated suit
// by suit, as j cards of the suit and 5-j of the others, with j from the
// fewest that let some pocket complete a flush; on each, the positions
// holding enough of the suit are evaluated and the others take their
// flushless Values from their rank pattern.

// patterns holds the rank patterns of five-card boards drawn from the
// unseen cards: per pattern, the boards not yet accounted for, the
// flushless outcome and each position's flushless Value, and an
// open-addressed index from RankKey to pattern.
type patterns struct {
	count []int64
	out   []outcome
	vals  [][MaxPositions]uint16
	slots [1 << patternBits]int32 // pattern index + 1; 0 is empty
	keys  [1 << patternBits]uint32
}

// patternBits sizes the index: 16,384 slots for at most maxPatterns.
const (
	patternBits = 14
	maxPatterns = 6175 // multisets of five of 13 ranks, at most four of each
)

func (p *patterns) insert(rk uint32) int {
	for i := (rk * 0x9e3779b1) >> (32 - patternBits); ; i = (i + 1) & (1<<patternBits - 1) {
		if p.slots[i] == 0 {
			p.keys[i] = rk
			p.count = append(p.count, 0)
			p.out = append(p.out, outcome{rankKey: rk})
			p.vals = append(p.vals, [MaxPositions]uint16{})
			p.slots[i] = int32(len(p.count))
			return len(p.count) - 1
		}
	}
}

// find returns the pattern of RankKey rk, which must have been inserted.
func (p *patterns) find(rk uint32) int {
	i := (rk * 0x9e3779b1) >> (32 - patternBits)
	for p.keys[i] != rk {
		i = (i + 1) & (1<<patternBits - 1)
	}
	return int(p.slots[i]) - 1
}

// walkSplit tallies every five-card board drawn from the unseen cards, as
// described above. The tally is the one walk would produce.
func (e *enumerator) walkSplit(t *tally, unseen []cards.Card) {
	p := &patterns{
		count: make([]int64, 0, maxPatterns),
		out:   make([]outcome, 0, maxPatterns),
		vals:  make([][MaxPositions]uint16, 0, maxPatterns),
	}
	var byRank [13][]hand.Key
	for _, c := range unseen {
		byRank[c.Rank()] = append(byRank[c.Rank()], hand.KeyOf(c))
	}
	e.addPatterns(p, &byRank, 0, 5, hand.Key{}, 1)

	rest := make([]leader, len(p.count))
	var round int32
	for s := range cards.Suit(4) {
		var suited, others []hand.Key
		for _, c := range unseen {
			if c.Suit() == s {
				suited = append(suited, hand.KeyOf(c))
			} else {
				others = append(others, hand.KeyOf(c))
			}
		}
		need := 5
		for _, pk := range e.pockets {
			need = min(need, 5-pk.SuitCount(s))
		}
		for j := need; j <= 5 && j <= len(suited); j++ {
			round++
			e.flushBoards(t, p, e.holding[s][5-j], subsetKeys(suited, j), subsetKeys(others, 5-j), rest, round)
		}
	}

	for i, n := range p.count {
		if n < 0 {
			panic("odds: a rank pattern counted more flush boards than boards")
		}
		t.winners[p.out[i].won&(1<<MaxPositions-1)] += n
		t.cats[p.out[i].cat&15] += n
	}
}

// addPatterns walks the multisets of need more ranks from rank r up that
// the unseen cards can show, with k the Key of one board of the ranks
// chosen so far and ways the number of such boards, and records each
// complete pattern's flushless outcome.
func (e *enumerator) addPatterns(p *patterns, byRank *[13][]hand.Key, r, need int, k hand.Key, ways int64) {
	if need == 0 {
		i := p.insert(k.RankKey())
		p.count[i] = ways
		var v [MaxPositions]hand.Value
		e.values(&v, k, false)
		for j, x := range v {
			p.vals[i][j] = uint16(x)
		}
		p.out[i].won, p.out[i].cat = e.decide(&v)
		return
	}
	if r == 13 {
		return
	}
	have := byRank[r]
	kr := k
	for n := 0; n <= need && n <= len(have); n++ {
		if n > 0 {
			kr = kr.Add(have[n-1])
		}
		e.addPatterns(p, byRank, r+1, need-n, kr, ways*int64(boards(len(have), n)))
	}
}

// subsetKeys returns the Keys of every n-card subset of keys.
func subsetKeys(keys []hand.Key, n int) []hand.Key {
	out := make([]hand.Key, 0, boards(len(keys), n))
	var rec func(from, n int, k hand.Key)
	rec = func(from, n int, k hand.Key) {
		if n == 0 {
			out = append(out, k)
			return
		}
		for i := from; i <= len(keys)-n; i++ {
			rec(i+1, n-1, k.Add(keys[i]))
		}
	}
	rec(0, n, hand.Key{})
	return out
}

// flushBoards tallies every board made of one of the suited parts and one
// of the other parts, on which the positions in may can make a flush; each
// is taken off its rank pattern's flushless count. The positions outside
// may keep their flushless Values, so their leader is worked out once per
// rank pattern (in rest, marked with round), and each board evaluates only
// the positions in may against it.
func (e *enumerator) flushBoards(t *tally, p *patterns, may uint16, suited, others []hand.Key, rest []leader, round int32) {
	for _, a := range suited {
		for i := range others {
			b := a.Add(others[i])
			pi := p.find(b.RankKey())
			p.count[pi]--
			r := &rest[pi]
			if r.round != round {
				*r = e.leaderOf(&p.vals[pi], may, round)
			}
			best, won := r.best, r.won
			for m := may; m != 0; m &= m - 1 {
				j := bits.TrailingZeros16(m)
				switch v := hand.EvalKey(b.Add(e.pockets[j])); {
				case v > best:
					best, won = v, 1<<j
				case v == best:
					won |= 1 << j
				}
			}
			t.add(won, best.Category())
		}
	}
}

// leader is the best of some positions' Values and the set holding it,
// computed in the given round of flushBoards.
type leader struct {
	best  hand.Value
	won   uint16
	round int32
}

// leaderOf returns the leader among the positions outside may with the
// flushless Values vals: Value 0 and no position when every position is in
// may (every hand beats Value 0, so a position in may then takes the lead).
func (e *enumerator) leaderOf(vals *[MaxPositions]uint16, may uint16, round int32) leader {
	l := leader{round: round}
	for j := range e.pockets {
		if may&(1<<j) != 0 {
			continue
		}
		switch v := hand.Value(vals[j]); {
		case v > l.best:
			l.best, l.won = v, 1<<j
		case v == l.best:
			l.won |= 1 << j
		}
	}
	return l
}
