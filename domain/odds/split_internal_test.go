package odds

import (
	"math/rand/v2"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

// TestSplitMatchesWalk checks the split enumeration (flushless boards
// counted per rank pattern, flush boards visited suit by suit) against the
// plain walk, which evaluates every position on every board, on random
// deals of 2 to 10 positions: most over a random subset of the unseen
// cards (so that suits run short or long), some over all of them.
func TestSplitMatchesWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 12))
	trials := 90
	if testing.Short() || raceEnabled {
		trials = 36
	}
	for trial := range trials {
		n := 2 + trial%9
		deck := rng.Perm(cards.NumCards)
		if trial%3 == 0 {
			// Suited pockets, so that some suit needs only three board cards.
			deck = suitedFirst(deck, rng)
		}
		pockets := make([][2]cards.Card, n)
		for i := range pockets {
			pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
		}
		d, err := parseDeal(pockets, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if trial%9 != 4 {
			d.unseen = d.unseen[:10+rng.IntN(len(d.unseen)-9)]
		}
		e := newEnumerator(d)
		want := e.newTally(0)
		e.walk(want, 5, 0, d.board)
		got := new(tally)
		e.walkSplit(got, d.unseen)
		if got.winners != want.winners || got.cats != want.cats {
			t.Fatalf("trial %d (%d positions, %d unseen cards): split and walk differ\nsplit cats %v\nwalk cats  %v",
				trial, n, len(d.unseen), got.cats, want.cats)
		}
	}
}

// suitedFirst reorders a shuffled deck so that its first two cards share
// a suit.
func suitedFirst(deck []int, rng *rand.Rand) []int {
	for i := 1; i < len(deck); i++ {
		if cards.Card(deck[i]).Suit() == cards.Card(deck[0]).Suit() && rng.IntN(2) == 0 {
			deck[1], deck[i] = deck[i], deck[1]
			break
		}
	}
	return deck
}
