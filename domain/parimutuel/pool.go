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

// JackpotRate is the contribution of every pool to the jackpot while it is
// enabled (SPEC rule 7: 0.01%).
const JackpotRate money.BasisPoints = 1

// The default split of an EXPRESS pool's net between category 1 (3 of 3)
// and category 2 (2 of 3): 60% / 40% (SPEC 1.1).
const (
	DefaultExpressShare1 money.BasisPoints = 6000
	DefaultExpressShare2                   = 10000 - DefaultExpressShare1
)

// Validate reports an Invalid error when the settings break the rules:
// COMMISSION_TOO_LOW below 3%, INVALID_POOL_CONFIG when a rate is negative,
// commission and jackpot together take the whole gross, or the EXPRESS shares
// do not add up to exactly 100%.
func (c PoolConfig) Validate() error {
	if c.Commission < MinCommission {
		return errs.R(errs.Invalid, ReasonCommissionTooLow, "the commission is %s%%: it can never be below 3.00%%", c.Commission)
	}
	if c.JackpotRate < 0 || c.ExpressShare1 < 0 || c.ExpressShare2 < 0 {
		return errs.R(errs.Invalid, ReasonInvalidPoolConfig, "pool rates cannot be negative")
	}
	if c.Commission+c.JackpotRate >= 10000 {
		return errs.R(errs.Invalid, ReasonInvalidPoolConfig, "commission %s%% and jackpot %s%% leave nothing for the winners", c.Commission, c.JackpotRate)
	}
	if c.ExpressShare1+c.ExpressShare2 != 10000 {
		return errs.R(errs.Invalid, ReasonInvalidPoolConfig, "the EXPRESS category shares %s%% and %s%% must add up to 100%%", c.ExpressShare1, c.ExpressShare2)
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

// validatePool checks everything SettlePool and VoidPool rely on, and
// returns the pool's market.
func (r *Registry) validatePool(p Pool) (MarketSpec, error) {
	if err := r.CheckMarketRound(p.Market, p.Round); err != nil {
		return MarketSpec{}, err
	}
	spec, _ := r.Lookup(p.Market)
	if err := CheckTableSize(p.Positions); err != nil {
		return MarketSpec{}, err
	}
	if err := p.Config.Validate(); err != nil {
		return MarketSpec{}, err
	}
	seen := make(map[string]bool, len(p.Bets))
	var gross money.Amount
	for _, b := range p.Bets {
		if b.ID == "" || b.Player == "" {
			return MarketSpec{}, errs.R(errs.Invalid, ReasonInvalidBet, "every bet of pool %s needs an id and a player", p.ID)
		}
		if seen[b.ID] {
			return MarketSpec{}, errs.R(errs.Invalid, ReasonDuplicateBet, "bet %s appears twice in pool %s", b.ID, p.ID)
		}
		seen[b.ID] = true
		if b.Stake < 1 {
			return MarketSpec{}, errs.R(errs.Invalid, ReasonInvalidStake, "bet %s has stake %s: a stake is at least 0.01", b.ID, b.Stake)
		}
		if b.Selection.Market != p.Market {
			return MarketSpec{}, errs.R(errs.Invalid, ReasonWrongMarket, "bet %s backs a %s selection in a %s pool", b.ID, b.Selection.Market, p.Market)
		}
		if err := spec.Shape.validate(b.Selection, p.Positions); err != nil {
			return MarketSpec{}, err
		}
		if b.Stake > MaxPoolAmount-gross {
			return MarketSpec{}, errs.R(errs.Invalid, ReasonPoolTooLarge, "pool %s holds more than %s", p.ID, MaxPoolAmount)
		}
		gross += b.Stake
	}
	return spec, nil
}
