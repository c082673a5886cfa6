package holdem_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
)

func TestThresholds(t *testing.T) {
	tests := []struct {
		hand          string
		dealer, bonus bool
	}{
		{"Kc Qd Jh 9s 7c", false, false},
		{"Ac Kd Qh Js 9c 8d 6h", false, false},
		{"2c 2d Ah Ks Qc", false, false},
		{"3c 3d Ah Ks Qc", false, false},
		{"3c 3d Ah Ks Qc Jd 9h", false, false},
		{"4c 4d 5h 3s 2c", true, false},
		{"4c 4d 8h 7s 5c 3d 2h", true, false},
		{"4c 4d 8h 6s 5c 3d 2h", true, true}, // 2-3-4-5-6 straight
		{"4c 4d Ah Ks Qc", true, false},
		{"Kc Kd Ah Qs Jc", true, false},
		{"Ac Ad 4h 3s 2c", true, true},
		{"Ac Ad 6h 4s 3c 2d 8h", true, true},
		{"Ac Ad Kh Qs Jc", true, true},
		{"2c 2d 3h 3s 4c", true, true},
		{"2c 3d 4h 5s Ac", true, true},
		{"2c 3c 4c 5c 7c", true, true},
		{"2c 3d 4h 5s 6c Kd Kh", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.hand, func(t *testing.T) {
			v := hand.Evaluate(cards.MustParseList(tc.hand))
			if got := holdem.DealerQualifies(v); got != tc.dealer {
				t.Errorf("DealerQualifies = %v, want %v", got, tc.dealer)
			}
			if got := holdem.BonusQualifies(v); got != tc.bonus {
				t.Errorf("BonusQualifies = %v, want %v", got, tc.bonus)
			}
		})
	}
}

// TestThresholdsAgainstRanks checks the value thresholds against their plain
// meaning, read off the best five cards, for random hands of five to seven
// cards: a category above Pair, or a Pair of fours (aces) or higher. The
// bonus edge test repeats the check on every five-card hand.
func TestThresholdsAgainstRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	deck := make([]cards.Card, 52)
	for i := range deck {
		deck[i] = cards.Card(i)
	}
	for i := range 30000 {
		rng.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		cs := deck[:5+i%3]
		v, best := hand.BestFive(cs)
		if v != hand.Evaluate(cs) {
			t.Fatalf("%s: BestFive and Evaluate disagree", cards.Format(cs))
		}
		dealer, bonus := byRanks(v.Category(), best)
		if holdem.DealerQualifies(v) != dealer || holdem.BonusQualifies(v) != bonus {
			t.Fatalf("%s: qualifies %v/%v, by the cards %v/%v", cards.Format(cs),
				holdem.DealerQualifies(v), holdem.BonusQualifies(v), dealer, bonus)
		}
	}
}

// byRanks says from a hand's category and best five cards whether it is a
// pair of fours or better, and a pair of aces or better.
func byRanks(cat hand.Category, best [5]cards.Card) (fours, aces bool) {
	if cat > hand.Pair {
		return true, true
	}
	if cat < hand.Pair {
		return false, false
	}
	r := pairRank(best)
	return r >= cards.Four, r == cards.Ace
}

func pairRank(five [5]cards.Card) cards.Rank {
	var count [13]int
	for _, c := range five {
		count[c.Rank()]++
	}
	for r := cards.Ace; ; r-- {
		if count[r] >= 2 {
			return r
		}
		if r == cards.Two {
			return 0
		}
	}
}
