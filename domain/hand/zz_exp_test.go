package hand

import (
	"runtime"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/internal/cpuclock"
)

func expHands() *[1 << 16][7]cards.Card {
	var hs [1 << 16][7]cards.Card
	s := uint64(1)
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	var deck [52]cards.Card
	for i := range deck {
		deck[i] = cards.Card(i)
	}
	for h := range hs {
		for i := 0; i < 7; i++ {
			j := i + int(next()%uint64(52-i))
			deck[i], deck[j] = deck[j], deck[i]
			hs[h][i] = deck[i]
		}
	}
	return &hs
}

var expSink Value

func run(b *testing.B, f func(h *[7]cards.Card) Value) {
}

func BenchmarkXFull(b *testing.B) {
	hs := expHands()
	runtime.LockOSThread()
	b.ResetTimer()
	t0 := cpuclock.Thread()
	var acc Value
	for i := 0; i < b.N; i++ {
		h := &hs[i&(1<<16-1)]
		acc += Eval7(h[0], h[1], h[2], h[3], h[4], h[5], h[6])
	}
	b.ReportMetric(float64(cpuclock.Thread()-t0)/float64(b.N), "cpu-ns/op")
	expSink = acc
}

func BenchmarkXNoDisp(b *testing.B) {
	hs := expHands()
	runtime.LockOSThread()
	b.ResetTimer()
	t0 := cpuclock.Thread()
	var acc Value
	for i := 0; i < b.N; i++ {
		h := &hs[i&(1<<16-1)]
		s := pairs7[h[0]][h[1]] + pairs7[h[2]][h[3]] + pairs7[h[4]][h[5]] + first7[h[6]]
		acc += Value(rank7[uint16(s)])
	}
	b.ReportMetric(float64(cpuclock.Thread()-t0)/float64(b.N), "cpu-ns/op")
	expSink = acc
}

func BenchmarkXSumOnly(b *testing.B) {
	hs := expHands()
	runtime.LockOSThread()
	b.ResetTimer()
	t0 := cpuclock.Thread()
	var acc Value
	for i := 0; i < b.N; i++ {
		h := &hs[i&(1<<16-1)]
		s := pairs7[h[0]][h[1]] + pairs7[h[2]][h[3]] + pairs7[h[4]][h[5]] + first7[h[6]]
		acc += Value(s >> 40)
	}
	b.ReportMetric(float64(cpuclock.Thread()-t0)/float64(b.N), "cpu-ns/op")
	expSink = acc
}

func BenchmarkXSmallRank(b *testing.B) {
	hs := expHands()
	runtime.LockOSThread()
	b.ResetTimer()
	t0 := cpuclock.Thread()
	var acc Value
	for i := 0; i < b.N; i++ {
		h := &hs[i&(1<<16-1)]
		s := pairs7[h[0]][h[1]] + pairs7[h[2]][h[3]] + pairs7[h[4]][h[5]] + first7[h[6]]
		acc += Value(rank7[(uint16(s)^disp7[s>>50])&1023])
	}
	b.ReportMetric(float64(cpuclock.Thread()-t0)/float64(b.N), "cpu-ns/op")
	expSink = acc
}
