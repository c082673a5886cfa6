package tote

import (
	"context"
	"sync"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// ExactOdds is the OddsEngine of production: exact enumeration by
// domain/odds once pockets are dealt (spread over cores for the big
// pocket-deal case), and before the deal a sampled category distribution,
// computed once per table size and labelled with its sample size.
type ExactOdds struct {
	// Samples is the pre-deal sample size (default 200,000).
	Samples int
	// Workers bounds the goroutines of one enumeration (0: every core).
	Workers int

	mu      sync.Mutex
	predeal map[int]LiveOdds
}

var _ OddsEngine = (*ExactOdds)(nil)

// PreDeal implements OddsEngine: every position has equity 1/n; the winning
// category's distribution is estimated.
func (e *ExactOdds) PreDeal(_ context.Context, n int) (LiveOdds, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if o, ok := e.predeal[n]; ok {
		return o, nil
	}
	samples := e.Samples
	if samples <= 0 {
		samples = 200_000
	}
	est, err := odds.PreDealCategories(n, samples, uint64(n))
	if err != nil {
		return LiveOdds{}, err
	}
	o := LiveOdds{Phase: PhasePreDeal, SampleSize: est.Samples}
	for p := 1; p <= n; p++ {
		o.Positions = append(o.Positions, PositionOdds{Position: p, Equity: 1 / float64(n)})
	}
	for c := range hand.NumCategories {
		o.Categories = append(o.Categories, CategoryOdds{Category: hand.Category(c), Probability: est.Probability(hand.Category(c)), Count: est.Categories[c]})
	}
	if e.predeal == nil {
		e.predeal = map[int]LiveOdds{}
	}
	e.predeal[n] = o
	return o, nil
}

// Live implements OddsEngine by exact enumeration of the unseen cards.
func (e *ExactOdds) Live(_ context.Context, pockets [][2]cards.Card, board []cards.Card) (LiveOdds, error) {
	r, err := odds.ComputeParallel(pockets, board, e.Workers)
	if err != nil {
		return LiveOdds{}, err
	}
	o := LiveOdds{Phase: streetPhase(len(board)), Street: StreetOf(len(board)), Boards: r.Boards, Exact: true}
	for i, p := range r.Positions {
		o.Positions = append(o.Positions, PositionOdds{
			Position: i + 1, Win: p.WinProbability(), Tie: p.TieProbability(), Equity: p.Equity(),
			WinBoards: p.Wins, TieBoards: p.Ties,
		})
	}
	for c := range hand.NumCategories {
		o.Categories = append(o.Categories, CategoryOdds{Category: hand.Category(c), Probability: r.CategoryProbability(hand.Category(c)), Count: r.Categories[c]})
	}
	if len(board) >= 3 {
		o.Leaders = parimutuel.Leaders(pockets, board)
	}
	return o, nil
}

// streetPhase is the phase whose odds a board of n cards gives.
func streetPhase(n int) Phase {
	switch n {
	case 0:
		return PhasePocket
	case 3:
		return PhaseFlop
	case 4:
		return PhaseTurn
	}
	return PhaseDealingRiver
}

// StreetOf names the street a board of n cards completes: POCKET (no board
// yet), FLOP, TURN or RIVER.
func StreetOf(n int) string {
	switch n {
	case 0:
		return StreetPocket
	case 3:
		return StreetFlop
	case 4:
		return StreetTurn
	}
	return StreetRiver
}
