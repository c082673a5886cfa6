package odds_test

import (
	"runtime"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/odds"
	"github.com/pokertote/pokertote/internal/cpuclock"
)

// tenPockets is a ten-position deal; its 32 unseen cards give C(32,5) =
// 201,376 boards right after the pocket deal.
var tenPockets = pockets("Ah Kd", "Qs Qh", "7c 2d", "Jc Tc", "9s 9d", "5h 4h", "As 8s", "Kc Js", "3d 3c", "Th 6s")

func pockets(ps ...string) [][2]cards.Card {
	out := make([][2]cards.Card, len(ps))
	for i, p := range ps {
		cs := cards.MustParseList(p)
		out[i] = [2]cards.Card{cs[0], cs[1]}
	}
	return out
}

var resultSink *odds.Result

// benchCompute runs Compute on one locked thread and also reports its
// thread CPU time as cpu-ns/op, which, unlike ns/op, does not count the
// time other processes on a shared machine held the core.
func benchCompute(b *testing.B, ps [][2]cards.Card, board string) {
	bd := cards.MustParseList(board)
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := cpuclock.Thread()
	for b.Loop() {
		var err error
		if resultSink, err = odds.Compute(ps, bd); err != nil {
			b.Fatal(err)
		}
	}
	if t1 := cpuclock.Thread(); t1 > 0 {
		b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(resultSink.Boards), "boards")
}

// BenchmarkOddsPocket10 is ten positions right after the pocket deal on one
// goroutine: 201,376 boards, two million hand evaluations.
func BenchmarkOddsPocket10(b *testing.B) { benchCompute(b, tenPockets, "") }

// BenchmarkOddsPocket2 is heads-up right after the deal: 1,712,304 boards.
func BenchmarkOddsPocket2(b *testing.B) { benchCompute(b, pockets("Ac Ad", "Kh Ks"), "") }

// BenchmarkOddsFlop10 is ten positions after the flop: C(29,2) = 406 boards.
func BenchmarkOddsFlop10(b *testing.B) { benchCompute(b, tenPockets, "2s 8d Qc") }

// BenchmarkOddsTurn10 is ten positions after the turn: 28 boards.
func BenchmarkOddsTurn10(b *testing.B) { benchCompute(b, tenPockets, "2s 8d Qc 4s") }

// BenchmarkPreDealCategories samples 10,000 ten-position deals.
func BenchmarkPreDealCategories(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := odds.PreDealCategories(10, 10_000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

var expressSink *odds.Express

// BenchmarkExpress is the exact EXPRESS enumeration the pocket round's
// suspension needs (issue 23) on one worker: every ordered deal of flop,
// turn and river for 2, 6 and 10 positions. Its cpu-ns/op is the thread's
// CPU time, which on a shared machine, unlike ns/op, does not count the
// time other processes held the core.
func BenchmarkExpress(b *testing.B) {
	for _, c := range []struct {
		name string
		ps   [][2]cards.Card
	}{
		{"2", tenPockets[:2]}, {"6", tenPockets[:6]}, {"10", tenPockets},
	} {
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0 := cpuclock.Thread()
			for b.Loop() {
				var err error
				if expressSink, err = odds.ComputeExpress(c.ps, 1); err != nil {
					b.Fatal(err)
				}
			}
			if t1 := cpuclock.Thread(); t1 > 0 {
				b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
