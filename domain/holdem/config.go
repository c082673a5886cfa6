// Package holdem holds the rules of Casino Hold'em ("Texas Poker", SPEC §2):
// one player against the house on one or two boxes, fixed payouts. It is pure
// code: the cards come in as plain values, the clock comes in as a time.Time
// argument, and money comes out as exact integer amounts and ledger legs.
package holdem

import (
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/money"
)

// Paytable is the "N to 1" odds paid for each hand category. A winning wager
// is returned together with stake × odds. Odds are whole numbers, so every
// payout is exact.
//
// In the Ante paytable every entry must be at least 1 (a winning ante always
// wins something). In the Bonus paytable HighCard must be 0 and Pair is the
// odds for a pair of aces: lower pairs never pay the bonus.
type Paytable struct {
	RoyalFlush    int64
	StraightFlush int64
	FourOfAKind   int64
	FullHouse     int64
	Flush         int64
	Straight      int64
	ThreeOfAKind  int64
	TwoPair       int64
	Pair          int64
	HighCard      int64
}

// Odds returns the "N to 1" odds the paytable gives to a hand category.
func (p Paytable) Odds(c hand.Category) int64 {
	switch c {
	case hand.RoyalFlush:
		return p.RoyalFlush
	case hand.StraightFlush:
		return p.StraightFlush
	case hand.FourOfAKind:
		return p.FourOfAKind
	case hand.FullHouse:
		return p.FullHouse
	case hand.Flush:
		return p.Flush
	case hand.Straight:
		return p.Straight
	case hand.ThreeOfAKind:
		return p.ThreeOfAKind
	case hand.TwoPair:
		return p.TwoPair
	case hand.Pair:
		return p.Pair
	default:
		return p.HighCard
	}
}

func (p Paytable) entries() []int64 {
	return []int64{p.RoyalFlush, p.StraightFlush, p.FourOfAKind, p.FullHouse, p.Flush,
		p.Straight, p.ThreeOfAKind, p.TwoPair, p.Pair, p.HighCard}
}

// MaxOdds bounds every paytable entry, so that stake × odds can never
// overflow an Amount for stakes within MaxStake.
const MaxOdds = 10_000

// MaxStake bounds the ante and bonus limits a Config may set:
// 10^12 tiyn (10 billion KZT). With MaxOdds it keeps every sum far inside int64.
const MaxStake money.Amount = 1_000_000_000_000

// DefaultAntePaytable is the standard Ante paytable (SPEC §2.6): royal flush
// 100:1, straight flush 20:1, four of a kind 10:1, full house 3:1, flush 2:1,
// straight or lower 1:1.
func DefaultAntePaytable() Paytable {
	return Paytable{RoyalFlush: 100, StraightFlush: 20, FourOfAKind: 10, FullHouse: 3, Flush: 2,
		Straight: 1, ThreeOfAKind: 1, TwoPair: 1, Pair: 1, HighCard: 1}
}

// DefaultBonusPaytable is the standard Bonus paytable (SPEC §2.7) on the
// first five cards: royal flush 100:1, straight flush 50:1, four of a kind
// 40:1, full house 30:1, flush 20:1, straight, three of a kind, two pair or a
// pair of aces 7:1; anything lower loses.
func DefaultBonusPaytable() Paytable {
	return Paytable{RoyalFlush: 100, StraightFlush: 50, FourOfAKind: 40, FullHouse: 30, Flush: 20,
		Straight: 7, ThreeOfAKind: 7, TwoPair: 7, Pair: 7, HighCard: 0}
}

// Config is a Casino Hold'em table's settings: paytables, stake limits and
// the time a box has for its decision. A Config is validated once, when a
// table is configured, and copied into every hand it starts.
type Config struct {
	// Ante is the paytable of a winning Ante; the Bet always pays 1:1.
	Ante Paytable
	// Bonus is the paytable of the optional Bonus wager on the first five cards.
	Bonus Paytable
	// MinAnte and MaxAnte bound the Ante of each box.
	MinAnte, MaxAnte money.Amount
	// MaxBonus bounds the Bonus of each box; 0 turns the Bonus wager off.
	MaxBonus money.Amount
	// DecisionTimeout is how long a box waits for FOLD or CALL once its cards
	// are shown; when it passes, every undecided box folds.
	DecisionTimeout time.Duration
}

// DefaultConfig returns the standard paytables, an Ante of 100.00 to
// 100 000.00 KZT, a Bonus of up to 25 000.00 KZT and a 30-second decision.
func DefaultConfig() Config {
	return Config{
		Ante:            DefaultAntePaytable(),
		Bonus:           DefaultBonusPaytable(),
		MinAnte:         100 * money.KZT,
		MaxAnte:         100_000 * money.KZT,
		MaxBonus:        25_000 * money.KZT,
		DecisionTimeout: 30 * time.Second,
	}
}

// Validate reports the first setting that is out of range, as an Invalid
// error with reason INVALID_CONFIG.
func (c Config) Validate() error {
	bad := func(format string, args ...any) error {
		return errs.R(errs.Invalid, ReasonInvalidConfig, "casino hold'em settings: "+format, args...)
	}
	for _, o := range c.Ante.entries() {
		if o < 1 || o > MaxOdds {
			return bad("every ante paytable entry must be between 1 and %d to 1", MaxOdds)
		}
	}
	for _, o := range c.Bonus.entries() {
		if o < 0 || o > MaxOdds {
			return bad("every bonus paytable entry must be between 0 and %d to 1", MaxOdds)
		}
	}
	if c.Bonus.HighCard != 0 {
		return bad("the bonus cannot pay a high-card hand")
	}
	switch {
	case c.MinAnte <= 0:
		return bad("the minimum ante must be positive")
	case c.MaxAnte < c.MinAnte:
		return bad("the maximum ante %s is below the minimum %s", c.MaxAnte, c.MinAnte)
	case c.MaxAnte > MaxStake:
		return bad("the maximum ante may not exceed %s", MaxStake)
	case c.MaxBonus < 0 || c.MaxBonus > MaxStake:
		return bad("the maximum bonus must be between 0 and %s", MaxStake)
	case c.DecisionTimeout <= 0:
		return bad("the decision timeout must be positive")
	}
	return nil
}
