package liveodds

import (
	"context"
	"sync"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// Exact is the OddsEngine of production: exact enumeration by
// domain/odds once pockets are dealt, and before the deal a sampled category distribution,
// computed once per table size and labelled with its sample size.
type Exact struct {
	// Samples is the pre-deal sample size (default 200,000).
	Samples int

	mu      sync.Mutex
	predeal map[int]tote.LiveOdds
}

var _ tote.OddsEngine = (*Exact)(nil)

// PreDeal implements OddsEngine: every position has equity 1/n; the winning
// category's distribution is estimated.
func (e *Exact) PreDeal(_ context.Context, n int) (tote.LiveOdds, error) {
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
		return tote.LiveOdds{}, err
	}
	o := tote.LiveOdds{Phase: tote.PhasePreDeal, SampleSize: est.Samples}
	for p := 1; p <= n; p++ {
		o.Positions = append(o.Positions, tote.PositionOdds{Position: p, Equity: 1 / float64(n)})
	}
	for c := range hand.NumCategories {
		o.Categories = append(o.Categories, tote.CategoryOdds{Category: hand.Category(c), Probability: est.Probability(hand.Category(c)), Count: est.Categories[c]})
	}
	if e.predeal == nil {
		e.predeal = map[int]tote.LiveOdds{}
	}
	e.predeal[n] = o
	return o, nil
}

// Live implements OddsEngine by exact enumeration of the unseen cards,
// shared with the round's chances of the same cards (odds.ComputeShared).
func (e *Exact) Live(_ context.Context, pockets [][2]cards.Card, board []cards.Card) (tote.LiveOdds, error) {
	r, err := odds.ComputeShared(pockets, board)
	if err != nil {
		return tote.LiveOdds{}, err
	}
	o := tote.LiveOdds{Phase: streetPhase(len(board)), Street: StreetOf(len(board)), Boards: r.Boards, Exact: true}
	for i, p := range r.Positions {
		o.Positions = append(o.Positions, tote.PositionOdds{
			Position: i + 1, Win: p.WinProbability(), Tie: p.TieProbability(), Equity: p.Equity(),
			WinBoards: p.Wins, TieBoards: p.Ties,
		})
	}
	for c := range hand.NumCategories {
		o.Categories = append(o.Categories, tote.CategoryOdds{Category: hand.Category(c), Probability: r.CategoryProbability(hand.Category(c)), Count: r.Categories[c]})
	}
	if len(board) >= 3 {
		o.Leaders = parimutuel.Leaders(pockets, board)
	}
	return o, nil
}

// streetPhase is the phase whose odds a board of n cards gives.
func streetPhase(n int) tote.Phase {
	switch n {
	case 0:
		return tote.PhasePocket
	case 3:
		return tote.PhaseFlop
	case 4:
		return tote.PhaseTurn
	}
	return tote.PhaseDealingRiver
}

// StreetOf names the street a board of n cards completes: POCKET (no board
// yet), FLOP, TURN or RIVER.
func StreetOf(n int) string {
	switch n {
	case 0:
		return tote.StreetPocket
	case 3:
		return tote.StreetFlop
	case 4:
		return tote.StreetTurn
	}
	return tote.StreetRiver
}
