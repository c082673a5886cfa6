// Package odds computes exact live odds for a poker totalizator draw: for
// each position the boards it wins alone, ties and loses, its exact equity,
// and how often each hand category wins the table, by enumerating every
// completion of the board from the cards not yet seen. Burned cards are
// unknown, so they are enumerated like any other card.
//
// Positions are numbered by their index in the pockets slice: index i is
// table position i+1.
package odds

import (
	"math/big"

	"github.com/pokertote/pokertote/domain/hand"
)

// Table sizes the package accepts.
const (
	MinPositions = 2
	MaxPositions = 10
)

// EquityUnit is what one whole board is worth in Position.EquityUnits. It
// is LCM(1..10), so that a board shared k ways (k up to MaxPositions) gives
// each winner exactly EquityUnit/k: equity is summed as integers and never
// drifts.
const EquityUnit = 2520

// Position is one position's tally over every board enumerated.
type Position struct {
	// Boards is how many boards were enumerated (the same for every
	// position); Wins + Ties + Losses == Boards.
	Boards int64
	// Wins counts the boards this position wins alone.
	Wins int64
	// Ties counts the boards on which this position shares the best hand.
	Ties int64
	// TiesBy[k] counts the boards shared by exactly k positions, this one
	// included (k = 2..MaxPositions); TiesBy[0] and TiesBy[1] stay zero.
	TiesBy [MaxPositions + 1]int64
	// Losses counts the boards on which another position has a better hand.
	Losses int64
	// EquityUnits is the position's equity: EquityUnit per board won alone
	// plus EquityUnit/k per board shared k ways.
	EquityUnits int64
}

// WinProbability returns the probability of winning alone, for display.
func (p Position) WinProbability() float64 { return ratio(p.Wins, p.Boards) }

// TieProbability returns the probability of sharing the best hand, for
// display.
func (p Position) TieProbability() float64 { return ratio(p.Ties, p.Boards) }

// LossProbability returns the probability of losing, for display.
func (p Position) LossProbability() float64 { return ratio(p.Losses, p.Boards) }

// Equity returns the expected share of the pot, for display: wins count 1,
// a k-way tie 1/k.
func (p Position) Equity() float64 { return ratio(p.EquityUnits, p.Boards*EquityUnit) }

// EquityRat returns the exact equity as a fraction.
func (p Position) EquityRat() *big.Rat {
	if p.Boards == 0 {
		return new(big.Rat)
	}
	return big.NewRat(p.EquityUnits, p.Boards*EquityUnit)
}

// Result is the outcome of an exact enumeration.
type Result struct {
	// Boards is how many complete boards were enumerated: 1 once the river
	// is known.
	Boards int64
	// Positions holds one tally per position, in the order of the pockets.
	Positions []Position
	// Categories[c] counts the boards whose best hand at the table (the
	// winning hand, shared or not) has category c; they sum to Boards.
	Categories [hand.NumCategories]int64
}

// CategoryProbability returns the probability that the winning hand has
// category c, for display.
func (r *Result) CategoryProbability(c hand.Category) float64 {
	if c >= hand.NumCategories {
		return 0
	}
	return ratio(r.Categories[c], r.Boards)
}

func ratio(n, d int64) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}
