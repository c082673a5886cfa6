package tote

import (
	"cmp"
	"slices"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// BuildPoolViews groups selection totals into pool views, one per pool that
// has money, in settlement order (round, then the markets' order),
// each with its selections in natural order and their implied coefficients.
func BuildPoolViews(totals []SelectionTotal, cfg parimutuel.PoolConfig) ([]PoolView, error) {
	byPool := map[PoolKey][]SelectionTotal{}
	for _, t := range totals {
		k := PoolKey{Round: t.Round, Market: t.Selection.Market}
		byPool[k] = append(byPool[k], t)
	}
	var out []PoolView
	for _, k := range DrawPools() {
		ts := byPool[k]
		if len(ts) == 0 {
			continue
		}
		v, err := poolView(k, ts, cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// poolView builds one pool's view from its selection totals.
func poolView(k PoolKey, ts []SelectionTotal, cfg parimutuel.PoolConfig) (PoolView, error) {
	slices.SortFunc(ts, func(a, b SelectionTotal) int { return compareSelections(a.Selection, b.Selection) })
	stakes := make(map[parimutuel.Selection]money.Amount, len(ts))
	v := PoolView{Round: k.Round, Market: k.Market, Selections: make([]SelectionView, len(ts))}
	for _, t := range ts {
		stakes[t.Selection] += t.Stake
		v.Gross += t.Stake
		v.Bets += t.Bets
	}
	coefs, err := parimutuel.ImpliedCoefs(stakes, cfg)
	if err != nil {
		return PoolView{}, err
	}
	v.Net = cfg.Net(v.Gross)
	for i, t := range ts {
		v.Selections[i] = SelectionView{Selection: t.Selection.String(), Stake: t.Stake, Bets: t.Bets, Implied: coefs[t.Selection]}
	}
	return v, nil
}

// compareSelections orders selections of one market naturally: positions
// and categories ascending, coupons by flop, turn, then river.
func compareSelections(a, b parimutuel.Selection) int {
	return cmp.Or(
		cmp.Compare(a.Position, b.Position),
		cmp.Compare(a.Combination, b.Combination),
		cmp.Compare(a.Coupon.Flop, b.Coupon.Flop),
		cmp.Compare(a.Coupon.Turn, b.Coupon.Turn),
		cmp.Compare(a.Coupon.River, b.Coupon.River),
	)
}

// PoolSignature summarises a pool's totals so that the dealer publishes a
// POOL_UPDATED event only when money arrived.
type PoolSignature struct {
	bets  int
	gross money.Amount
}

func SignatureOf(v PoolView) PoolSignature { return PoolSignature{bets: v.Bets, gross: v.Gross} }

// RoundPoolViews is every pool of round r on a table of n positions, each
// listing every selection of its market with zero rows for unbacked ones
// (what a table view draws), except a market whose selections are not
// listed (EXPRESS), which lists only the coupons backed so far: its n³
// possible coupons are too many to show as rows.
func RoundPoolViews(totals []SelectionTotal, cfg parimutuel.PoolConfig, n int, r parimutuel.Round) ([]PoolView, error) {
	var mine []SelectionTotal
	for _, t := range totals {
		if t.Round == r {
			mine = append(mine, t)
		}
	}
	backed, err := BuildPoolViews(mine, cfg)
	if err != nil {
		return nil, err
	}
	var out []PoolView
	for _, m := range parimutuel.Production().Offered(r) {
		v := EmptyPoolView(PoolKey{Round: r, Market: m.Name}, n)
		for _, b := range backed {
			if b.Market == m.Name {
				v = mergeZeroRows(b, v)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// EmptyPoolView is pool k before any bet: every selection of a listed
// market (WIN, COMBINATION) with no stake, none of a market whose
// selections are not listed (EXPRESS) or of a market that does not exist.
func EmptyPoolView(k PoolKey, n int) PoolView {
	v := PoolView{Round: k.Round, Market: k.Market, Selections: []SelectionView{}}
	m, ok := parimutuel.Production().Lookup(k.Market)
	if !ok || !m.Listed() {
		return v
	}
	for _, s := range m.Selections(n) {
		v.Selections = append(v.Selections, SelectionView{Selection: m.Format(s)})
	}
	return v
}

// mergeZeroRows is backed with a zero row added for every selection of
// empty that backed lacks, in empty's order (then backed's extras).
func mergeZeroRows(backed, empty PoolView) PoolView {
	have := make(map[string]SelectionView, len(backed.Selections))
	for _, s := range backed.Selections {
		have[s.Selection] = s
	}
	sels := make([]SelectionView, 0, len(empty.Selections)+len(backed.Selections))
	for _, s := range empty.Selections {
		if b, ok := have[s.Selection]; ok {
			s = b
			delete(have, s.Selection)
		}
		sels = append(sels, s)
	}
	for _, s := range backed.Selections {
		if _, ok := have[s.Selection]; ok {
			sels = append(sels, s)
		}
	}
	backed.Selections = sels
	return backed
}
