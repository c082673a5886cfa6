package parimutuel

import (
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// ImpliedCoefs is the live odds display of one open pool (SPEC 1.6): for each
// selection in totals (the stakes on it so far), N / stakes truncated to two
// decimals, where N is the pool's gross (the sum of totals) less commission
// and jackpot contribution.
//
// It is informational and is not what a bet will be paid: it is not raised to
// the guaranteed 1.10 (a figure below 1.10 tells players the selection is
// heavily backed), it assumes the selection wins alone, and for EXPRESS it
// ignores the split into categories and the jackpot. A selection with no
// stakes gets 0, meaning "no coefficient yet".
//
// Errors are Invalid: a configuration that breaks the rules, a negative total
// (INVALID_STAKE), or totals above MaxPoolAmount (POOL_TOO_LARGE).
func ImpliedCoefs(totals map[Selection]money.Amount, cfg PoolConfig) (map[Selection]money.Coef, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var gross money.Amount
	for sel, a := range totals {
		if a < 0 {
			return nil, errs.R(errs.Invalid, "INVALID_STAKE", "the stakes on %s %s are negative", sel.Market, sel)
		}
		if a > MaxPoolAmount-gross {
			return nil, errs.R(errs.Invalid, "POOL_TOO_LARGE", "the pool holds more than %s", MaxPoolAmount)
		}
		gross += a
	}
	net := cfg.Net(gross)
	coefs := make(map[Selection]money.Coef, len(totals))
	for sel, a := range totals {
		coefs[sel] = money.CoefOf(net, a)
	}
	return coefs, nil
}
