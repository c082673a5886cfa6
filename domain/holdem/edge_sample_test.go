package holdem_test

import (
	"fmt"
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

// edgeSample is the sample size and the widest 99.9% half-width the test
// accepts. Under -race the sample is smaller (about 10x slower evaluation)
// and the interval accordingly wider.
func edgeSample() (flops int, maxHalfWidth float64) {
	if raceDetector {
		return 80, 0.012
	}
	return 400, 0.005
}

func TestMainGameEdgeSampled(t *testing.T) {
	size, maxHalf := edgeSample()
	strata := map[string][][3]cards.Card{}
	var all int
	for a := cards.Card(0); a < cards.NumCards; a++ {
		for b := a + 1; b < cards.NumCards; b++ {
			for c := b + 1; c < cards.NumCards; c++ {
				f := [3]cards.Card{a, b, c}
				strata[flopStratum(f)] = append(strata[flopStratum(f)], f)
				all++
			}
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range strata {
			if !yield(k) {
				return
			}
		}
	})
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
	keys := make(chan [3]cards.Card)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for f := range keys {
				tally := holdem.EvaluateFlop(holdem.DefaultAntePaytable(), f)
				y, _ := tally.PlayerReturn().Float64()
				mu.Lock()
				classes[f] = y
				mu.Unlock()
			}
		})
	}
	for f := range classes {
		keys <- f
	}
	close(keys)
	wg.Wait()
}

// flopStratum names a flop's stratum from what moves its value most: the
// ranks' pattern (three of a kind, a pair, three ranks), whether a board pair
// is fours or higher (the dealer then always qualifies), the suits' pattern
// (one, two or three suits), how high the ranks are, and whether three
// unpaired ranks fit in a five-rank straight window. All of it is invariant
// under suit permutations.
func flopStratum(f [3]cards.Card) string {
	r := []int{int(f[0].Rank()), int(f[1].Rank()), int(f[2].Rank())}
	slices.Sort(r)
	suits := map[cards.Suit]bool{f[0].Suit(): true, f[1].Suit(): true, f[2].Suit(): true}
	switch {
	case r[0] == r[2]:
		return "trips"
	case r[0] == r[1] || r[1] == r[2]:
		pair := r[1]
		return fmt.Sprintf("pair %v, pair rank %d/4, %d suits", pair >= int(cards.Four), pair*4/13, len(suits))
	}
	connected := r[2]-r[0] <= 4 || r[2] == int(cards.Ace) && r[1] <= int(cards.Five)
	return fmt.Sprintf("unpaired, %d suits, rank sum %d/4, connected %v", len(suits), (r[0]+r[1]+r[2])*4/34, connected)
}
