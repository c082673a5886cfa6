package odds

import (
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// Values returns each position's best hand made of its pocket and the board
// so far (3, 4 or 5 cards), in the order of pockets.
func Values(pockets [][2]cards.Card, board []cards.Card) ([]hand.Value, error) {
	d, err := parseDeal(pockets, board, 3, 4, 5)
	if err != nil {
		return nil, err
	}
	vals := make([]hand.Value, len(d.pockets))
	for i, p := range d.pockets {
		vals[i] = hand.EvalKey(d.board.Add(p))
	}
	return vals, nil
}

// Leaders returns the positions (indexes into pockets, ascending) whose best
// hand with the board so far ranks highest: the EXPRESS market's leader
// after the flop (3 board cards) or the turn (4). Several leaders mean a
// tie; naming any of them counts as guessed. With 5 cards it equals
// Winners.
func Leaders(pockets [][2]cards.Card, board []cards.Card) ([]int, error) {
	vals, err := Values(pockets, board)
	if err != nil {
		return nil, err
	}
	return best(vals), nil
}

// Winners returns the positions (indexes into pockets, ascending) holding
// the best hand on the complete five-card board. When the board plays,
// every position wins.
func Winners(pockets [][2]cards.Card, board []cards.Card) ([]int, error) {
	if _, err := parseDeal(pockets, board, 5); err != nil {
		return nil, err
	}
	return Leaders(pockets, board)
}

func best(vals []hand.Value) []int {
	top := hand.Value(0)
	for _, v := range vals {
		top = max(top, v)
	}
	var out []int
	for i, v := range vals {
		if v == top {
			out = append(out, i)
		}
	}
	return out
}
