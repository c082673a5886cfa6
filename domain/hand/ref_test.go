package hand_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// refHand is the reference evaluator's verdict on five cards: the category
// and the ranks in the order they are compared (groups first, larger groups
// first, then by rank; a wheel as 5-4-3-2-A).
type refHand struct {
	cat   hand.Category
	ranks [5]cards.Rank
}

// key packs the verdict so that a bigger key is a better hand.
func (r refHand) key() int {
	k := int(r.cat)
	for _, rk := range r.ranks {
		k = k<<4 | int(rk)
	}
	return k
}

// refEval5 is the slow, obviously correct evaluator the fast one is checked
// against: it follows the rule book for exactly five cards.
func refEval5(cs [5]cards.Card) refHand {
	var count [13]int
	flush := true
	for _, c := range cs {
		count[c.Rank()]++
		flush = flush && c.Suit() == cs[0].Suit()
	}
	var r refHand
	for i, c := range cs {
		r.ranks[i] = c.Rank()
	}
	// Insertion sort: bigger groups first, then higher ranks.
	before := func(a, b cards.Rank) bool { return count[a] > count[b] || count[a] == count[b] && a > b }
	for i := 1; i < 5; i++ {
		for j := i; j > 0 && before(r.ranks[j], r.ranks[j-1]); j-- {
			r.ranks[j], r.ranks[j-1] = r.ranks[j-1], r.ranks[j]
		}
	}
	o := r.ranks
	distinct := count[o[0]] == 1
	straight := distinct && o[0]-o[4] == 4
	if distinct && o == [5]cards.Rank{cards.Ace, cards.Five, cards.Four, cards.Three, cards.Two} {
		straight = true
		r.ranks = [5]cards.Rank{cards.Five, cards.Four, cards.Three, cards.Two, cards.Ace}
	}
	switch {
	case straight && flush && r.ranks[0] == cards.Ace:
		r.cat = hand.RoyalFlush
	case straight && flush:
		r.cat = hand.StraightFlush
	case count[o[0]] == 4:
		r.cat = hand.FourOfAKind
	case count[o[0]] == 3 && count[o[3]] == 2:
		r.cat = hand.FullHouse
	case flush:
		r.cat = hand.Flush
	case straight:
		r.cat = hand.Straight
	case count[o[0]] == 3:
		r.cat = hand.ThreeOfAKind
	case count[o[0]] == 2 && count[o[2]] == 2:
		r.cat = hand.TwoPair
	case count[o[0]] == 2:
		r.cat = hand.Pair
	default:
		r.cat = hand.HighCard
	}
	return r
}

// refBest is the reference for 5 to 7 cards: the best of every five.
func refBest(cs []cards.Card) refHand {
	best, bestKey := refHand{}, -1
	n := len(cs)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						r := refEval5([5]cards.Card{cs[a], cs[b], cs[c], cs[d], cs[e]})
						if k := r.key(); k > bestKey {
							best, bestKey = r, k
						}
					}
				}
			}
		}
	}
	return best
}

var (
	classesOnce sync.Once
	classesMap  map[int]hand.Value
	classesErr  string
)

// refClasses maps every reference verdict to the fast evaluator's Value,
// built from all 2,598,960 five-card hands. It fails the test if two hands
// the reference ranks alike get different Values or the other way round.
func refClasses(t *testing.T) map[int]hand.Value {
	t.Helper()
	classesOnce.Do(func() {
		classesMap = make(map[int]hand.Value, 7462)
		back := make(map[hand.Value]int, 7462)
		forEachFive(func(five [5]cards.Card) {
			key, v := refEval5(five).key(), hand.Evaluate(five[:])
			if old, ok := classesMap[key]; ok && old != v && classesErr == "" {
				classesErr = "reference-equal hands differ: " + cards.Format(five[:])
			}
			if old, ok := back[v]; ok && old != key && classesErr == "" {
				classesErr = "hands with equal Values differ in the reference: " + cards.Format(five[:])
			}
			classesMap[key], back[v] = v, key
		})
	})
	if classesErr != "" {
		t.Fatal(classesErr)
	}
	return classesMap
}

// forEachFive calls fn with every five-card hand, in order.
func forEachFive(fn func([5]cards.Card)) {
	var h [5]cards.Card
	for h[0] = 0; h[0] < 48; h[0]++ {
		for h[1] = h[0] + 1; h[1] < 49; h[1]++ {
			for h[2] = h[1] + 1; h[2] < 50; h[2]++ {
				for h[3] = h[2] + 1; h[3] < 51; h[3]++ {
					for h[4] = h[3] + 1; h[4] < 52; h[4]++ {
						fn(h)
					}
				}
			}
		}
	}
}

// dealer deals random hands from a deterministic generator.
type dealer struct {
	rng  *rand.Rand
	deck [cards.NumCards]cards.Card
}

func newDealer(seed uint64) *dealer {
	d := &dealer{rng: newRand(seed)}
	for i := range d.deck {
		d.deck[i] = cards.Card(i)
	}
	return d
}

// deal returns n distinct random cards; the slice is reused by the next deal.
func (d *dealer) deal(n int) []cards.Card {
	for i := 0; i < n; i++ {
		j := i + d.rng.IntN(cards.NumCards-i)
		d.deck[i], d.deck[j] = d.deck[j], d.deck[i]
	}
	return d.deck[:n]
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
