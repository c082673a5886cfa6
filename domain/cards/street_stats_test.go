package cards_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

// streetDraws is how many 10-position draws TestStreetDealStatistics deals.
const streetDraws = 50_000

// TestStreetDealStatistics applies SPEC 1.8's statistical test to the
// per-street deal of a 10-position draw: each of the 28 cards dealt or
// burned (20 pocket cards, 3 burns, 5 board cards), taken in dealing order,
// is uniform over the 52 cards (chi-square, 51 degrees of freedom, each
// position held to alpha/28 so that the family stays at 99%); and the pair
// (first card of position 1, river), drawn from different beacons, is
// uniform over the 52·51 ordered pairs of distinct cards. Seeds and beacon
// values are fixed, so the test is deterministic. The streets shuffle with
// the same Fisher-Yates and IntN as Shuffle, whose statistical power the
// negative controls of TestBiasedShufflesFail show.
//
// The number of draws is the same with and without the race detector, so
// the (deterministic) outcome is too.
func TestStreetDealStatistics(t *testing.T) {
	const n, dealt = 10, 28
	draws := streetDraws
	var at [dealt][cards.NumCards]int
	pairs := make([]int, cards.NumCards*cards.NumCards)
	for i := range draws {
		var rands [][32]byte
		for s := range 4 {
			var b [12]byte
			binary.BigEndian.PutUint64(b[:8], uint64(i))
			binary.BigEndian.PutUint32(b[8:], uint32(s))
			rands = append(rands, sha256.Sum256(b[:]))
		}
		d := cards.DealToteStreets(statSeed(i), n, rands)
		var seq []cards.Card
		for p := range n {
			seq = append(seq, d.Pockets[p][0])
		}
		for p := range n {
			seq = append(seq, d.Pockets[p][1])
		}
		seq = append(seq, d.Burns[0], d.Flop[0], d.Flop[1], d.Flop[2], d.Burns[1], d.Turn, d.Burns[2], d.River)
		for k, c := range seq {
			at[k][c]++
		}
		pairs[int(d.Pockets[0][0])*cards.NumCards+int(d.River)]++
	}
	worst := result{name: "street deal, card per dealt position", crit: chiSquareCritical(cards.NumCards-1, statAlpha/dealt)}
	e := float64(draws) / cards.NumCards
	for k := range dealt {
		x2 := 0.0
		for _, o := range at[k] {
			x2 += (float64(o) - e) * (float64(o) - e) / e
		}
		if x2 >= worst.stat {
			worst.stat, worst.detail = x2, fmt.Sprintf(" (worst: dealt card %d)", k+1)
		}
	}
	var distinct []int
	for a := range cards.NumCards {
		for b := range cards.NumCards {
			if a != b {
				distinct = append(distinct, pairs[a*cards.NumCards+b])
			} else if pairs[a*cards.NumCards+b] != 0 {
				t.Fatalf("card %s dealt twice in one draw", cards.Card(a))
			}
		}
	}
	for _, r := range []result{worst, uniformTest("street deal, (position 1 first card, river) pairs", distinct, draws)} {
		t.Log(r)
		if !r.pass() {
			t.Errorf("the street deal fails at 99%% confidence over %d draws: %v", draws, r)
		}
	}
}
