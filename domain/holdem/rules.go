package holdem

import (
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

// The two thresholds of the game are "a pair of fours or better" (the dealer
// qualifies) and "a pair of aces or better" (the Bonus pays). Hand values are
// totally ordered, so each threshold is the value of the lowest five-card hand
// that meets it: the pair with the three lowest kickers that cannot make
// anything better. Five cards holding a pair have only four ranks, so 4-4-5-3-2
// and A-A-4-3-2 are plain pairs, and every pair of fours (aces) or better,
// from five or from seven cards, ranks at or above them.
var (
	lowestPairOfFours = hand.Evaluate(cards.MustParseList("4c 4d 5h 3s 2c"))
	lowestPairOfAces  = hand.Evaluate(cards.MustParseList("Ac Ad 4h 3s 2c"))
)

// DealerQualifies reports whether the dealer's hand v is a pair of fours or
// better, the least hand with which the dealer plays against a called box.
func DealerQualifies(v hand.Value) bool { return v >= lowestPairOfFours }

// BonusQualifies reports whether the first-five-cards hand v is a pair of
// aces or better, the least hand that wins the Bonus.
func BonusQualifies(v hand.Value) bool { return v >= lowestPairOfAces }

// BonusOdds returns the "N to 1" odds the Bonus wager wins on the hand v of
// the first five cards (two pocket cards and the flop): 0 when v is below a
// pair of aces, the Bonus paytable's entry for its category otherwise.
func (c Config) BonusOdds(v hand.Value) int64 {
	if !BonusQualifies(v) {
		return 0
	}
	return c.Bonus.Odds(v.Category())
}
