package hand_test

import (
	"math"
	"testing"

	"github.com/pokertote/pokertote/domain/hand"
)

// sevenCardCounts are the published category counts over all 133,784,560
// seven-card hands; the 41,584 straight flushes include 4,324 royal ones.
var sevenCardCounts = [hand.NumCategories]int{
	hand.HighCard:      23294460,
	hand.Pair:          58627800,
	hand.TwoPair:       31433400,
	hand.ThreeOfAKind:  6461620,
	hand.Straight:      6180020,
	hand.Flush:         4047644,
	hand.FullHouse:     3473184,
	hand.FourOfAKind:   224848,
	hand.StraightFlush: 41584 - 4324,
	hand.RoyalFlush:    4324,
}

// TestSevenCardSample is the always-on sampled twin of the exhaustive
// seven-card test (which the race detector makes too slow): random hands
// must match the reference evaluator exactly, and the category frequencies
// must sit within six standard deviations of the exact ones.
func TestSevenCardSample(t *testing.T) {
	classes := refClasses(t)
	n := 1_000_000
	if testing.Short() || raceEnabled {
		n = 100_000
	}
	d := newDealer(7)
	var got [hand.NumCategories]int
	for i := 0; i < n; i++ {
		h := d.deal(7)
		v := hand.Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
		got[v.Category()]++
		if want := classes[refBest(h).key()]; v != want {
			t.Fatalf("%v: Value %d (%s), reference says %d (%s)", h, v, v.Describe(), want, want.Describe())
		}
	}
	for c, count := range got {
		p := float64(sevenCardCounts[c]) / 133784560
		mean, sd := p*float64(n), math.Sqrt(p*(1-p)*float64(n))
		if math.Abs(float64(count)-mean) > 6*sd+1 {
			t.Errorf("%v: %d of %d, expected %.0f ± %.0f", hand.Category(c), count, n, mean, sd)
		}
	}
}

// TestRandomHandsMatchReference deals random 5-, 6- and 7-card hands and
// checks that Evaluate, BestFive and the incremental Key all give exactly
// the Value of the reference evaluator's best five.
func TestRandomHandsMatchReference(t *testing.T) {
	classes := refClasses(t)
	perSize := 1_000_000
	if testing.Short() || raceEnabled {
		perSize = 50_000
	}
	d := newDealer(42)
	for size := 5; size <= 7; size++ {
		for i := 0; i < perSize; i++ {
			h := d.deal(size)
			want := classes[refBest(h).key()]
			if v := hand.Evaluate(h); v != want {
				t.Fatalf("Evaluate(%v) = %d (%s), reference says %d (%s)", h, v, v.Describe(), want, want.Describe())
			}
			if v := hand.EvalKey(hand.KeyOfCards(h...)); v != want {
				t.Fatalf("EvalKey(%v) = %d, want %d", h, v, want)
			}
			if i%16 == 0 {
				v, five := hand.BestFive(h)
				if v != want || hand.Evaluate(five[:]) != want {
					t.Fatalf("BestFive(%v) = %d %v, want %d", h, v, five, want)
				}
			}
		}
	}
}
