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
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
)

// Market is what a bet is on. The string values are stored and published and
// never change.
type Market string

// The three markets of SPEC 1.4.
const (
	// MarketWin is a bet on a position winning (alone or in a tie).
	MarketWin Market = "WIN"
	// MarketCombination is a bet on the category of the winning hand.
	MarketCombination Market = "COMBINATION"
	// MarketExpress is a coupon of three predictions: the leader after the
	// flop, the leader after the turn and the winner after the river.
	MarketExpress Market = "EXPRESS"
)

// Markets lists every market in display order.
var Markets = []Market{MarketWin, MarketCombination, MarketExpress}

// Validate reports an Invalid error (reason UNKNOWN_MARKET) unless m is one of
// the three markets.
func (m Market) Validate() error {
	switch m {
	case MarketWin, MarketCombination, MarketExpress:
		return nil
	}
	return errs.R(errs.Invalid, "UNKNOWN_MARKET", "%q is not a market: choose WIN, COMBINATION or EXPRESS", string(m))
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
		return errs.R(errs.Invalid, "UNKNOWN_ROUND", "round %d does not exist: rounds are 1 (PRE_DEAL) to 4 (TURN)", int(r))
	}
	return nil
}

// Offers reports whether market m takes bets in round r: WIN and COMBINATION
// in rounds 1 to 4, EXPRESS in rounds 1 and 2 only (its first prediction is
// the flop leader, so it must close before the flop is known).
func (m Market) Offers(r Round) bool {
	if r.Validate() != nil {
		return false
	}
	switch m {
	case MarketWin, MarketCombination:
		return true
	case MarketExpress:
		return r <= RoundPocket
	}
	return false
}

// CheckMarketRound reports an Invalid error when the market or the round does
// not exist (UNKNOWN_MARKET, UNKNOWN_ROUND) or the market takes no bets in that
// round (MARKET_NOT_OFFERED_IN_ROUND).
func CheckMarketRound(m Market, r Round) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := r.Validate(); err != nil {
		return err
	}
	if !m.Offers(r) {
		return errs.R(errs.Invalid, "MARKET_NOT_OFFERED_IN_ROUND", "%s bets are not taken in round %s: EXPRESS closes after round POCKET", m, r)
	}
	return nil
}

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

// The smallest and largest table (SPEC 1: positions 2..10).
const (
	MinPositions = 2
	MaxPositions = 10
)

// CheckTableSize reports an Invalid error unless a table of n positions can
// exist.
func CheckTableSize(n int) error {
	if n < MinPositions || n > MaxPositions {
		return errs.R(errs.Invalid, "INVALID_TABLE_SIZE", "a table has 2 to 10 positions, not %d", n)
	}
	return nil
}

// Validate reports whether s is a well-formed selection for a table of n
// positions. Errors are Invalid with a stable reason: INVALID_TABLE_SIZE (n is
// not 2..10), UNKNOWN_MARKET, INVALID_SELECTION (a field of another market is
// set, or the category is not 0..9) or POSITION_OUT_OF_RANGE (a position is
// not 1..n).
func (s Selection) Validate(n int) error {
	if err := CheckTableSize(n); err != nil {
		return err
	}
	if err := s.Market.Validate(); err != nil {
		return err
	}
	shape := func() error {
		return errs.R(errs.Invalid, "INVALID_SELECTION", "a %s selection sets only its own field", s.Market)
	}
	position := func(what string, p int) error {
		if p < 1 || p > n {
			return errs.R(errs.Invalid, "POSITION_OUT_OF_RANGE", "%s %d is not on this table: positions are 1 to %d", what, p, n)
		}
		return nil
	}
	switch s.Market {
	case MarketWin:
		if s.Combination != 0 || s.Coupon != (Coupon{}) {
			return shape()
		}
		return position("position", s.Position)
	case MarketCombination:
		if s.Position != 0 || s.Coupon != (Coupon{}) {
			return shape()
		}
		if !validCombination(s.Combination) {
			return errs.R(errs.Invalid, "INVALID_SELECTION", "hand category %d does not exist: categories are HIGH_CARD to ROYAL_FLUSH", int(s.Combination))
		}
		return nil
	default: // MarketExpress
		if s.Position != 0 || s.Combination != 0 {
			return shape()
		}
		if err := position("flop leader", s.Coupon.Flop); err != nil {
			return err
		}
		if err := position("turn leader", s.Coupon.Turn); err != nil {
			return err
		}
		return position("river winner", s.Coupon.River)
	}
}

// String returns the canonical storage form of the selection without its
// market: "3" for WIN position 3, "FLUSH" for COMBINATION, "2-5-5" for an
// EXPRESS coupon (flop-turn-river). ParseSelection reads it back; the market is
// stored beside it.
func (s Selection) String() string {
	switch s.Market {
	case MarketWin:
		return strconv.Itoa(s.Position)
	case MarketCombination:
		return s.Combination.String()
	case MarketExpress:
		c := s.Coupon
		return strconv.Itoa(c.Flop) + "-" + strconv.Itoa(c.Turn) + "-" + strconv.Itoa(c.River)
	}
	return "?"
}

// ParseSelection reads the canonical form written by Selection.String for
// market m. It accepts exactly one spelling per selection (no signs, spaces,
// leading zeros or lower case), and positions 1..10; check the table's own
// size with Validate. Errors are Invalid: UNKNOWN_MARKET or INVALID_SELECTION.
func ParseSelection(m Market, text string) (Selection, error) {
	if err := m.Validate(); err != nil {
		return Selection{}, err
	}
	bad := func() (Selection, error) {
		return Selection{}, errs.R(errs.Invalid, "INVALID_SELECTION", "%q is not a %s selection", text, m)
	}
	switch m {
	case MarketWin:
		p, ok := parsePosition(text)
		if !ok {
			return bad()
		}
		return WinSelection(p), nil
	case MarketCombination:
		c, err := hand.ParseCategory(text)
		if err != nil {
			return bad()
		}
		return CombinationSelection(c), nil
	default: // MarketExpress
		parts := strings.Split(text, "-")
		if len(parts) != 3 {
			return bad()
		}
		var ps [3]int
		for i, part := range parts {
			p, ok := parsePosition(part)
			if !ok {
				return bad()
			}
			ps[i] = p
		}
		return ExpressSelection(ps[0], ps[1], ps[2]), nil
	}
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
	if p > MaxPositions {
		return 0, false
	}
	return p, true
}
