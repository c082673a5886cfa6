package tote

import (
	"context"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// LiveOdds is the live odds display of SPEC 1.6 for one state of the deal:
// per position the exact chance of winning alone, of tying and the equity
// share, the distribution of the winning category, and the leaders with the
// board so far. It is stored on the draw and published with the card
// events.
type LiveOdds struct {
	// Phase is the draw's phase when the odds were computed. After the
	// river that is still DEALING_RIVER (the draw is not settled yet), so
	// Street is what says which cards the odds are for.
	Phase Phase `json:"phase"`
	// Street is the last street the odds include (POCKET, FLOP, TURN,
	// RIVER); empty before the deal.
	Street string `json:"street,omitempty"`
	// Boards is the number of boards enumerated exactly; 0 before the deal.
	Boards int64 `json:"boards"`
	// SampleSize labels an estimated category distribution (before the
	// deal); 0 when exact.
	SampleSize int64          `json:"sampleSize,omitempty"`
	Exact      bool           `json:"exact"`
	Positions  []PositionOdds `json:"positions"`
	Categories []CategoryOdds `json:"categories"`
	Leaders    []int          `json:"leaders,omitempty"`
}

// PositionOdds is one position's chances.
type PositionOdds struct {
	Position  int     `json:"position"`
	Win       float64 `json:"win"`    // probability of winning alone
	Tie       float64 `json:"tie"`    // probability of tying for the win
	Equity    float64 `json:"equity"` // expected share of the win
	WinBoards int64   `json:"winBoards"`
	TieBoards int64   `json:"tieBoards"`
}

// CategoryOdds is the probability that the winning hand is of one category.
type CategoryOdds struct {
	Category    parimutuel.Combination `json:"category"`
	Probability float64                `json:"probability"`
	Count       int64                  `json:"count"` // boards (or samples) ending so
}

// OddsEngine computes live odds. The dealer calls it after every street,
// outside any transaction; the app wires the exact enumerator of
// domain/odds.
type OddsEngine interface {
	// PreDeal is the display before any card: every position symmetric,
	// the category distribution possibly an estimate.
	PreDeal(ctx context.Context, positions int) (LiveOdds, error)
	// Live is the display for the given pockets (all dealt) and board (0,
	// 3, 4 or 5 cards), enumerating every unseen card.
	Live(ctx context.Context, pockets [][2]cards.Card, board []cards.Card) (LiveOdds, error)
}
