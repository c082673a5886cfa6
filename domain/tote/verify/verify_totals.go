package verify

import (
	"fmt"
	"math/big"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// Verifying a version-2 result (ResultVersionTotals): each pool publishes
// its backed selections' totals instead of its bets. Everything that
// depends on sums is recomputed exactly as SettlePool computes it: gross,
// cuts, net, refund, winning selections, each category's fund, jackpot,
// rollover, winning stakes and bets, and coefficient. What depends on the
// individual stakes (each bet's floor(stake × coef)) is checked as far as
// totals allow: a selection of n bets staking S in a category of
// coefficient k returns P with S·k/100 − n < P ≤ S·k/100, the categories'
// Paid is the sum of their selections', and breakage and top-up follow
// from Fund − Paid. A player checks their own bet exactly with BetPayout;
// the server checks every stored bet (Service.Draw).

// selectionPool rebuilds a version-2 pool's settlement input: one bet per
// published selection, staking the selection's total.
func (vf Verifier) selectionPool(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig) (parimutuel.Pool, error) {
	p := parimutuel.Pool{ID: pr.PoolID, Market: pr.Market, Round: pr.Round, Positions: positions, Config: cfg}
	for _, s := range pr.Selections {
		sel, err := vf.markets().ParseSelection(pr.Market, s.Selection)
		if err != nil {
			return parimutuel.Pool{}, err
		}
		if s.NumBets < 1 || s.Stakes < money.Amount(s.NumBets) {
			return parimutuel.Pool{}, fmt.Errorf("selection %s: %d bets cannot stake %s in all", s.Selection, s.NumBets, s.Stakes)
		}
		p.Bets = append(p.Bets, parimutuel.PoolBet{ID: s.Selection, Player: "0", Stake: s.Stakes, Selection: sel})
	}
	return p, nil
}

// selectionRates recomputes a version-2 pool from its selections: the
// settlement of the aggregated pool and the rate each selection's bets
// are paid at (for the production markets).
func selectionRates(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig, o parimutuel.Outcome, void bool) (parimutuel.PoolSettlement, []tote.SelectionRate, error) {
	return Verifier{}.selectionRates(pr, positions, cfg, o, void)
}

// selectionRates is selectionRates by the verifier's markets.
func (vf Verifier) selectionRates(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig, o parimutuel.Outcome, void bool) (parimutuel.PoolSettlement, []tote.SelectionRate, error) {
	pool, err := vf.selectionPool(pr, positions, cfg)
	if err != nil {
		return parimutuel.PoolSettlement{}, nil, err
	}
	var st parimutuel.PoolSettlement
	if void {
		st, err = vf.markets().VoidPool(pool)
	} else {
		st, err = vf.markets().SettlePool(pool, o, pr.JackpotBefore)
	}
	if err != nil {
		return parimutuel.PoolSettlement{}, nil, err
	}
	var coef [2]money.Coef
	for i, c := range st.Categories {
		coef[i] = c.Coef
	}
	rates := make([]tote.SelectionRate, len(pool.Bets))
	for i, b := range pool.Bets {
		po := st.Payouts[i]
		rates[i] = tote.SelectionRate{Selection: b.ID, Refund: po.Refund, Guessed: po.Guessed}
		if po.Cat1 > 0 {
			rates[i].Coef1 = coef[0]
		}
		if po.Cat2 > 0 {
			rates[i].Coef2 = coef[1]
		}
	}
	return st, rates, nil
}

// floorSumFits reports whether part can be the sum of floor(stake × k)
// over n stakes adding up to stakes: stakes·k/100 − n < part ≤ stakes·k/100
// (and 0 when k is 0).
func floorSumFits(part, stakes money.Amount, n int, k money.Coef) bool {
	if k == 0 {
		return part == 0
	}
	exact := new(big.Int).Mul(big.NewInt(int64(stakes)), big.NewInt(int64(k)))
	hi := new(big.Int).Mul(big.NewInt(int64(part)), big.NewInt(100))
	lo := new(big.Int).Mul(big.NewInt(int64(part)+int64(n)), big.NewInt(100))
	return part >= 0 && hi.Cmp(exact) <= 0 && lo.Cmp(exact) > 0
}

// verifyPoolTotals recomputes a version-2 pool; it returns the differences
// and the pool's settlement (for the jackpot chain).
func (vf Verifier) verifyPoolTotals(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig, o parimutuel.Outcome, void bool) ([]string, parimutuel.PoolSettlement, error) {
	want, st, out, err := vf.poolTotalsWant(pr, positions, cfg, o, void)
	if err != nil {
		return nil, parimutuel.PoolSettlement{}, err
	}
	if len(pr.Bets) > 0 {
		out = append(out, fmt.Sprintf("a version-%d result lists %d bets; it publishes selections", tote.ResultVersionTotals, len(pr.Bets)))
	}
	for i := 1; i < len(pr.Selections); i++ {
		if a, b := pr.Selections[i-1].Selection, pr.Selections[i].Selection; a >= b {
			out = append(out, fmt.Sprintf("selections %q and %q are not in strictly ascending order", a, b))
		}
	}
	out = append(out, diffPool(pr, want)...)
	return out, st, nil
}

// poolTotalsWant is the pool a version-2 result must publish given its
// published selections: every figure recomputed from their totals, with
// the per-bet sums (paid per category) taken from the selections; notes
// lists the selections whose totals their stakes do not allow (for the
// production markets).
func poolTotalsWant(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig, o parimutuel.Outcome, void bool) (tote.PoolResult, parimutuel.PoolSettlement, []string, error) {
	return Verifier{}.poolTotalsWant(pr, positions, cfg, o, void)
}

// poolTotalsWant is poolTotalsWant by the verifier's markets.
func (vf Verifier) poolTotalsWant(pr tote.PoolResult, positions int, cfg parimutuel.PoolConfig, o parimutuel.Outcome, void bool) (tote.PoolResult, parimutuel.PoolSettlement, []string, error) {
	st, rates, err := vf.selectionRates(pr, positions, cfg, o, void)
	if err != nil {
		return tote.PoolResult{}, parimutuel.PoolSettlement{}, nil, err
	}
	var out []string
	// The figures bet by bet, from the published selections (each checked
	// against what its stakes allow), per category as SettlePool reckons.
	st.NumBets = 0
	for ci := range st.Categories {
		c := &st.Categories[ci]
		c.NumBets, c.Paid, c.Breakage, c.TopUp = 0, 0, 0, 0
	}
	for i, s := range pr.Selections {
		r := rates[i]
		st.NumBets += s.NumBets
		if s.Refund != r.Refund || s.Guessed != r.Guessed {
			out = append(out, fmt.Sprintf("selection %s published refund %v guessed %d, recomputed %v %d", s.Selection, s.Refund, s.Guessed, r.Refund, r.Guessed))
		}
		if r.Refund {
			if s.Payout != s.Stakes || s.Cat2 != 0 {
				out = append(out, fmt.Sprintf("selection %s is refunded: published %s (category 2: %s), its stakes are %s", s.Selection, s.Payout, s.Cat2, s.Stakes))
			}
			continue
		}
		parts := [2]money.Amount{s.Payout - s.Cat2, s.Cat2}
		coefs := [2]money.Coef{r.Coef1, r.Coef2}
		for ci := range 2 {
			if !floorSumFits(parts[ci], s.Stakes, s.NumBets, coefs[ci]) {
				out = append(out, fmt.Sprintf("selection %s: %d bets staking %s cannot return %s at coefficient %s in category %d", s.Selection, s.NumBets, s.Stakes, parts[ci], coefs[ci], ci+1))
			}
			if coefs[ci] > 0 && ci < len(st.Categories) {
				c := &st.Categories[ci]
				c.NumBets += s.NumBets
				c.Paid += parts[ci]
			}
		}
	}
	st.SumCategories()
	return tote.NewPoolResultIn(vf.markets(), st, nil, pr.JackpotBefore), st, out, nil
}

// BetPayout is what a bet of stake on selection in pool poolID of a
// version-2 result returns by its published figures: the stake when the
// pool was refunded, else floor(stake × coef) of each category the
// selection is in. ok is false when the result does not publish the
// selection in that pool (or is not version 2).
func BetPayout(res tote.DrawResult, poolID, selection string, stake money.Amount) (payout money.Amount, refund, ok bool) {
	return Verifier{}.BetPayout(res, poolID, selection, stake)
}

// BetPayout is BetPayout by the verifier's markets.
func (vf Verifier) BetPayout(res tote.DrawResult, poolID, selection string, stake money.Amount) (payout money.Amount, refund, ok bool) {
	if res.Version < tote.ResultVersionTotals {
		return 0, false, false
	}
	cfg, outcome := resultConfig(res)
	for _, pr := range res.Pools {
		if pr.PoolID != poolID {
			continue
		}
		_, rates, err := vf.selectionRates(pr, res.Positions, cfg, outcome, res.Void)
		if err != nil {
			return 0, false, false
		}
		for _, r := range rates {
			if r.Selection == selection {
				if r.Refund {
					return stake, true, true
				}
				return r.Coef1.Pay(stake) + r.Coef2.Pay(stake), false, true
			}
		}
	}
	return 0, false, false
}

// resultConfig is the pool settings and outcome a result publishes: the
// winners, category and leaders as published, and every position's final
// hand from the published cards (none when they are not all published;
// verifyCards checks them against the seed).
func resultConfig(res tote.DrawResult) (parimutuel.PoolConfig, parimutuel.Outcome) {
	cfg := parimutuel.PoolConfig{
		Commission: res.Commission, JackpotEnabled: res.JackpotEnabled, JackpotRate: res.JackpotRate,
		ExpressShare1: res.ExpressShares[0], ExpressShare2: res.ExpressShares[1],
	}
	o := parimutuel.Outcome{Winners: res.Winners, Category: res.Category, FlopLeaders: res.FlopLeaders, TurnLeaders: res.TurnLeaders}
	if pockets, board, err := publishedCards(res); err == nil && !res.Void && len(pockets) == res.Positions && len(board) == 5 {
		o.Hands = parimutuel.FinalHands(pockets, [5]cards.Card(board))
	}
	return cfg, o
}

// compareStoredTotals lists the differences between stored bets and a
// version-2 result: every stored bet returned exactly BetPayout, with the
// matching status, and each selection's published totals are the sums of
// its stored bets.
func (vf Verifier) compareStoredTotals(res tote.DrawResult, bets []tote.Bet) []string {
	type key struct{ pool, sel string }
	type sums struct {
		n              int
		stakes, payout money.Amount
	}
	published := map[key]tote.ResultSelection{}
	rateOf := map[key]tote.SelectionRate{}
	cfg, outcome := resultConfig(res)
	var out []string
	for _, pr := range res.Pools {
		_, rates, err := vf.selectionRates(pr, res.Positions, cfg, outcome, res.Void)
		if err != nil {
			out = append(out, fmt.Sprintf("pool %s: %v", pr.PoolID, err))
			continue
		}
		for i, s := range pr.Selections {
			published[key{pr.PoolID, s.Selection}] = s
			rateOf[key{pr.PoolID, s.Selection}] = rates[i]
		}
	}
	stored := map[key]sums{}
	for _, b := range bets {
		k := key{tote.PoolID(b.DrawID, b.Round, b.Selection.Market), vf.markets().Format(b.Selection)}
		r, ok := rateOf[k]
		if !ok {
			out = append(out, fmt.Sprintf("bet %d (%s %s) is not in a published selection", b.ID, k.pool, k.sel))
			continue
		}
		want, status := b.Stake, tote.BetRefunded
		if !r.Refund {
			want, status = r.Coef1.Pay(b.Stake)+r.Coef2.Pay(b.Stake), tote.BetLost
			if want > 0 {
				status = tote.BetWon
			}
		}
		if b.Payout != want || b.Status != status {
			out = append(out, fmt.Sprintf("bet %d returned %s (%s), the result's figures give %s (%s)", b.ID, b.Payout, b.Status, want, status))
		}
		s := stored[k]
		s.n++
		s.stakes += b.Stake
		s.payout += b.Payout
		stored[k] = s
	}
	for k, p := range published {
		s := stored[k]
		if s.n != p.NumBets || s.stakes != p.Stakes || s.payout != p.Payout {
			out = append(out, fmt.Sprintf("selection %s of pool %s publishes %d bets staking %s returning %s; stored: %d, %s, %s",
				k.sel, k.pool, p.NumBets, p.Stakes, p.Payout, s.n, s.stakes, s.payout))
		}
	}
	return out
}
