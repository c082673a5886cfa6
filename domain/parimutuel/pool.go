package parimutuel

import (
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// PoolConfig is the money settings of one pool, copied from the game's
// settings when the draw opens so that a later change never alters a pool
// already taking bets.
type PoolConfig struct {
	// Commission is the organiser's share of the gross, at least
	// MinCommission (rule 16: 3%, which an admin may raise, never lower).
	Commission money.BasisPoints
	// JackpotEnabled says whether the jackpot takes contributions and pays
	// out. While it is disabled it does neither (SPEC 1.5).
	JackpotEnabled bool
	// JackpotRate is the contribution to the jackpot taken from the gross
	// while the jackpot is enabled (rule 7: 1 basis point, 0.01%).
	JackpotRate money.BasisPoints
	// ExpressShare1 and ExpressShare2 split an EXPRESS pool's net between
	// category 1 (3 of 3 guessed) and category 2 (at least 2 of 3); they add
	// up to 100% (defaults 60% and 40%).
	ExpressShare1, ExpressShare2 money.BasisPoints
}

// MinCommission is the lowest commission rule 16 allows: 3%.
const MinCommission money.BasisPoints = 300

// DefaultPoolConfig is the rules' default: 3% commission, the jackpot enabled
// at 0.01%, and an EXPRESS net split 60% / 40%.
func DefaultPoolConfig() PoolConfig {
	return PoolConfig{
		Commission:     MinCommission,
		JackpotEnabled: true,
		JackpotRate:    1,
		ExpressShare1:  6000,
		ExpressShare2:  4000,
	}
}

// Validate reports an Invalid error when the settings break the rules:
// COMMISSION_TOO_LOW below 3%, INVALID_POOL_CONFIG when a rate is negative,
// commission and jackpot together take the whole gross, or the EXPRESS shares
// do not add up to exactly 100%.
func (c PoolConfig) Validate() error {
	if c.Commission < MinCommission {
		return errs.R(errs.Invalid, "COMMISSION_TOO_LOW", "the commission is %s%%: it can never be below 3.00%%", c.Commission)
	}
	if c.JackpotRate < 0 || c.ExpressShare1 < 0 || c.ExpressShare2 < 0 {
		return errs.R(errs.Invalid, "INVALID_POOL_CONFIG", "pool rates cannot be negative")
	}
	if c.Commission+c.JackpotRate >= 10000 {
		return errs.R(errs.Invalid, "INVALID_POOL_CONFIG", "commission %s%% and jackpot %s%% leave nothing for the winners", c.Commission, c.JackpotRate)
	}
	if c.ExpressShare1+c.ExpressShare2 != 10000 {
		return errs.R(errs.Invalid, "INVALID_POOL_CONFIG", "the EXPRESS category shares %s%% and %s%% must add up to 100%%", c.ExpressShare1, c.ExpressShare2)
	}
	return nil
}

// jackpotRate is the contribution rate in force: zero while disabled.
func (c PoolConfig) jackpotRate() money.BasisPoints {
	if !c.JackpotEnabled {
		return 0
	}
	return c.JackpotRate
}

// Cuts splits a pool's gross into the commission, the jackpot contribution
// (zero while the jackpot is disabled) and the net that the winners share:
// N = G − floor(G × commission) − floor(G × jackpot rate) (SPEC 1.5). It is
// the one definition of the net pool.
func (c PoolConfig) Cuts(gross money.Amount) (commission, jackpot, net money.Amount) {
	commission = c.Commission.Of(gross)
	jackpot = c.jackpotRate().Of(gross)
	return commission, jackpot, gross - commission - jackpot
}

// Net is the net pool of gross: what Cuts leaves for the winners.
func (c PoolConfig) Net(gross money.Amount) money.Amount {
	_, _, net := c.Cuts(gross)
	return net
}

// MaxPoolAmount is the largest gross, and the largest jackpot balance, that
// SettlePool accepts: 10^14 KZT. Below it no intermediate product of the
// arithmetic can overflow int64; above it SettlePool refuses with
// POOL_TOO_LARGE rather than risk a wrong payout.
const MaxPoolAmount money.Amount = 1e16

// PoolBet is one accepted bet of a pool, as the settlement needs it.
type PoolBet struct {
	ID        string       // the bet's id, unique in the pool
	Player    string       // the player whose wallet paid the stake and is paid back
	Stake     money.Amount // at least 1 tiyn
	Selection Selection    // of the pool's market
}

// Pool is one pool: the bets of one market in one round of one draw.
type Pool struct {
	ID        string // the pool's id, the Ref of its escrow account
	Market    Market
	Round     Round
	Positions int // the table's number of positions, 2..10
	Config    PoolConfig
	Bets      []PoolBet
}

// validate checks everything SettlePool and VoidPool rely on.
func (p Pool) validate() error {
	if err := CheckMarketRound(p.Market, p.Round); err != nil {
		return err
	}
	if err := CheckTableSize(p.Positions); err != nil {
		return err
	}
	if err := p.Config.Validate(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(p.Bets))
	var gross money.Amount
	for _, b := range p.Bets {
		if b.ID == "" || b.Player == "" {
			return errs.R(errs.Invalid, "INVALID_BET", "every bet of pool %s needs an id and a player", p.ID)
		}
		if seen[b.ID] {
			return errs.R(errs.Invalid, "DUPLICATE_BET", "bet %s appears twice in pool %s", b.ID, p.ID)
		}
		seen[b.ID] = true
		if b.Stake < 1 {
			return errs.R(errs.Invalid, "INVALID_STAKE", "bet %s has stake %s: a stake is at least 0.01", b.ID, b.Stake)
		}
		if b.Selection.Market != p.Market {
			return errs.R(errs.Invalid, "WRONG_MARKET", "bet %s backs a %s selection in a %s pool", b.ID, b.Selection.Market, p.Market)
		}
		if err := b.Selection.Validate(p.Positions); err != nil {
			return err
		}
		if b.Stake > MaxPoolAmount-gross {
			return errs.R(errs.Invalid, "POOL_TOO_LARGE", "pool %s holds more than %s", p.ID, MaxPoolAmount)
		}
		gross += b.Stake
	}
	return nil
}

// Outcome is what a draw decided, as the pools need it. Position sets hold
// each position once; a tie puts several positions in a set, and a board that
// plays for everybody puts every position in Winners.
type Outcome struct {
	Winners     []int       // positions with the best hand after the river
	Category    Combination // category of the winning hand (COMBINATION)
	FlopLeaders []int       // positions leading after the flop (EXPRESS)
	TurnLeaders []int       // positions leading after the turn (EXPRESS)
}

// positionSet is a set of positions 1..10 as a bitmask.
type positionSet uint16

func (s positionSet) has(p int) bool { return p >= 1 && p <= MaxPositions && s&(1<<p) != 0 }

// checkOutcome validates what market m reads from o on a table of n positions
// and returns the winner, flop and turn sets.
func checkOutcome(o Outcome, m Market, n int) (win, flop, turn positionSet, err error) {
	set := func(what string, ps []int) (positionSet, error) {
		var s positionSet
		if len(ps) == 0 {
			return 0, errs.R(errs.Invalid, "INVALID_OUTCOME", "the outcome names no %s", what)
		}
		for _, p := range ps {
			if p < 1 || p > n {
				return 0, errs.R(errs.Invalid, "INVALID_OUTCOME", "%s %d is not on a table of %d positions", what, p, n)
			}
			if s.has(p) {
				return 0, errs.R(errs.Invalid, "INVALID_OUTCOME", "%s %d is named twice", what, p)
			}
			s |= 1 << p
		}
		return s, nil
	}
	switch m {
	case MarketWin:
		win, err = set("winner", o.Winners)
	case MarketCombination:
		if !validCombination(o.Category) {
			err = errs.R(errs.Invalid, "INVALID_OUTCOME", "the winning category %d does not exist", int(o.Category))
		}
	case MarketExpress:
		if win, err = set("winner", o.Winners); err != nil {
			break
		}
		if flop, err = set("flop leader", o.FlopLeaders); err != nil {
			break
		}
		turn, err = set("turn leader", o.TurnLeaders)
	}
	return win, flop, turn, err
}
