package holdem

import "github.com/pokertote/pokertote/domain/money"

// Account names one side of a Casino Hold'em money movement.
type Account string

// The two accounts a hand moves money between.
const (
	PlayerWallet Account = "PLAYER_WALLET"
	HouseBank    Account = "HOUSE_BANK"
)

// LegKind says why a leg moves money.
type LegKind string

// The kinds of legs. Stakes move from the wallet to the house bank when they
// are committed: Ante and Bonus when the hand starts, the Bet when the box
// calls. A Payout moves a box's whole return (stakes given back included)
// from the house bank to the wallet when the hand settles.
const (
	LegAnte   LegKind = "ANTE"
	LegBonus  LegKind = "BONUS"
	LegBet    LegKind = "BET"
	LegPayout LegKind = "PAYOUT"
)

// Leg is one movement of a positive Amount between the player's wallet and
// the house bank, for one box. A ledger posts each leg as a balanced pair of
// entries (From -Amount, To +Amount).
type Leg struct {
	Box    int
	Kind   LegKind
	From   Account
	To     Account
	Amount money.Amount
}

// Legs returns every leg the hand has committed so far, oldest first: the
// Ante and Bonus of each box (from Start), the Bet of each box that called
// (in decision order, which is box order), and, once settled, a Payout for
// each box whose return is positive. A caller posts the legs it has not
// posted yet after each event. Once settled, the legs moving into the house
// bank minus those moving out equal the Settlement's HouseNet.
func (h *Hand) Legs() []Leg {
	var legs []Leg
	stake := func(box int, k LegKind, a money.Amount) {
		if a > 0 {
			legs = append(legs, Leg{Box: box, Kind: k, From: PlayerWallet, To: HouseBank, Amount: a})
		}
	}
	for i, s := range h.stakes {
		stake(i, LegAnte, s.Ante)
		stake(i, LegBonus, s.Bonus)
	}
	for i, s := range h.stakes {
		if h.decisions[i] == Call {
			stake(i, LegBet, 2*s.Ante)
		}
	}
	if h.result != nil {
		for _, b := range h.result.Boxes {
			if r := b.Returned(); r > 0 {
				legs = append(legs, Leg{Box: b.Box, Kind: LegPayout, From: HouseBank, To: PlayerWallet, Amount: r})
			}
		}
	}
	return legs
}
