package tote

import (
	"cmp"
	"slices"

	"github.com/pokertote/pokertote/domain/parimutuel"
)

// PoolIncrement is what one transaction adds to the stored total of one
// selection of one pool: the stake and the count of the bets it stored
// there. A selection's total is the sum over every bet stored on it,
// whatever the bet's status (settlement, refunds and voids change a bet's
// status and payout, never its draw, round, selection or stake), so only
// storing a bet changes a total; a bet's stake refused in the transaction
// that stored it is left out of the increment.
type PoolIncrement struct {
	DrawID int64
	Total  SelectionTotal
}

// PoolKeyOrder compares two increments by draw, round, market and the
// selection's text: the one order in which every store writes (and so
// locks) the totals' rows, so that concurrent batches of one draw wait for
// each other instead of deadlocking.
func PoolKeyOrder(a, b PoolIncrement) int {
	return cmp.Or(cmp.Compare(a.DrawID, b.DrawID), cmp.Compare(a.Total.Round, b.Total.Round),
		cmp.Compare(a.Total.Selection.Market, b.Total.Selection.Market),
		cmp.Compare(a.Total.Selection.String(), b.Total.Selection.String()))
}

// PoolIncrements sums bets per (draw, round, market, selection), one
// increment per key, in PoolKeyOrder: what storing bets adds to the pool
// totals.
func PoolIncrements(bets []Bet) []PoolIncrement {
	type key struct {
		draw  int64
		round parimutuel.Round
		sel   parimutuel.Selection
	}
	at := map[key]int{}
	var out []PoolIncrement
	for _, b := range bets {
		k := key{b.DrawID, b.Round, b.Selection}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, PoolIncrement{DrawID: b.DrawID, Total: SelectionTotal{Round: b.Round, Selection: b.Selection}})
		}
		out[i].Total.Stake += b.Stake
		out[i].Total.Bets++
	}
	slices.SortFunc(out, PoolKeyOrder)
	return out
}
