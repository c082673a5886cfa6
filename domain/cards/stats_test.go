package cards_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

// The statistical tests of SPEC 1.8. Every test is deterministic: the seeds
// are fixed, so a run either always passes or always fails. Each test is a
// hypothesis test at 99% confidence against the distribution a perfect
// shuffle would give, and the negative controls (deliberately biased
// shuffles, run through the very same tests) show that the tests can fail.
//
// Critical values of the chi-square distribution come from the
// Wilson–Hilferty approximation: for df degrees of freedom and upper tail
// alpha, chi2 ≈ df·(1 − 2/(9df) + z·√(2/(9df)))³ with z the standard normal
// quantile of 1 − alpha. It is within 0.2% of the exact value from df = 2 up
// and far closer at the df used here (TestChiSquareCritical checks it).

// statAlpha is the significance level: a fair shuffle fails a test with
// probability 1%, for the fixed seeds either always or never.
const statAlpha = 0.01

// statPublic is the public seed of the statistical tests' shuffles.
var statPublic = []byte("pokertote statistical test")

// statSeed is the server seed of the i-th shuffle of a statistical test.
func statSeed(i int) cards.Seed {
	s := cards.Seed{8: 0xa5, 31: 0x5a}
	binary.BigEndian.PutUint64(s[:], uint64(i))
	return s
}

// shuffler is a shuffle under test: cards.Shuffle or a negative control.
type shuffler func(server cards.Seed, public []byte) cards.Deck

// tally is what the statistical tests count over many shuffles.
type tally struct {
	shuffles int
	// at[p][c] counts shuffles with card c at position p.
	at [cards.NumCards][cards.NumCards]int
	// pairs[a*52+b] counts shuffles whose cards at positions k and k+1 were
	// a then b, with k = i mod 51 for the i-th shuffle: one observation per
	// shuffle, so the observations are independent.
	pairs [cards.NumCards * cards.NumCards]int
	// runs is the total number of runs of low (card < 26) and high cards.
	runs int
}

func collect(shuffle shuffler, n int) *tally {
	t := &tally{shuffles: n}
	for i := range n {
		d := shuffle(statSeed(i), statPublic)
		for p, c := range d {
			t.at[p][c]++
		}
		k := i % (cards.NumCards - 1)
		t.pairs[int(d[k])*cards.NumCards+int(d[k+1])]++
		runs := 1
		for p := 1; p < cards.NumCards; p++ {
			if (d[p] < 26) != (d[p-1] < 26) {
				runs++
			}
		}
		t.runs += runs
	}
	return t
}

// result is one test's statistic against its critical value.
type result struct {
	name       string
	stat, crit float64
	detail     string
}

func (r result) pass() bool { return r.stat <= r.crit }

func (r result) String() string {
	verdict := "pass"
	if !r.pass() {
		verdict = "FAIL"
	}
	return fmt.Sprintf("%s%s: %.1f against %.1f: %s", r.name, r.detail, r.stat, r.crit, verdict)
}

// tableTest is the chi-square test of the whole 52×52 card-per-position
// table. Pearson's X² = Σ (O−E)²/E with E = shuffles/52 per cell. Every
// shuffle fills each row and each column once, so the cells are not
// independent: for a uniform permutation, X²·(n−1)/n is asymptotically
// chi-square with (n−1)² = 2601 degrees of freedom (n = 52).
func tableTest(t *tally) result {
	const n = cards.NumCards
	e := float64(t.shuffles) / n
	x2 := 0.0
	for p := range n {
		for c := range n {
			d := float64(t.at[p][c]) - e
			x2 += d * d / e
		}
	}
	return result{name: "card per position, 52x52 table", stat: x2 * (n - 1) / n, crit: chiSquareCritical((n-1)*(n-1), statAlpha)}
}

// positionTest is the chi-square test of each position on its own: the
// card at one position is uniform over 52 cards, a multinomial with 51
// degrees of freedom. Testing all 52 positions at once, each is held to
// alpha/52 (Bonferroni) so that the family stays at 99%; the result is
// the worst position.
func positionTest(t *tally) result {
	const n = cards.NumCards
	e := float64(t.shuffles) / n
	crit := chiSquareCritical(n-1, statAlpha/n)
	worst := result{name: "card per position, each position", crit: crit}
	for p := range n {
		x2 := 0.0
		for c := range n {
			d := float64(t.at[p][c]) - e
			x2 += d * d / e
		}
		if x2 >= worst.stat {
			worst.stat, worst.detail = x2, fmt.Sprintf(" (worst: position %d)", p)
		}
	}
	return worst
}

// pairTest is a serial test: the ordered pair of cards at adjacent
// positions is uniform over the 52·51 pairs of distinct cards, so its
// chi-square has 2651 degrees of freedom.
func pairTest(t *tally) result {
	const n = cards.NumCards
	e := float64(t.shuffles) / (n * (n - 1))
	x2 := 0.0
	for a := range n {
		for b := range n {
			o := float64(t.pairs[a*n+b])
			if a == b {
				if o != 0 {
					return result{name: "adjacent pairs", stat: math.Inf(1), detail: " (a card next to itself)"}
				}
				continue
			}
			x2 += (o - e) * (o - e) / e
		}
	}
	return result{name: "adjacent pairs", stat: x2, crit: chiSquareCritical(n*(n-1)-1, statAlpha)}
}

// runsTest is a Wald–Wolfowitz runs test: in a uniformly shuffled deck the
// pattern of 26 low and 26 high cards is a uniformly random arrangement,
// whose number of runs has mean 1 + 2·26·26/52 = 27 and variance
// 2·26·26·(2·26·26 − 52)/(52²·51). Over many decks the total is close to
// normal; the test is two-sided, |z| against the 99.5% normal quantile.
func runsTest(t *tally) result {
	const n1, n2, n = 26.0, 26.0, 52.0
	mean := 1 + 2*n1*n2/n
	variance := 2 * n1 * n2 * (2*n1*n2 - n) / (n * n * (n - 1))
	s := float64(t.shuffles)
	z := (float64(t.runs) - mean*s) / math.Sqrt(variance*s)
	return result{name: "runs of low and high cards", stat: math.Abs(z), crit: normalQuantile(1 - statAlpha/2), detail: ", |z|"}
}

// shuffleCount is how many shuffles a statistical test deals: statShuffles,
// or under -short (the fast loop) at most the race build's 100,000, at
// which every negative control still fails by a wide margin.
func shuffleCount() int {
	if testing.Short() {
		return min(statShuffles, 100_000)
	}
	return statShuffles
}

func TestShuffleStatistics(t *testing.T) {
	fair := collect(cards.Shuffle, shuffleCount())
	for _, r := range []result{tableTest(fair), positionTest(fair), pairTest(fair), runsTest(fair)} {
		t.Run(r.name, func(t *testing.T) {
			t.Log(r)
			if !r.pass() {
				t.Errorf("the shuffle fails at 99%% confidence over %d shuffles: %v", fair.shuffles, r)
			}
		})
	}
}

// TestBiasedShufflesFail runs deliberately broken shuffles through the
// same tests: each must fail the card-per-position table test, which shows
// that the test has the power to see real bias.
func TestBiasedShufflesFail(t *testing.T) {
	controls := []struct {
		name    string
		shuffle shuffler
	}{
		{"modulo bias: byte mod (i+1) without rejection", moduloShuffle},
		{"naive swap: every position with any of the 52", naiveShuffle},
		{"off by one: j in [0, i) (Sattolo)", offByOneShuffle},
	}
	for _, ctl := range controls {
		t.Run(ctl.name, func(t *testing.T) {
			tl := collect(ctl.shuffle, shuffleCount())
			for _, r := range []result{positionTest(tl), pairTest(tl), runsTest(tl)} {
				t.Log(r)
			}
			r := tableTest(tl)
			t.Log(r)
			if r.pass() {
				t.Errorf("the biased shuffle passed the table test: the test cannot see its bias")
			}
		})
	}
}

// moduloShuffle is Shuffle with the rejection step removed: j = byte mod
// (i+1), which favours the low values whenever 256 is not a multiple of
// i+1.
func moduloShuffle(server cards.Seed, public []byte) cards.Deck {
	d := cards.OrderedDeck()
	s := cards.NewStream(server, public)
	for i := cards.NumCards - 1; i > 0; i-- {
		j := int(s.Byte()) % (i + 1)
		d[i], d[j] = d[j], d[i]
	}
	return d
}

// naiveShuffle swaps every position with a uniformly chosen one of all 52:
// 52^52 equally likely paths onto 52! orders, which cannot be uniform.
func naiveShuffle(server cards.Seed, public []byte) cards.Deck {
	d := cards.OrderedDeck()
	s := cards.NewStream(server, public)
	for i := range d {
		j := s.IntN(cards.NumCards)
		d[i], d[j] = d[j], d[i]
	}
	return d
}

// offByOneShuffle draws j from [0, i) instead of [0, i]: a card never stays
// where it was, so the deck is always one 52-cycle.
func offByOneShuffle(server cards.Seed, public []byte) cards.Deck {
	d := cards.OrderedDeck()
	s := cards.NewStream(server, public)
	for i := cards.NumCards - 1; i > 0; i-- {
		j := s.IntN(i)
		d[i], d[j] = d[j], d[i]
	}
	return d
}

// TestIntNUniform checks the rejection sampler: IntN(n)'s values are
// uniform by chi-square with n−1 degrees of freedom at 99%, while the same
// bytes taken modulo n without rejection (the negative control) fail.
func TestIntNUniform(t *testing.T) {
	for _, n := range []int{3, 52} {
		t.Run(fmt.Sprintf("IntN(%d)", n), func(t *testing.T) {
			s := cards.NewStream(statSeed(1), []byte("IntN"))
			counts := make([]int, n)
			for range statDraws {
				counts[s.IntN(n)]++
			}
			r := uniformTest(fmt.Sprintf("IntN(%d)", n), counts, statDraws)
			t.Log(r)
			if !r.pass() {
				t.Errorf("IntN(%d) is not uniform: %v", n, r)
			}
		})
		t.Run(fmt.Sprintf("byte mod %d control", n), func(t *testing.T) {
			s := cards.NewStream(statSeed(1), []byte("IntN"))
			counts := make([]int, n)
			for range statDraws {
				counts[int(s.Byte())%n]++
			}
			r := uniformTest(fmt.Sprintf("byte mod %d", n), counts, statDraws)
			t.Log(r)
			if r.pass() {
				t.Errorf("modulo sampling passed: the test cannot see modulo bias")
			}
		})
	}
}

// TestStreamBytes checks the raw stream: its bytes are uniform (chi-square,
// 255 degrees of freedom) and serially uncorrelated (the lag-1 correlation
// r of n bytes is about normal with variance 1/n, so |r·√n| is held to the
// 99.5% normal quantile).
func TestStreamBytes(t *testing.T) {
	s := cards.NewStream(statSeed(2), []byte("bytes"))
	counts := make([]int, 256)
	const mean = 127.5
	var sxy, sxx float64
	prev := float64(s.Byte()) - mean
	counts[int(prev+mean)]++
	for range statDraws - 1 {
		b := s.Byte()
		counts[b]++
		x := float64(b) - mean
		sxy += prev * x
		sxx += x * x
		prev = x
	}
	t.Run("uniform bytes", func(t *testing.T) {
		r := uniformTest("stream bytes", counts, statDraws)
		t.Log(r)
		if !r.pass() {
			t.Errorf("stream bytes are not uniform: %v", r)
		}
	})
	t.Run("serial correlation", func(t *testing.T) {
		z := sxy / sxx * math.Sqrt(statDraws)
		r := result{name: "lag-1 serial correlation", stat: math.Abs(z), crit: normalQuantile(1 - statAlpha/2), detail: ", |z|"}
		t.Log(r)
		if !r.pass() {
			t.Errorf("stream bytes are serially correlated: %v", r)
		}
	})
}

// uniformTest is Pearson's chi-square test of counts against the uniform
// distribution over len(counts) values.
func uniformTest(name string, counts []int, total int) result {
	e := float64(total) / float64(len(counts))
	x2 := 0.0
	for _, o := range counts {
		d := float64(o) - e
		x2 += d * d / e
	}
	return result{name: name, stat: x2, crit: chiSquareCritical(len(counts)-1, statAlpha)}
}

// chiSquareCritical returns the value a chi-square variable with df degrees
// of freedom exceeds with probability alpha, by the Wilson–Hilferty
// approximation.
func chiSquareCritical(df int, alpha float64) float64 {
	k := float64(df)
	h := 2 / (9 * k)
	z := normalQuantile(1 - alpha)
	return k * math.Pow(1-h+z*math.Sqrt(h), 3)
}

// normalQuantile returns z with Φ(z) = p for the standard normal
// distribution, by bisection on Φ(z) = erfc(−z/√2)/2.
func normalQuantile(p float64) float64 {
	lo, hi := -40.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if math.Erfc(-mid/math.Sqrt2)/2 < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

func TestChiSquareCritical(t *testing.T) {
	tests := []struct {
		df    int
		alpha float64
		exact float64 // from the regularised incomplete gamma function
	}{
		{2, 0.01, 9.210340},
		{10, 0.01, 23.209251},
		{51, 0.01, 77.385962},
		{100, 0.01, 135.806723},
		{2601, 0.01, 2771.722955},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("df %d", tt.df), func(t *testing.T) {
			got := chiSquareCritical(tt.df, tt.alpha)
			if math.Abs(got-tt.exact)/tt.exact > 0.002 {
				t.Errorf("chiSquareCritical(%d, %g) = %.4f, exact %.4f", tt.df, tt.alpha, got, tt.exact)
			}
		})
	}
	if z := normalQuantile(0.995); math.Abs(z-2.5758293) > 1e-6 {
		t.Errorf("normalQuantile(0.995) = %.7f", z)
	}
}
