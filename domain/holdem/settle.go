package holdem

import (
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
)

// Outcome is how a box's Ante and Bet ended. The Bonus is judged apart from
// it, on the first five cards.
type Outcome string

// The outcomes of a box.
const (
	// OutcomeFold: the box folded (or timed out); the Ante is lost.
	OutcomeFold Outcome = "FOLD"
	// OutcomeDealerNotQualified: the dealer had less than a pair of fours; the
	// Ante is paid by the paytable and the Bet is returned.
	OutcomeDealerNotQualified Outcome = "DEALER_NOT_QUALIFIED"
	// OutcomeWin: the dealer qualified and the box ranks higher; the Ante is
	// paid by the paytable and the Bet 1:1.
	OutcomeWin Outcome = "WIN"
	// OutcomeLose: the dealer qualified and ranks higher; Ante and Bet are lost.
	OutcomeLose Outcome = "LOSE"
	// OutcomeStay: the dealer qualified and the best fives rank the same; Ante
	// and Bet are returned.
	OutcomeStay Outcome = "STAY"
)

// Ranked is a hand as the table shows it: its value, category, the five
// cards that make it, and an English description ("pair of aces").
type Ranked struct {
	Value       hand.Value
	Category    hand.Category
	Best        [5]cards.Card
	Description string
}

func rank(cs ...cards.Card) Ranked {
	v, best := hand.BestFive(cs)
	return Ranked{Value: v, Category: v.Category(), Best: best, Description: v.Describe()}
}

// BoxResult is the settlement of one box. Every Return is the whole amount
// paid back for that wager, the stake included (0 when the wager is lost).
type BoxResult struct {
	Box      int
	Stake    Stake
	Bet      money.Amount
	Decision Decision
	TimedOut bool
	Outcome  Outcome

	AnteReturn  money.Amount
	BetReturn   money.Amount
	BonusReturn money.Amount

	// Hand is the box's best five of seven cards.
	Hand Ranked
	// BonusHand is the box's first five cards (pocket and flop), which the
	// Bonus is judged on.
	BonusHand Ranked
}

// Staked is everything the box put at risk: Ante, Bonus and Bet.
func (b BoxResult) Staked() money.Amount { return b.Stake.Ante + b.Stake.Bonus + b.Bet }

// Returned is everything paid back to the player for the box.
func (b BoxResult) Returned() money.Amount { return b.AnteReturn + b.BetReturn + b.BonusReturn }

// Net is the player's result on the box: Returned minus Staked.
func (b BoxResult) Net() money.Amount { return b.Returned() - b.Staked() }

// Settlement is the result of a settled hand: each box, the dealer's hand,
// and the totals. PlayerNet + HouseNet is always 0.
type Settlement struct {
	Boxes           []BoxResult
	Dealer          Ranked
	DealerQualifies bool
	Staked          money.Amount
	Returned        money.Amount
	// PlayerNet is Returned minus Staked: the change of the player's wallet.
	PlayerNet money.Amount
	// HouseNet is -PlayerNet: the change of the house bank.
	HouseNet money.Amount
}

func (s Settlement) clone() Settlement {
	s.Boxes = append([]BoxResult(nil), s.Boxes...)
	return s
}

func (h *Hand) settle() {
	d := h.deal
	dealer := rank(d.Dealer[0], d.Dealer[1], d.Board[0], d.Board[1], d.Board[2], d.Board[3], d.Board[4])
	s := &Settlement{Dealer: dealer, DealerQualifies: DealerQualifies(dealer.Value)}
	for i, st := range h.stakes {
		p := d.Pockets[i]
		b := BoxResult{
			Box: i, Stake: st, Decision: h.decisions[i], TimedOut: h.timedOut[i],
			Hand:      rank(p[0], p[1], d.Board[0], d.Board[1], d.Board[2], d.Board[3], d.Board[4]),
			BonusHand: rank(p[0], p[1], d.Board[0], d.Board[1], d.Board[2]),
		}
		if st.Bonus > 0 {
			if odds := h.cfg.BonusOdds(b.BonusHand.Value); odds > 0 {
				b.BonusReturn = st.Bonus * money.Amount(1+odds)
			}
		}
		antePaid := st.Ante * money.Amount(1+h.cfg.Ante.Odds(b.Hand.Category))
		switch {
		case b.Decision != Call:
			b.Outcome = OutcomeFold
		case !s.DealerQualifies:
			b.Bet = 2 * st.Ante
			b.Outcome, b.AnteReturn, b.BetReturn = OutcomeDealerNotQualified, antePaid, b.Bet
		case b.Hand.Value > dealer.Value:
			b.Bet = 2 * st.Ante
			b.Outcome, b.AnteReturn, b.BetReturn = OutcomeWin, antePaid, 2*b.Bet
		case b.Hand.Value < dealer.Value:
			b.Bet = 2 * st.Ante
			b.Outcome = OutcomeLose
		default:
			b.Bet = 2 * st.Ante
			b.Outcome, b.AnteReturn, b.BetReturn = OutcomeStay, st.Ante, b.Bet
		}
		s.Boxes = append(s.Boxes, b)
		s.Staked += b.Staked()
		s.Returned += b.Returned()
	}
	s.PlayerNet = s.Returned - s.Staked
	s.HouseNet = -s.PlayerNet
	h.result = s
}
