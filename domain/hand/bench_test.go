package hand_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// randomHands deals n random seven-card hands from a seeded generator.
func randomHands(n int, seed uint64) [][7]cards.Card {
	rng := newRand(seed)
	hands := make([][7]cards.Card, n)
	var deck [cards.NumCards]cards.Card
	for i := range deck {
		deck[i] = cards.Card(i)
	}
	for h := range hands {
		for i := 0; i < 7; i++ {
			j := i + rng.IntN(cards.NumCards-i)
			deck[i], deck[j] = deck[j], deck[i]
			hands[h][i] = deck[i]
		}
	}
	return hands
}

var sink hand.Value

// BenchmarkEval7Random evaluates pre-dealt random seven-card hands, so that
// neither the hands nor the table accesses follow a pattern.
func BenchmarkEval7Random(b *testing.B) {
	hands := randomHands(1<<16, 1)
	b.ReportAllocs()
	b.ResetTimer()
	var acc hand.Value
	for i := 0; i < b.N; i++ {
		h := &hands[i&(len(hands)-1)]
		acc += hand.Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
	}
	sink = acc
}

// BenchmarkEvalKeyRandom is Eval7's work through the incremental Key API.
func BenchmarkEvalKeyRandom(b *testing.B) {
	hands := randomHands(1<<16, 2)
	keys := make([]hand.Key, len(hands))
	for i, h := range hands {
		keys[i] = hand.KeyOfCards(h[:]...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var acc hand.Value
	for i := 0; i < b.N; i++ {
		acc += hand.EvalKey(keys[i&(len(keys)-1)])
	}
	sink = acc
}

// BenchmarkBestFive measures the display path.
func BenchmarkBestFive(b *testing.B) {
	hands := randomHands(1<<12, 3)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := &hands[i&(len(hands)-1)]
		v, _ := hand.BestFive(h[:])
		sink = v
	}
}
