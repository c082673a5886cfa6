package hand_test

import (
	"runtime"
	"testing"
	"time"

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
	n := b.N
	startCPU(b)
	var acc hand.Value
	for i := 0; i < n; i++ {
		h := &hands[i&(len(hands)-1)]
		acc += hand.Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
	}
	stopCPU(b)
	sink = acc
}

// cpuStart is the thread's CPU time when startCPU ran. The loops read
// it through this variable, not a local or a closure, because anything
// live across a benchmark's loop may be reloaded on every iteration by the
// register allocator (it was: the stop closure, one load per hand), a cost
// of the harness that OMPEval's loop does not pay. For the same reason the
// loops compare their index with b.N copied to a local.
var cpuStart time.Duration

// startCPU resets the benchmark timer and takes the thread's CPU time;
// stopCPU reports the thread CPU time per operation since then as
// cpu-ns/op: on a machine shared with other work, wall-clock ns/op also
// counts the time others held the core.
func startCPU(b *testing.B) {
	runtime.LockOSThread()
	b.ResetTimer()
	cpuStart = cpuclock.Thread()
}

func stopCPU(b *testing.B) {
	if t1 := cpuclock.Thread(); t1 > 0 {
		b.ReportMetric(float64(t1-cpuStart)/float64(b.N), "cpu-ns/op")
	}
	runtime.UnlockOSThread()
}

// BenchmarkEvalKeyRandom is Eval7's work through the incremental Key API.
func BenchmarkEvalKeyRandom(b *testing.B) {
	hands := randomHands(1<<16, 2)
	keys := make([]hand.Key, len(hands))
	for i, h := range hands {
		keys[i] = hand.KeyOfCards(h[:]...)
	}
	b.ReportAllocs()
	n := b.N
	startCPU(b)
	var acc hand.Value
	for i := 0; i < n; i++ {
		acc += hand.EvalKey(keys[i&(len(keys)-1)])
	}
	stopCPU(b)
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
