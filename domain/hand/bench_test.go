package hand_test

import (
	"runtime"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/internal/cpuclock"
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

// BenchmarkEval7Random evaluates 65,536 pre-dealt random seven-card hands
// in turn, so that neither the hands nor the table accesses follow a
// pattern.
func BenchmarkEval7Random(b *testing.B) {
	hands := (*[1 << 16][7]cards.Card)(randomHands(1<<16, 1))
	b.ReportAllocs()
	stop := cpuTimer(b)
	var acc hand.Value
	for i := 0; i < b.N; i++ {
		h := &hands[i&(len(hands)-1)]
		acc += hand.Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
	}
	stop()
	sink = acc
}

// cpuTimer resets the benchmark timer and returns a function that reports
// the thread CPU time per operation as cpu-ns/op: on a machine shared with
// other work, wall-clock ns/op also counts the time others held the core.
func cpuTimer(b *testing.B) (stop func()) {
	runtime.LockOSThread()
	b.ResetTimer()
	t0 := cpuclock.Thread()
	return func() {
		if t1 := cpuclock.Thread(); t1 > 0 {
			b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
		}
		runtime.UnlockOSThread()
	}
}

// BenchmarkEvalKeyRandom is Eval7's work through the incremental Key API.
func BenchmarkEvalKeyRandom(b *testing.B) {
	hands := randomHands(1<<16, 2)
	keys := make([]hand.Key, len(hands))
	for i, h := range hands {
		keys[i] = hand.KeyOfCards(h[:]...)
	}
	b.ReportAllocs()
	stop := cpuTimer(b)
	var acc hand.Value
	for i := 0; i < b.N; i++ {
		acc += hand.EvalKey(keys[i&(len(keys)-1)])
	}
	stop()
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
