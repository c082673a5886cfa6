package holdem

import (
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
)

// View is the hand as the player may see it. While the hand is deciding it
// shows the flop, every box that has decided, and the box whose turn it is;
// it hides the dealer's cards, the turn and river, and the pocket cards of
// any box after the one deciding (with two boxes, the second box's cards are
// shown only after the first box's decision). Once settled it shows all.
type View struct {
	Phase Phase
	// Turn is the box (0-based) whose decision is awaited; -1 once settled.
	Turn int
	// Deadline is when the awaited decision times out; zero once settled.
	Deadline time.Time
	Boxes    []BoxView
	// Board is the flop while deciding and all five community cards once settled.
	Board []cards.Card
	// Dealer is nil until the hand is settled.
	Dealer []cards.Card
	// Settlement is nil until the hand is settled.
	Settlement *Settlement
}

// BoxView is one box in a View.
type BoxView struct {
	Stake Stake
	// Bet is twice the Ante once the box has called, 0 otherwise.
	Bet      money.Amount
	Decision Decision
	// TimedOut reports that the box was folded because its time ran out.
	TimedOut bool
	// Visible reports whether the box's cards are shown; Pocket is nil when not.
	Visible bool
	Pocket  []cards.Card
}

// View returns what the player may see of the hand now.
func (h *Hand) View() View {
	settled := h.result != nil
	v := View{Phase: h.Phase(), Turn: -1, Boxes: make([]BoxView, len(h.stakes))}
	if settled {
		s := h.result.clone()
		v.Settlement = &s
		v.Board = append([]cards.Card(nil), h.deal.Board[:]...)
		v.Dealer = append([]cards.Card(nil), h.deal.Dealer[:]...)
	} else {
		v.Turn = h.turn
		v.Deadline = h.deadline
		v.Board = append([]cards.Card(nil), h.deal.Flop()...)
	}
	for i, s := range h.stakes {
		b := BoxView{Stake: s, Decision: h.decisions[i], TimedOut: h.timedOut[i]}
		if b.Decision == Call {
			b.Bet = 2 * s.Ante
		}
		if settled || i <= h.turn {
			b.Visible = true
			b.Pocket = append([]cards.Card(nil), h.deal.Pockets[i][:]...)
		}
		v.Boxes[i] = b
	}
	return v
}
