package parimutuel

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

// Outcome is what a draw decided, as the pools need it. Position sets hold
// each position once; a tie puts several positions in a set, and a board that
// plays for everybody puts every position in Winners.
type Outcome struct {
	Winners     []int       // positions with the best hand after the river
	Category    Combination // category of the winning hand (COMBINATION)
	FlopLeaders []int       // positions leading after the flop (EXPRESS)
	TurnLeaders []int       // positions leading after the turn (EXPRESS)
	// Hands is every position's best hand after the river, position p at
	// index p-1, for a market that ranks the positions (ReadsHands). A
	// result does not publish it: a verifier recomputes it from the
	// published cards.
	Hands []hand.Value
}

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
// category, the leaders after the flop and after the turn, and every
// position's final hand.
func OutcomeOf(deal cards.ToteDeal) Outcome {
	board := deal.Board()
	return Outcome{
		Winners:     Leaders(deal.Pockets, board[:]),
		Category:    WinningCategory(deal.Pockets, board),
		FlopLeaders: Leaders(deal.Pockets, board[:3]),
		TurnLeaders: Leaders(deal.Pockets, board[:4]),
		Hands:       FinalHands(deal.Pockets, board),
	}
}

// FinalHands is every position's best hand of its pocket and the full
// board, position p at index p-1.
func FinalHands(pockets [][2]cards.Card, board [5]cards.Card) []hand.Value {
	out := make([]hand.Value, len(pockets))
	for i, p := range pockets {
		out[i] = hand.Eval7(p[0], p[1], board[0], board[1], board[2], board[3], board[4])
	}
	return out
}

// positionSet is a set of positions 1..10 as a bitmask.
type positionSet uint16

func (s positionSet) has(p int) bool { return p >= 1 && p <= cards.MaxPositions && s&(1<<p) != 0 }

// Decided is an Outcome checked against its table, as a market's Grade
// reads it. Each accessor reads one field of the outcome and panics when
// the market's spec does not declare it in Reads: NewRegistry grades every
// spec on an outcome of only what it reads, so a Grade reading more fails
// there, not in a settlement.
type Decided struct {
	o               Outcome
	reads           Reads
	n               int
	win, flop, turn positionSet
}

// need panics unless the outcome was checked for r.
func (d Decided) need(r Reads) {
	if d.reads&r == 0 {
		panic(fmt.Sprintf("a Grade reads %v of the outcome, which its market does not declare in Reads", r.Names()))
	}
}

// Winner reports whether position p is among the winners after the river.
func (d Decided) Winner(p int) bool { d.need(ReadsWinners); return d.win.has(p) }

// FlopLeader reports whether position p is among the leaders after the flop.
func (d Decided) FlopLeader(p int) bool { d.need(ReadsFlopLeaders); return d.flop.has(p) }

// TurnLeader reports whether position p is among the leaders after the turn.
func (d Decided) TurnLeader(p int) bool { d.need(ReadsTurnLeaders); return d.turn.has(p) }

// Category is the category of the winning hand.
func (d Decided) Category() Combination { d.need(ReadsCategory); return d.o.Category }

// Place is position p's place after the river: one more than the number of
// positions with a strictly better final hand, so tied positions share a
// place (two tied winners are both first and the next position third). It
// is 0 for a position not on the table.
func (d Decided) Place(p int) int {
	d.need(ReadsHands)
	if p < 1 || p > d.n {
		return 0
	}
	v, place := d.o.Hands[p-1], 1
	for _, w := range d.o.Hands {
		if w > v {
			place++
		}
	}
	return place
}

// Hand is position p's best hand after the river (0 for a position not on
// the table).
func (d Decided) Hand(p int) hand.Value {
	d.need(ReadsHands)
	if p < 1 || p > d.n {
		return 0
	}
	return d.o.Hands[p-1]
}

// checkOutcome validates what a market reading reads takes from o on a
// table of n positions (INVALID_OUTCOME), in the order of Outcome's
// fields, and returns it decided.
func checkOutcome(o Outcome, reads Reads, n int) (Decided, error) {
	d := Decided{o: o, reads: reads, n: n}
	set := func(what string, ps []int) (positionSet, error) {
		var s positionSet
		if len(ps) == 0 {
			return 0, errs.R(errs.Invalid, ReasonInvalidOutcome, "the outcome names no %s", what)
		}
		for _, p := range ps {
			if p < 1 || p > n {
				return 0, errs.R(errs.Invalid, ReasonInvalidOutcome, "%s %d is not on a table of %d positions", what, p, n)
			}
			if s.has(p) {
				return 0, errs.R(errs.Invalid, ReasonInvalidOutcome, "%s %d is named twice", what, p)
			}
			s |= 1 << p
		}
		return s, nil
	}
	var err error
	if reads&ReadsWinners != 0 {
		if d.win, err = set("winner", o.Winners); err != nil {
			return Decided{}, err
		}
	}
	if reads&ReadsCategory != 0 && !validCombination(o.Category) {
		return Decided{}, errs.R(errs.Invalid, ReasonInvalidOutcome, "the winning category %d does not exist", int(o.Category))
	}
	if reads&ReadsFlopLeaders != 0 {
		if d.flop, err = set("flop leader", o.FlopLeaders); err != nil {
			return Decided{}, err
		}
	}
	if reads&ReadsTurnLeaders != 0 {
		if d.turn, err = set("turn leader", o.TurnLeaders); err != nil {
			return Decided{}, err
		}
	}
	if reads&ReadsHands != 0 {
		if len(o.Hands) != n {
			return Decided{}, errs.R(errs.Invalid, ReasonInvalidOutcome, "the outcome has %d final hands for a table of %d positions", len(o.Hands), n)
		}
		for i, v := range o.Hands {
			if v == 0 {
				return Decided{}, errs.R(errs.Invalid, ReasonInvalidOutcome, "position %d has no final hand", i+1)
			}
		}
	}
	return d, nil
}

// sampleOutcome is an outcome of every field on a table of n positions:
// position 1 wins, position 2 led the flop and the last the turn, the hands
// descend by position.
func sampleOutcome(n int) Outcome {
	o := Outcome{Winners: []int{1}, Category: Pair, FlopLeaders: []int{2}, TurnLeaders: []int{n}}
	for p := range n {
		o.Hands = append(o.Hands, hand.Value(n-p))
	}
	return o
}
