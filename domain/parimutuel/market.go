// Package parimutuel holds the rules of the poker totalizator: its markets,
// betting rounds and selections, and the pari-mutuel arithmetic that settles
// each pool (SPEC 1.4, 1.5, 1.7). It imports only money, hands, cards and
// errs; package tote runs the draws that these rules settle.
//
// The settlement functions are pure: they take the bets, the outcome and the
// settings, and return the published figures plus the money movements as
// balanced legs for the ledger to post. They read no clock, store or network.
package parimutuel

import (
	"strconv"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

// Market is what a bet is on. The string values are stored and published and
// never change.
type Market string

// The three markets of SPEC 1.4, declared in markets.go.
const (
	// MarketWin is a bet on a position winning (alone or in a tie).
	MarketWin Market = "WIN"
	// MarketCombination is a bet on the category of the winning hand.
	MarketCombination Market = "COMBINATION"
	// MarketExpress is a coupon of three predictions: the leader after the
	// flop, the leader after the turn and the winner after the river.
	MarketExpress Market = "EXPRESS"
)

// Validate reports an Invalid error (reason UNKNOWN_MARKET) unless m is a
// production market.
func (m Market) Validate() error {
	_, err := production.Spec(m)
	return err
}

// Round is a betting round of a draw, 1 to 4. Each round's bets form their
// own pools (SPEC 1.1).
type Round int

// The four betting rounds of SPEC 1.1.
const (
	RoundPreDeal Round = 1 // before any card is dealt
	RoundPocket  Round = 2 // after the pocket cards
	RoundFlop    Round = 3 // after the flop
	RoundTurn    Round = 4 // after the turn
)

var roundNames = [...]string{RoundPreDeal: "PRE_DEAL", RoundPocket: "POCKET", RoundFlop: "FLOP", RoundTurn: "TURN"}

// String returns the round's stable name: PRE_DEAL, POCKET, FLOP or TURN, and
// "ROUND(n)" for a value outside 1..4.
func (r Round) String() string {
	if r < RoundPreDeal || r > RoundTurn {
		return "ROUND(" + strconv.Itoa(int(r)) + ")"
	}
	return roundNames[r]
}

// Validate reports an Invalid error (reason UNKNOWN_ROUND) unless r is 1..4.
func (r Round) Validate() error {
	if r < RoundPreDeal || r > RoundTurn {
		return errs.R(errs.Invalid, ReasonUnknownRound, "round %d does not exist: rounds are 1 (PRE_DEAL) to 4 (TURN)", int(r))
	}
	return nil
}

// Offers reports whether production market m takes bets in round r: WIN
// and COMBINATION in rounds 1 to 4, EXPRESS in rounds 1 and 2 only (its
// first prediction is the flop leader, so it must close before the flop is
// known). It is false for a market or round that does not exist.
func (m Market) Offers(r Round) bool {
	s, ok := production.Lookup(m)
	return ok && s.Offers(r)
}

// CheckMarketRound reports an Invalid error when the market or the round does
// not exist (UNKNOWN_MARKET, UNKNOWN_ROUND) or the market takes no bets in that
// round (MARKET_NOT_OFFERED_IN_ROUND), for the production markets.
func CheckMarketRound(m Market, r Round) error { return production.CheckMarketRound(m, r) }

// Combination is the selection of the COMBINATION market: the category of
// the winning hand, the evaluator's own hand.Category (HighCard to
// RoyalFlush, royal flush separate), so the names in bets, results and odds
// are the evaluator's.
type Combination = hand.Category

// The ten hand categories, low to high.
const (
	HighCard      = hand.HighCard
	Pair          = hand.Pair
	TwoPair       = hand.TwoPair
	ThreeOfAKind  = hand.ThreeOfAKind
	Straight      = hand.Straight
	Flush         = hand.Flush
	FullHouse     = hand.FullHouse
	FourOfAKind   = hand.FourOfAKind
	StraightFlush = hand.StraightFlush
	RoyalFlush    = hand.RoyalFlush
)

// NumCombinations is the number of hand categories.
const NumCombinations = hand.NumCategories

// validCombination reports whether c is one of the ten categories.
func validCombination(c Combination) bool { return c < hand.NumCategories }

// Coupon is an EXPRESS prediction: the leader after the flop, the leader after
// the turn and the winner after the river, each a position 1..N.
type Coupon struct {
	Flop, Turn, River int
}

// Selection is what one bet backs. Exactly the field of its market is set and
// the others are zero, so two equal selections are equal Go values and a
// Selection can key a map. Build one with WinSelection, CombinationSelection,
// ExpressSelection or ParseSelection.
type Selection struct {
	Market      Market
	Position    int         // WIN: the backed position, 1..N
	Combination Combination // COMBINATION: the backed hand category
	Coupon      Coupon      // EXPRESS: the three predictions
}

// WinSelection backs position p in the WIN market.
func WinSelection(p int) Selection { return Selection{Market: MarketWin, Position: p} }

// CombinationSelection backs hand category c in the COMBINATION market.
func CombinationSelection(c Combination) Selection {
	return Selection{Market: MarketCombination, Combination: c}
}

// ExpressSelection is the EXPRESS coupon flop leader, turn leader, river
// winner.
func ExpressSelection(flop, turn, river int) Selection {
	return Selection{Market: MarketExpress, Coupon: Coupon{Flop: flop, Turn: turn, River: river}}
}

// CheckTableSize reports an Invalid error unless a table of n positions can
// exist: cards.MinPositions..cards.MaxPositions, 2..10 (SPEC 1).
func CheckTableSize(n int) error {
	if n < cards.MinPositions || n > cards.MaxPositions {
		return errs.R(errs.Invalid, ReasonInvalidTableSize, "a table has %d to %d positions, not %d", cards.MinPositions, cards.MaxPositions, n)
	}
	return nil
}

// Validate reports whether s is a well-formed selection for a table of n
// positions. Errors are Invalid with a stable reason: INVALID_TABLE_SIZE (n is
// not 2..10), UNKNOWN_MARKET, INVALID_SELECTION (a field of another market is
// set, or the category is not 0..9) or POSITION_OUT_OF_RANGE (a position is
// not 1..n).
func (s Selection) Validate(n int) error { return production.ValidateSelection(s, n) }

// String returns the canonical storage form of the selection without its
// market: "3" for WIN position 3, "FLUSH" for COMBINATION, "2-5-5" for an
// EXPRESS coupon (flop-turn-river), "?" for a market that does not exist.
// ParseSelection reads it back; the market is stored beside it.
func (s Selection) String() string { return production.Format(s) }

// ParseSelection reads the canonical form written by Selection.String for
// market m. It accepts exactly one spelling per selection (no signs, spaces,
// leading zeros or lower case), and positions 1..10; check the table's own
// size with Validate. Errors are Invalid: UNKNOWN_MARKET or INVALID_SELECTION.
func ParseSelection(m Market, text string) (Selection, error) {
	return production.ParseSelection(m, text)
}

// parsePosition reads "1".."10" written canonically.
func parsePosition(s string) (int, bool) {
	if len(s) == 0 || len(s) > 2 || s[0] < '1' || s[0] > '9' {
		return 0, false
	}
	p := int(s[0] - '0')
	if len(s) == 2 {
		if s[1] < '0' || s[1] > '9' {
			return 0, false
		}
		p = p*10 + int(s[1]-'0')
	}
	if p > cards.MaxPositions {
		return 0, false
	}
	return p, true
}
