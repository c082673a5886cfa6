package odds_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
)

func TestPreDealCategories(t *testing.T) {
	const n = 20_000
	a, err := odds.PreDealCategories(10, n, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := odds.PreDealCategories(10, n, 7)
	if a != b {
		t.Error("the same seed gave different estimates")
	}
	c, _ := odds.PreDealCategories(10, n, 8)
	if a == c {
		t.Error("different seeds gave the same estimate")
	}
	var sum int64
	for _, k := range a.Categories {
		sum += k
	}
	if sum != n || a.Samples != n || a.Positions != 10 {
		t.Errorf("estimate %+v does not add up to %d samples", a, n)
	}
	// Ten players: the winner almost always holds two pair or better.
	if p := a.Probability(hand.TwoPair) + a.Probability(hand.ThreeOfAKind) + a.Probability(hand.Straight); p < 0.5 {
		t.Errorf("two pair..straight win only %.2f of ten-handed deals", p)
	}
	if a.Probability(hand.HighCard) > 0.01 {
		t.Errorf("high card wins %.3f of ten-handed deals", a.Probability(hand.HighCard))
	}
}

// TestPreDealSeedsAgree: two independent seeds must agree within sampling
// error (a percentage point at 50,000 deals is several standard errors).
func TestPreDealSeedsAgree(t *testing.T) {
	const n = 50_000
	a, _ := odds.PreDealCategories(2, n, 1)
	b, _ := odds.PreDealCategories(2, n, 2)
	for c := range hand.NumCategories {
		pa, pb := a.Probability(hand.Category(c)), b.Probability(hand.Category(c))
		if d := pa - pb; d > 0.01 || d < -0.01 {
			t.Errorf("%v: %.4f vs %.4f", hand.Category(c), pa, pb)
		}
	}
}

func TestPreDealInvalid(t *testing.T) {
	for _, tt := range []struct {
		positions, samples int
		reason             string
	}{
		{1, 100, "WRONG_POSITION_COUNT"},
		{11, 100, "WRONG_POSITION_COUNT"},
		{6, 0, "WRONG_SAMPLE_COUNT"},
		{6, odds.MaxPreDealSamples + 1, "WRONG_SAMPLE_COUNT"},
	} {
		_, err := odds.PreDealCategories(tt.positions, tt.samples, 1)
		if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != tt.reason {
			t.Errorf("PreDealCategories(%d, %d): error %v, want %s", tt.positions, tt.samples, err, tt.reason)
		}
	}
}
