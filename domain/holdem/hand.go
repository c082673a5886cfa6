package holdem

import (
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// MaxBoxes is how many boxes one player may play in a hand.
const MaxBoxes = 2

// Stake is what a player puts on one box before the cards are dealt: the
// Ante, and the optional Bonus (0 when not placed).
type Stake struct {
	Ante  money.Amount
	Bonus money.Amount
}

// Deal is the cards of one hand as plain values, however they were shuffled:
// two pocket cards per box (in box order), the dealer's two, and the five
// community cards in the order they are shown (Board[:3] is the flop,
// Board[3] the turn, Board[4] the river).
type Deal struct {
	Pockets [][2]cards.Card
	Dealer  [2]cards.Card
	Board   [5]cards.Card
}

// Flop returns the three community cards shown before the decisions.
func (d Deal) Flop() []cards.Card { return d.Board[:3:3] }

// Decision is a box's choice once it has seen its first five cards.
type Decision string

// The decisions. Undecided is the zero value of a box still waiting.
const (
	Undecided Decision = ""
	// Fold gives up the box: the Ante is lost, no Bet is placed.
	Fold Decision = "FOLD"
	// Call places the Bet, twice the Ante, and plays against the dealer.
	Call Decision = "CALL"
)

// Phase is where a hand stands.
type Phase string

// The phases of a hand. Cards are dealt as it starts, so a hand is either
// waiting for decisions or settled.
const (
	// Deciding: the boxes' and flop cards are out and a box must decide.
	Deciding Phase = "DECIDING"
	// Settled: every box has decided or timed out, turn and river are out,
	// the dealer's cards are shown and the money is settled.
	Settled Phase = "SETTLED"
)

// Hand is one hand of Casino Hold'em as a state machine: Start deals it,
// Decide records each box's choice in box order, Expire folds what a timeout
// left undecided, and once no box is left undecided the hand settles. A Hand
// is not safe for concurrent use; the caller serialises the events of a hand.
type Hand struct {
	cfg       Config
	stakes    []Stake
	deal      Deal
	decisions []Decision
	timedOut  []bool
	turn      int // the box awaiting a decision; len(stakes) once all decided
	deadline  time.Time
	result    *Settlement
}

// Start begins a hand at now on one or two boxes with the given stakes and
// cards; the first box's decision is due by now + cfg.DecisionTimeout.
// Stakes outside the Config's limits are Invalid errors; a malformed deal
// (wrong number of pockets, a card repeated or not a card) is Internal, as it
// is the server's mistake and never the player's.
func Start(cfg Config, stakes []Stake, deal Deal, now time.Time) (*Hand, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(stakes) < 1 || len(stakes) > MaxBoxes {
		return nil, errs.R(errs.Invalid, ReasonBoxCount, "play one or two boxes, not %d", len(stakes))
	}
	for i, s := range stakes {
		if s.Ante < cfg.MinAnte || s.Ante > cfg.MaxAnte {
			return nil, errs.R(errs.Invalid, ReasonAnteOutOfRange, "box %d: the ante must be between %s and %s KZT", i+1, cfg.MinAnte, cfg.MaxAnte)
		}
		if s.Bonus < 0 || s.Bonus > cfg.MaxBonus {
			return nil, errs.R(errs.Invalid, ReasonBonusOutOfRange, "box %d: the bonus must be between 0 and %s KZT", i+1, cfg.MaxBonus)
		}
	}
	if err := checkDeal(deal, len(stakes)); err != nil {
		return nil, err
	}
	d := deal
	d.Pockets = append([][2]cards.Card(nil), deal.Pockets...)
	return &Hand{
		cfg:       cfg,
		stakes:    append([]Stake(nil), stakes...),
		deal:      d,
		decisions: make([]Decision, len(stakes)),
		timedOut:  make([]bool, len(stakes)),
		deadline:  now.Add(cfg.DecisionTimeout),
	}, nil
}

func checkDeal(d Deal, boxes int) error {
	if len(d.Pockets) != boxes {
		return errs.R(errs.Internal, ReasonInvalidDeal, "the deal has %d pockets for %d boxes", len(d.Pockets), boxes)
	}
	all := append(d.Dealer[:], d.Board[:]...)
	for _, p := range d.Pockets {
		all = append(all, p[:]...)
	}
	var seen cards.Set
	for _, c := range all {
		if !c.Valid() || seen.Has(c) {
			return errs.R(errs.Internal, ReasonInvalidDeal, "the deal repeats a card or holds a non-card (%s)", c)
		}
		seen = seen.With(c)
	}
	return nil
}

// Phase reports whether the hand waits for a decision or is settled.
func (h *Hand) Phase() Phase {
	if h.result != nil {
		return Settled
	}
	return Deciding
}

// Turn returns the box (0-based) whose decision is awaited, and false once
// the hand is settled.
func (h *Hand) Turn() (int, bool) {
	if h.result != nil {
		return 0, false
	}
	return h.turn, true
}

// Deadline returns the instant the awaited decision times out; the zero time
// once the hand is settled.
func (h *Hand) Deadline() time.Time {
	if h.result != nil {
		return time.Time{}
	}
	return h.deadline
}

// Decide records box's decision at now. Boxes decide in order: the second
// box may decide only after the first. The errors, each with a stable
// reason: DECISION_TIMED_OUT (Conflict) when now is at or past the deadline,
// in which case the hand has just been expired and settled exactly as Expire
// would, and also when box was folded by an earlier expiry (so a late
// decision gets the same answer whether or not the sweeper came first);
// HAND_SETTLED (Conflict) once the hand is otherwise settled; NO_SUCH_BOX and
// INVALID_DECISION (Invalid); ALREADY_DECIDED and OUT_OF_TURN (Conflict).
// A Call's Bet is twice the box's Ante. The last decision settles the hand.
func (h *Hand) Decide(box int, d Decision, now time.Time) error {
	if h.result != nil {
		if box >= 0 && box < len(h.timedOut) && h.timedOut[box] {
			return errTimedOut()
		}
		return errs.R(errs.Conflict, ReasonHandSettled, "this hand is already settled")
	}
	if h.Expire(now) {
		return errTimedOut()
	}
	if box < 0 || box >= len(h.stakes) {
		return errs.R(errs.Invalid, ReasonNoSuchBox, "there is no box %d in this hand", box+1)
	}
	if d != Fold && d != Call {
		return errs.R(errs.Invalid, ReasonInvalidDecision, "decide FOLD or CALL, not %q", d)
	}
	if h.decisions[box] != Undecided {
		return errs.R(errs.Conflict, ReasonAlreadyDecided, "box %d has already decided %s", box+1, h.decisions[box])
	}
	if box != h.turn {
		return errs.R(errs.Conflict, ReasonOutOfTurn, "box %d must decide before box %d", h.turn+1, box+1)
	}
	h.decisions[box] = d
	h.turn++
	h.deadline = now.Add(h.cfg.DecisionTimeout)
	if h.turn == len(h.stakes) {
		h.settle()
	}
	return nil
}

func errTimedOut() error {
	return errs.R(errs.Conflict, ReasonDecisionTimedOut, "the time to decide has run out: undecided boxes were folded")
}

// Expire folds every undecided box and settles the hand when now is at or
// past the deadline, reporting whether it did. Before the deadline, or once
// the hand is settled, it does nothing.
func (h *Hand) Expire(now time.Time) bool {
	if h.result != nil || now.Before(h.deadline) {
		return false
	}
	for i := h.turn; i < len(h.stakes); i++ {
		h.decisions[i] = Fold
		h.timedOut[i] = true
	}
	h.turn = len(h.stakes)
	h.settle()
	return true
}

// Settlement returns the hand's settlement, and false while it is still
// waiting for a decision.
func (h *Hand) Settlement() (Settlement, bool) {
	if h.result == nil {
		return Settlement{}, false
	}
	return h.result.clone(), true
}
