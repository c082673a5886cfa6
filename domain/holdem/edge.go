package holdem

import (
	"math/big"
	"slices"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// The main game's exact value with optimal decisions. A player state is the
// two pocket cards and the flop; calling is worth, in antes, the mean over
// every turn and river (C(47,2) = 1081) and every dealer hand (C(45,2) = 990)
// of the called box's net, folding is worth -1. The optimal player takes the
// larger. All sums are kept in whole antes, so the result is exact.
//
// The work is organised by flop: for one flop and one turn and river, the
// 1081 two-card hands left are at once every possible pocket and every
// possible dealer hand. Ranking them once and counting, for each hand, the
// dealer hands below, equal to and above it that share none of its cards
// settles all 1081 pockets against all 990 dealer hands with 1081
// evaluations and one sort. A flop costs 1176 × 1081 ≈ 1.27 million
// evaluations; the 22 100 flops fall into 1755 classes under suit
// permutations.

// OutcomesPerState is the number of equally likely (turn, river, dealer
// hand) outcomes behind one player state: C(47,2) × C(45,2).
const OutcomesPerState = 1081 * 990

// StatesPerFlop is the number of pocket hands a flop leaves: C(49,2).
const StatesPerFlop = 1176

// FlopTally is the exact optimal-play result of one flop, summed over its
// StatesPerFlop player states. Sums are in antes × OutcomesPerState.
type FlopTally struct {
	States int64
	// Calls is how many states calling is strictly better than folding in;
	// Indifferent how many it is worth exactly as much.
	Calls, Indifferent int64
	// Optimal is Σ max(call, fold) over the states; CallAlways is Σ call.
	Optimal, CallAlways int64
}

// Add returns the tally plus weight copies of u.
func (t FlopTally) Add(u FlopTally, weight int64) FlopTally {
	t.States += weight * u.States
	t.Calls += weight * u.Calls
	t.Indifferent += weight * u.Indifferent
	t.Optimal += weight * u.Optimal
	t.CallAlways += weight * u.CallAlways
	return t
}

// PlayerReturn is the optimal player's expected net per hand, in antes.
func (t FlopTally) PlayerReturn() *big.Rat {
	return big.NewRat(t.Optimal, t.States*OutcomesPerState)
}

// HouseEdge is the house's expected win per hand, in antes: -PlayerReturn.
func (t FlopTally) HouseEdge() *big.Rat { return new(big.Rat).Neg(t.PlayerReturn()) }

// CallRate is the share of states where the optimal player calls
// (indifferent states counted as folds).
func (t FlopTally) CallRate() *big.Rat { return big.NewRat(t.Calls, t.States) }

// EvaluateFlop computes the exact optimal-play tally of one flop with the
// given ante paytable (the dealer qualifier and the 1:1 Bet are rules).
func EvaluateFlop(ante Paytable, flop [3]cards.Card) FlopTally {
	var k flopKernel
	k.run(ante, flop)
	return k.tally
}

// flopKernel is the working memory of EvaluateFlop, owned by one call and
// never shared. Its methods are marked //go:norace: they touch nothing but
// this private memory, so the race detector has nothing to find in them,
// while instrumenting their few billion array accesses makes a -race test
// run several times slower (docs/bench/2026-11-29-poker-core.md). The goroutines that run
// flops in parallel, in cmd/holdem-edge and the tests, stay instrumented.
type flopKernel struct {
	callSum [cards.NumCards * cards.NumCards]int64 // by a*52+b, a < b
	vals    [1081]hand.Value
	odds    [1081]int64
	cx, cy  [1081]uint8
	order   [1081]uint16
	tmp     [1081]uint16
	net     [1081]int64
	tally   FlopTally
}

// run tallies the flop: for each turn and river, every pocket's called net
// against every dealer hand is added to that pocket's call sum; then each
// pocket takes the better of its call sum and folding.
//
//go:norace
func (k *flopKernel) run(ante Paytable, flop [3]cards.Card) {
	var used cards.Set = cards.SetOf(flop[:]...)
	rest := make([]cards.Card, 0, 49)
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !used.Has(c) {
			rest = append(rest, c)
		}
	}
	oddsOf := oddsTable(ante)
	for i, t := range rest {
		for _, r := range rest[i+1:] {
			n := k.deal([5]cards.Card{flop[0], flop[1], flop[2], t, r}, rest, &oddsOf)
			k.board()
			for j := range n {
				k.callSum[int(k.cx[j])*cards.NumCards+int(k.cy[j])] += k.net[j]
			}
		}
	}
	const fold = -OutcomesPerState
	for a, x := range rest {
		for _, y := range rest[a+1:] {
			call := k.callSum[int(x)*cards.NumCards+int(y)]
			k.tally.States++
			k.tally.CallAlways += call
			switch {
			case call > fold:
				k.tally.Calls++
				k.tally.Optimal += call
			case call == fold:
				k.tally.Indifferent++
				k.tally.Optimal += fold
			default:
				k.tally.Optimal += fold
			}
		}
	}
}

// oddsTable is the paytable indexed by category, for the inner loop.
func oddsTable(p Paytable) (t [hand.NumCategories]int64) {
	for c := range hand.Category(hand.NumCategories) {
		t[c] = p.Odds(c)
	}
	return t
}

// deal evaluates every two-card hand of rest that the board b leaves (1081
// of them when rest is the 49 cards off the flop), using the evaluator's
// additive keys: the board's key is summed once per board and once more per
// first card. It returns how many hands there are.
//
//go:norace
func (k *flopKernel) deal(b [5]cards.Card, rest []cards.Card, oddsOf *[hand.NumCategories]int64) int {
	t, r := b[3], b[4]
	board := hand.KeyOfCards(b[:]...)
	n := 0
	var all hand.Value
	for a, x := range rest {
		if x == t || x == r {
			continue
		}
		kx := board.Add(hand.KeyOf(x))
		for _, y := range rest[a+1:] {
			if y == t || y == r {
				continue
			}
			v := hand.EvalKey(kx.Add(hand.KeyOf(y)))
			all |= v
			k.vals[n], k.cx[n], k.cy[n] = v, uint8(x), uint8(y)
			k.odds[n] = oddsOf[v.Category()]
			n++
		}
	}
	if all > 0xffff {
		// board sorts Values as two radix bytes; hand documents Values as
		// category << 12 | order, well inside 16 bits.
		panic("holdem: hand.Value wider than 16 bits")
	}
	return n
}

// sortByValue orders the 1081 hands by Value, low to high, with a two-pass
// radix sort on the Value's two bytes.
//
//go:norace
func (k *flopKernel) sortByValue() {
	const n = 1081
	var count [2][257]uint16
	for j := range n {
		count[0][k.vals[j]&0xff+1]++
		count[1][k.vals[j]>>8+1]++
	}
	for b := 1; b < 257; b++ {
		count[0][b] += count[0][b-1]
		count[1][b] += count[1][b-1]
	}
	for j := range n {
		lo := k.vals[j] & 0xff
		k.tmp[count[0][lo]] = uint16(j)
		count[0][lo]++
	}
	for _, j := range k.tmp {
		hi := k.vals[j] >> 8
		k.order[count[1][hi]] = j
		count[1][hi]++
	}
}

// board settles, for one complete board, each of the 1081 hands left as a
// called pocket against the 990 dealer hands disjoint from it, in antes.
//
//go:norace
func (k *flopKernel) board() {
	const n = 1081
	const dealers = 990
	k.sortByValue()
	// below[c] counts the hands ranked so far (all lower than the current
	// group) that hold card c; nqBelow is its snapshot at the qualifier.
	var below, nqBelow [cards.NumCards]int32
	var lt, le [n]int32
	nqAll, snapped := int32(0), false
	for i := 0; i < n; {
		v := k.vals[k.order[i]]
		j := i + 1
		for j < n && k.vals[k.order[j]] == v {
			j++
		}
		if !snapped && DealerQualifies(v) {
			nqAll, nqBelow, snapped = int32(i), below, true
		}
		group := k.order[i:j]
		for _, m := range group {
			lt[m] = int32(i) - below[k.cx[m]] - below[k.cy[m]]
		}
		for _, m := range group {
			below[k.cx[m]]++
			below[k.cy[m]]++
		}
		for _, m := range group {
			// The hand itself is in the group and holds both its cards:
			// counted once in j, subtracted twice, added back once.
			le[m] = int32(j) - below[k.cx[m]] - below[k.cy[m]] + 1
		}
		i = j
	}
	if !snapped {
		nqAll, nqBelow = n, below
	}
	for m := range n {
		a := k.odds[m]
		if !DealerQualifies(k.vals[m]) {
			// Every dealer hand below the qualifier is below this one too,
			// including this very hand, which shares its cards: add it back.
			nq := int64(nqAll-nqBelow[k.cx[m]]-nqBelow[k.cy[m]]) + 1
			k.net[m] = nq*a - 3*(dealers-nq)
			continue
		}
		nq := int64(nqAll - nqBelow[k.cx[m]] - nqBelow[k.cy[m]])
		lower, notHigher := int64(lt[m]), int64(le[m])
		k.net[m] = nq*a + (lower-nq)*(a+2) - 3*(dealers-notHigher)
	}
}

// WeightedFlop is a flop standing for Weight flops that differ from it only
// by a permutation of suits, and so have the same value.
type WeightedFlop struct {
	Flop   [3]cards.Card
	Weight int64
}

// CanonicalFlops returns the 1755 classes of the 22 100 flops under suit
// permutations, each with its size, in a fixed order.
func CanonicalFlops() []WeightedFlop {
	perms := suitPerms
	index := map[[3]cards.Card]int{}
	var out []WeightedFlop
	for a := cards.Card(0); a < cards.NumCards; a++ {
		for b := a + 1; b < cards.NumCards; b++ {
			for c := b + 1; c < cards.NumCards; c++ {
				key := canonicalFlop([3]cards.Card{a, b, c}, perms)
				if i, ok := index[key]; ok {
					out[i].Weight++
					continue
				}
				index[key] = len(out)
				out = append(out, WeightedFlop{Flop: key, Weight: 1})
			}
		}
	}
	return out
}

// CanonicalFlop returns the representative of f's class in CanonicalFlops:
// the flops that differ from f only by a permutation of suits share it, and
// share f's value.
func CanonicalFlop(f [3]cards.Card) [3]cards.Card { return canonicalFlop(f, suitPerms) }

var suitPerms = suitPermutations()

// canonicalFlop is the least sorted image of f under the suit permutations.
func canonicalFlop(f [3]cards.Card, perms [][4]cards.Suit) [3]cards.Card {
	var best [3]cards.Card
	for i, p := range perms {
		var g [3]cards.Card
		for j, c := range f {
			g[j] = cards.New(c.Rank(), p[c.Suit()])
		}
		slices.Sort(g[:])
		if i == 0 || slices.Compare(g[:], best[:]) < 0 {
			best = g
		}
	}
	return best
}

func suitPermutations() [][4]cards.Suit {
	var out [][4]cards.Suit
	for a := range cards.Suit(4) {
		for b := range cards.Suit(4) {
			for c := range cards.Suit(4) {
				d := 6 - a - b - c
				if a != b && a != c && b != c {
					out = append(out, [4]cards.Suit{a, b, c, d})
				}
			}
		}
	}
	return out
}
