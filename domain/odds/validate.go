package odds

import (
	"strconv"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

// deal is a validated table: the pockets' keys, the known board's key and
// the cards nobody has seen, low to high.
type deal struct {
	pockets []hand.Key
	board   hand.Key
	missing int // board cards still to come
	unseen  []cards.Card
}

// parseDeal validates pockets and a board of one of the sizes in allowed.
func parseDeal(pockets [][2]cards.Card, board []cards.Card, allowed ...int) (*deal, error) {
	if len(pockets) < MinPositions || len(pockets) > MaxPositions {
		return nil, errs.R(errs.Invalid, ReasonWrongPositionCount,
			"a table has %d to %d positions, got %d", MinPositions, MaxPositions, len(pockets))
	}
	if !contains(allowed, len(board)) {
		return nil, errs.R(errs.Invalid, ReasonWrongBoardSize,
			"the board has %d cards; want %s", len(board), boardSizes(allowed))
	}
	d := &deal{pockets: make([]hand.Key, len(pockets)), missing: 5 - len(board)}
	var seen cards.Set
	var owner [cards.NumCards]int8 // position index, or -1 for the board
	use := func(c cards.Card, who int) error {
		if !c.Valid() {
			return errs.R(errs.Invalid, cards.ReasonInvalidCard, "%s holds card number %d, which is not one of the 52 cards", placeName(who), uint8(c))
		}
		if seen.Has(c) {
			return errs.R(errs.Invalid, cards.ReasonDuplicateCard, "card %s is dealt twice: to %s and to %s", c, placeName(int(owner[c])), placeName(who))
		}
		seen = seen.With(c)
		owner[c] = int8(who)
		return nil
	}
	for i, p := range pockets {
		for _, c := range p {
			if err := use(c, i); err != nil {
				return nil, err
			}
		}
		d.pockets[i] = hand.KeyOf(p[0]).Add(hand.KeyOf(p[1]))
	}
	for _, c := range board {
		if err := use(c, -1); err != nil {
			return nil, err
		}
		d.board = d.board.Add(hand.KeyOf(c))
	}
	d.unseen = make([]cards.Card, 0, cards.NumCards-2*len(pockets)-len(board))
	for c := cards.Card(0); c < cards.NumCards; c++ {
		if !seen.Has(c) {
			d.unseen = append(d.unseen, c)
		}
	}
	return d, nil
}

// placeName names where a card went: a position (index + 1) or the board.
func placeName(who int) string {
	if who < 0 {
		return "the board"
	}
	return "position " + strconv.Itoa(who+1)
}
func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func boardSizes(allowed []int) string {
	names := map[int]string{0: "0 (before the flop)", 3: "3 (flop)", 4: "4 (turn)", 5: "5 (river)"}
	s := ""
	for i, n := range allowed {
		switch {
		case i == 0:
		case i == len(allowed)-1:
			s += " or "
		default:
			s += ", "
		}
		s += names[n]
	}
	return s
}
