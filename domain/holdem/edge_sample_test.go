package holdem_test

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/holdem"
)

// The main game's house edge under optimal decisions, estimated from a
// seeded stratified sample of flops. Each sampled flop's value is exact
// (EvaluateFlop plays every pocket, turn, river and dealer hand with
// optimal decisions), so all the uncertainty is which flops were drawn.
// The 22 100 flops are split into strata by what drives their value (see
// flopStratum); each stratum gets a share of the sample proportional to its
// size, at least two flops, drawn without replacement. The estimate is the
// stratified mean, its variance the textbook one with the finite population
// correction:
//
//	Ŷ = Σ W_h ȳ_h,  Var(Ŷ) = Σ W_h² (1 − n_h/N_h) s_h² / n_h,  W_h = N_h/N.
//
// The exact figure, from cmd/holdem-edge, is 1363917077/63213204600 =
// 2.157646%; the published one is 2.16%.
const (
	publishedEdge = 0.0216
	z999          = 3.2905 // two-sided 99.9% normal quantile
)

// edgeSample is the sample size asked for and the widest 99.9% half-width
// the test accepts. Under -race the flop kernel runs about 3.5 times slower,
// so the sample is half as large, and -short (the fast loop) takes the same
// half. From the exact per-flop values, this design's standard error is
// 0.064 points of edge with n = 600 (634 flops drawn, 530 classes
// evaluated) and 0.090 with n = 300 (351 flops drawn).
func edgeSample() (size int, maxHalfWidth float64) {
	if raceDetector || testing.Short() {
		return 300, 0.004
	}
	return 600, 0.003
}

func TestMainGameEdgeSampled(t *testing.T) {
	size, maxHalf := edgeSample()
	strata := map[string][][3]cards.Card{}
	var all int
	for a := cards.Card(0); a < cards.NumCards; a++ {
		for b := a + 1; b < cards.NumCards; b++ {
			for c := b + 1; c < cards.NumCards; c++ {
				f := [3]cards.Card{a, b, c}
				key := flopStratum(f)
				strata[key] = append(strata[key], f)
				all++
			}
		}
	}
	names := slices.Sorted(maps.Keys(strata))
	rng := rand.New(rand.NewPCG(2024, 3))
	samples := map[string][][3]cards.Card{}
	classes := map[[3]cards.Card]float64{}
	for _, name := range names {
		pop := strata[name]
		n := min(len(pop), max(2, int(math.Round(float64(size)*float64(len(pop))/float64(all)))))
		rng.Shuffle(len(pop), func(i, j int) { pop[i], pop[j] = pop[j], pop[i] })
		samples[name] = pop[:n]
		for _, f := range pop[:n] {
			classes[holdem.CanonicalFlop(f)] = 0
		}
	}
	evaluateClasses(classes)

	var est, variance float64
	drawn := 0
	for _, name := range names {
		pop, s := strata[name], samples[name]
		var mean, m2 float64
		for i, f := range s {
			y := classes[holdem.CanonicalFlop(f)]
			d := y - mean
			mean += d / float64(i+1)
			m2 += d * (y - mean)
		}
		nh, Nh := float64(len(s)), float64(len(pop))
		w := Nh / float64(all)
		est += w * mean
		variance += w * w * (1 - nh/Nh) * m2 / (nh - 1) / nh
		drawn += len(s)
	}
	edge, se := -est, math.Sqrt(variance)
	lo, hi := edge-z999*se, edge+z999*se
	t.Logf("%d flops in %d strata (%d classes evaluated): house edge %.4f%% ± %.4f%% (standard error), 99.9%% interval [%.4f%%, %.4f%%]",
		drawn, len(names), len(classes), 100*edge, 100*se, 100*lo, 100*hi)
	if publishedEdge < lo || publishedEdge > hi {
		t.Errorf("the published edge %.2f%% is outside the 99.9%% interval [%.4f%%, %.4f%%]", 100*publishedEdge, 100*lo, 100*hi)
	}
	if z999*se > maxHalf {
		t.Errorf("the 99.9%% interval is ±%.4f%%, wider than ±%.2f%%", 100*z999*se, 100*maxHalf)
	}
}

// evaluateClasses fills in each flop class's exact optimal player return,
// in antes, on every core.
func evaluateClasses(classes map[[3]cards.Card]float64) {
	flops := slices.SortedFunc(maps.Keys(classes), func(a, b [3]cards.Card) int { return slices.Compare(a[:], b[:]) })
	values := make([]float64, len(flops))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				values[i], _ = holdem.EvaluateFlop(holdem.DefaultAntePaytable(), flops[i]).PlayerReturn().Float64()
			}
		})
	}
	for i := range flops {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, f := range flops {
		classes[f] = values[i]
	}
}

// flopStratum names a flop's stratum from what moves its value most, all of
// it invariant under suit permutations: the ranks' pattern (three of a kind,
// a pair, three ranks); for a pair, whether it is fours or higher (the
// dealer then always qualifies) and how high it is; the number of suits; for
// three ranks, how many are twos or threes (pairing them does not qualify
// the dealer), how high the ranks are, whether they fit in a five-rank
// straight window, and how many tens or higher share a suit (royal and
// straight flush chances).
func flopStratum(f [3]cards.Card) string {
	r := []int{int(f[0].Rank()), int(f[1].Rank()), int(f[2].Rank())}
	slices.Sort(r)
	bySuit := map[cards.Suit][]int{}
	for _, c := range f {
		bySuit[c.Suit()] = append(bySuit[c.Suit()], int(c.Rank()))
	}
	suits := len(bySuit)
	switch {
	case r[0] == r[2]:
		return "trips"
	case r[0] == r[1] || r[1] == r[2]:
		pair := r[1]
		return fmt.Sprintf("pair, fours or higher %v, height %d/4, %d suits", pair >= int(cards.Four), pair*4/13, suits)
	}
	low, suitedHigh := 0, 0
	for _, x := range r {
		if x < int(cards.Four) {
			low++
		}
	}
	for _, rs := range bySuit {
		high := 0
		for _, x := range rs {
			if x >= int(cards.Ten) {
				high++
			}
		}
		if len(rs) >= 2 {
			suitedHigh = max(suitedHigh, high)
		}
	}
	connected := r[2]-r[0] <= 4 || r[2] == int(cards.Ace) && r[1] <= int(cards.Five)
	return fmt.Sprintf("three ranks, %d suits, %d below four, rank sum %d/4, connected %v, suited tens or higher %d",
		suits, low, (r[0]+r[1]+r[2])*4/34, connected, suitedHigh)
}
