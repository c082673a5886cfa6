package hand_test

import (
	"sort"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// TestAllFiveCardHands evaluates all 2,598,960 five-card hands: the
// category counts and the 7,462 distinct Values are the published figures.
func TestAllFiveCardHands(t *testing.T) {
	want := [hand.NumCategories]int{
		hand.HighCard:      1302540,
		hand.Pair:          1098240,
		hand.TwoPair:       123552,
		hand.ThreeOfAKind:  54912,
		hand.Straight:      10200,
		hand.Flush:         5108,
		hand.FullHouse:     3744,
		hand.FourOfAKind:   624,
		hand.StraightFlush: 36,
		hand.RoyalFlush:    4,
	}
	var got [hand.NumCategories]int
	distinct := make(map[hand.Value]bool)
	total := 0
	forEachFive(func(five [5]cards.Card) {
		v := hand.Evaluate(five[:])
		got[v.Category()]++
		distinct[v] = true
		total++
	})
	if total != 2598960 {
		t.Errorf("enumerated %d hands, want 2598960", total)
	}
	for c := range want {
		if got[c] != want[c] {
			t.Errorf("%v: %d hands, want %d", hand.Category(c), got[c], want[c])
		}
	}
	if len(distinct) != 7462 {
		t.Errorf("%d distinct values, want 7462", len(distinct))
	}
}

// TestValuesFollowReferenceOrder checks, over all five-card hands, that the
// fast Values order the 7,462 classes exactly as the reference evaluator
// does and carry its category.
func TestValuesFollowReferenceOrder(t *testing.T) {
	classes := refClasses(t)
	if len(classes) != 7462 {
		t.Fatalf("reference found %d classes, want 7462", len(classes))
	}
	keys := make([]int, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for i, k := range keys {
		v := classes[k]
		if want := hand.Category(k >> 20); v.Category() != want {
			t.Errorf("class %x: category %v, want %v", k, v.Category(), want)
		}
		if i > 0 && classes[keys[i-1]] >= v {
			t.Fatalf("class %x ranks below class %x in the reference but has Value %d >= %d",
				keys[i-1], k, classes[keys[i-1]], v)
		}
	}
}
