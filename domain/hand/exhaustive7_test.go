//go:build !race

// The exhaustive seven-card pass takes about a second normally but some 25
// seconds under the race detector, which finds nothing in this
// single-goroutine loop; so it is left out of -race runs, and the sampled
// check in sample7_test.go (TestSevenCardSample) always runs.

package hand_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// TestAllSevenCardHands evaluates all 133,784,560 seven-card hands through
// the incremental Key, checks Eval7 agrees on each, and compares the
// category counts and the 4,824 distinct Values with the published figures.
func TestAllSevenCardHands(t *testing.T) {
	got, distinct, mismatch := countSevenCardHands()
	if mismatch != "" {
		t.Fatal(mismatch)
	}
	total := 0
	for c, n := range got {
		total += n
		if n != sevenCardCounts[c] {
			t.Errorf("%v: %d hands, want %d", hand.Category(c), n, sevenCardCounts[c])
		}
	}
	if total != 133784560 {
		t.Errorf("enumerated %d hands, want 133784560", total)
	}
	if distinct != 4824 {
		t.Errorf("%d distinct values, want 4824", distinct)
	}
}

func countSevenCardHands() (counts [hand.NumCategories]int, distinct int, mismatch string) {
	var seen [1 << 16]bool
	const n = cards.NumCards
	var k [8]hand.Key
	for a := cards.Card(0); a < n; a++ {
		k[1] = hand.KeyOf(a)
		for b := a + 1; b < n; b++ {
			k[2] = k[1].Add(hand.KeyOf(b))
			for c := b + 1; c < n; c++ {
				k[3] = k[2].Add(hand.KeyOf(c))
				for d := c + 1; d < n; d++ {
					k[4] = k[3].Add(hand.KeyOf(d))
					for e := d + 1; e < n; e++ {
						k[5] = k[4].Add(hand.KeyOf(e))
						for f := e + 1; f < n; f++ {
							k[6] = k[5].Add(hand.KeyOf(f))
							for g := f + 1; g < n; g++ {
								v := hand.EvalKey(k[6].Add(hand.KeyOf(g)))
								counts[v.Category()]++
								seen[uint16(v)] = true
								if v != hand.Eval7(a, b, c, d, e, f, g) && mismatch == "" {
									mismatch = "Eval7 and EvalKey disagree on " + cards.Format([]cards.Card{a, b, c, d, e, f, g})
								}
							}
						}
					}
				}
			}
		}
	}
	for _, s := range seen {
		if s {
			distinct++
		}
	}
	return counts, distinct, mismatch
}
