package holdem_test

import (
	"math/big"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
)

// TestBonusHouseEdgeExact plays the Bonus on every one of the 2 598 960
// five-card hands and checks the exact house edge 5809/92820 (SPEC §2.8),
// and, on the way, the pair-of-aces threshold against the cards' ranks.
func TestBonusHouseEdgeExact(t *testing.T) {
	cfg := holdem.DefaultConfig()
	var hands, player int64
	winners := map[hand.Category]int64{}
	five := make([]cards.Card, 5)
	forEachFive(func(a, b, c, d, e cards.Card) {
		five[0], five[1], five[2], five[3], five[4] = a, b, c, d, e
		v := hand.Evaluate(five)
		hands++
		odds := cfg.BonusOdds(v)
		if _, aces := byRanks(v.Category(), [5]cards.Card(five)); aces != (odds > 0) {
			t.Fatalf("%s: bonus odds %d, pair of aces or better: %v", cards.Format(five), odds, aces)
		}
		if odds == 0 {
			player--
			return
		}
		winners[v.Category()]++
		player += odds
	})
	if hands != 2598960 {
		t.Fatalf("%d hands", hands)
	}
	want := map[hand.Category]int64{hand.RoyalFlush: 4, hand.StraightFlush: 36, hand.FourOfAKind: 624,
		hand.FullHouse: 3744, hand.Flush: 5108, hand.Straight: 10200, hand.ThreeOfAKind: 54912,
		hand.TwoPair: 123552, hand.Pair: 84480}
	for cat, n := range want {
		if winners[cat] != n {
			t.Errorf("%v: %d winning hands, want %d", cat, winners[cat], n)
		}
	}
	edge := big.NewRat(-player, hands)
	if want := big.NewRat(5809, 92820); edge.Cmp(want) != 0 {
		t.Fatalf("bonus house edge = %s, want %s", edge.RatString(), want.RatString())
	}
	t.Logf("bonus house edge %s = %s%%", edge.RatString(), new(big.Rat).Mul(edge, big.NewRat(100, 1)).FloatString(4))
}

func forEachFive(f func(a, b, c, d, e cards.Card)) {
	for a := cards.Card(0); a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				for d := c + 1; d < 52; d++ {
					for e := d + 1; e < 52; e++ {
						f(a, b, c, d, e)
					}
				}
			}
		}
	}
}

func TestCanonicalFlops(t *testing.T) {
	flops := holdem.CanonicalFlops()
	var total int64
	for _, f := range flops {
		total += f.Weight
	}
	if len(flops) != 1755 || total != 22100 {
		t.Fatalf("%d classes of %d flops, want 1755 of 22100", len(flops), total)
	}
}

// TestEvaluateFlopKnownValues pins the exact tallies of a few flops, as
// computed by cmd/holdem-edge (and, independently, with a second, naive
// evaluator). A suit permutation or another order of the same flop gives
// the same tally.
func TestEvaluateFlopKnownValues(t *testing.T) {
	tests := []struct {
		flop string
		want holdem.FlopTally
	}{
		{"2c 7d 9h", holdem.FlopTally{States: 1176, Calls: 1057, Optimal: -171971789, CallAlways: -198320766}},
		{"Ah Kh Qh", holdem.FlopTally{States: 1176, Calls: 918, Optimal: 672658956, CallAlways: 496354788}},
		{"Jd 4d 4h", holdem.FlopTally{States: 1176, Calls: 826, Optimal: 390075298, CallAlways: 248046819}},
	}
	for _, tc := range tests {
		t.Run(tc.flop, func(t *testing.T) {
			got := holdem.EvaluateFlop(holdem.DefaultAntePaytable(), [3]cards.Card(cards.MustParseList(tc.flop)))
			if got != tc.want {
				t.Errorf("EvaluateFlop = %+v, want %+v", got, tc.want)
			}
		})
	}
}
