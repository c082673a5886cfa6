package graph

import (
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// A pool with no bets and one nobody won are both refunded NO_WINNER in the
// stored result; the API tells them apart.
func TestRefundReasonTellsEmptyPoolsApart(t *testing.T) {
	for _, c := range []struct {
		name string
		p    tote.PoolResult
		want string
	}{
		{"no bets", tote.PoolResult{Refunded: true, RefundReason: parimutuel.RefundNoWinner}, "NO_BETS"},
		{"nobody won", tote.PoolResult{Refunded: true, RefundReason: parimutuel.RefundNoWinner, NumBets: 3, Gross: 30000, Refunds: 30000}, "NO_WINNER"},
		{"void draw, no bets", tote.PoolResult{Refunded: true, RefundReason: parimutuel.RefundVoidDraw}, "VOID_DRAW"},
		{"paid out", tote.PoolResult{NumBets: 2, Gross: 20000}, ""},
	} {
		if got := refundReason(c.p); got != c.want {
			t.Errorf("%s: refundReason %q, want %q", c.name, got, c.want)
		}
		if got := toModelResult(tote.DrawResult{Pools: []tote.PoolResult{c.p}}).Pools[0].RefundReason; (got == nil) != (c.want == "") || (got != nil && *got != c.want) {
			t.Errorf("%s: the model's refundReason %v, want %q", c.name, got, c.want)
		}
	}
}
