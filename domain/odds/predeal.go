package odds

import (
	"math/rand/v2"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

// MaxPreDealSamples bounds PreDealCategories' work: at most about a second
// on one core for ten positions.
const MaxPreDealSamples = 2_000_000

// Estimate is a sampled distribution of the winning hand's category, shown
// before the deal, when exact enumeration over every deal is out of reach.
// It must be labelled with its sample size.
type Estimate struct {
	Positions int
	// Samples is how many random deals were played out.
	Samples int64
	// Categories[c] counts the sampled deals won with a hand of category c.
	Categories [hand.NumCategories]int64
}

// Probability returns the estimated probability that the winning hand has
// category c.
func (e Estimate) Probability(c hand.Category) float64 {
	if c >= hand.NumCategories {
		return 0
	}
	return ratio(e.Categories[c], e.Samples)
}

// PreDealCategories estimates, before the pockets are dealt, how often each
// category wins a table of the given number of positions, by playing out
// samples random deals (2 cards per position and 5 board cards). The same
// seed gives the same Estimate.
func PreDealCategories(positions, samples int, seed uint64) (Estimate, error) {
	if positions < MinPositions || positions > MaxPositions {
		return Estimate{}, errs.R(errs.Invalid, ReasonWrongPositionCount,
			"a table has %d to %d positions, got %d", MinPositions, MaxPositions, positions)
	}
	if samples < 1 || samples > MaxPreDealSamples {
		return Estimate{}, errs.R(errs.Invalid, ReasonWrongSampleCount,
			"the sample size must be 1 to %d, got %d", MaxPreDealSamples, samples)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
	var deck [cards.NumCards]cards.Card
	for i := range deck {
		deck[i] = cards.Card(i)
	}
	need := 2*positions + 5
	est := Estimate{Positions: positions, Samples: int64(samples)}
	for range samples {
		for i := 0; i < need; i++ {
			j := i + rng.IntN(cards.NumCards-i)
			deck[i], deck[j] = deck[j], deck[i]
		}
		b := deck[2*positions : need]
		board := hand.KeyOfCards(b...)
		top := hand.Value(0)
		for p := 0; p < positions; p++ {
			pocket := hand.KeyOf(deck[2*p]).Add(hand.KeyOf(deck[2*p+1]))
			top = max(top, hand.EvalKey(board.Add(pocket)))
		}
		est.Categories[top.Category()]++
	}
	return est, nil
}
