package parimutuel

import (
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// Leaders returns the positions (1-based, ascending) whose best five of
// their pocket plus board rank highest: the leaders after the flop or turn,
// or the winners after the river (SPEC 1.3, 1.4). board holds 3 to 5 cards.
// Every position ties when the board plays for all.
func Leaders(pockets [][2]cards.Card, board []cards.Card) []int {
	var best hand.Value
	var out []int
	cs := make([]cards.Card, 0, 7)
	for i, p := range pockets {
		cs = append(cs[:0], p[0], p[1])
		cs = append(cs, board...)
		v := hand.Evaluate(cs)
		switch {
		case v > best:
			best, out = v, append(out[:0], i+1)
		case v == best:
			out = append(out, i+1)
		}
	}
	return out
}

// WinningCategory is the category of the winning hand of a fully dealt draw.
func WinningCategory(pockets [][2]cards.Card, board [5]cards.Card) Combination {
	var best hand.Value
	for _, p := range pockets {
		if v := hand.Eval7(p[0], p[1], board[0], board[1], board[2], board[3], board[4]); v > best {
			best = v
		}
	}
	return best.Category()
}

// OutcomeOf is what a fully dealt draw decided: the winners, the winning
// category, and the leaders after the flop and after the turn.
func OutcomeOf(deal cards.ToteDeal) Outcome {
	board := deal.Board()
	return Outcome{
		Winners:     Leaders(deal.Pockets, board[:]),
		Category:    WinningCategory(deal.Pockets, board),
		FlopLeaders: Leaders(deal.Pockets, board[:3]),
		TurnLeaders: Leaders(deal.Pockets, board[:4]),
	}
}
