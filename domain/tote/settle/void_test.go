package settle_test

import (
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// randomSelection draws a selection of market m on a table of n positions.
func randomSelection(rt *rapid.T, m parimutuel.Market, n int) string {
	pos := func() string { return strconv.Itoa(rapid.IntRange(1, n).Draw(rt, "position")) }
	switch m {
	case parimutuel.MarketWin:
		return pos()
	case parimutuel.MarketCombination:
		return parimutuel.Combination(rapid.IntRange(0, parimutuel.NumCombinations-1).Draw(rt, "category")).String()
	case parimutuel.MarketExpress:
		return pos() + "-" + pos() + "-" + pos()
	}
	rt.Fatalf("no selection for market %s", m)
	return ""
}

// TestVoidRefundsEveryStakeOnce is the property of a void: random bets of
// random players in the rounds up to a random one, the draw voided there
// with a random kind; every bet is refunded its stake exactly, every wallet
// is back to its deposit, the escrows are empty, the books sum to zero, and
// voiding again moves nothing.
func TestVoidRefundsEveryStakeOnce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 10).Draw(rt, "positions")
		h := newHarness(rt, t, n)
		voidIn := parimutuel.Round(rapid.IntRange(1, 4).Draw(rt, "void in round"))
		var d tote.Draw
		var stakes money.Amount
		for r := parimutuel.RoundPreDeal; r <= voidIn; r++ {
			d = h.RunUntil(h.Dealer, r.String(), func(x tote.Draw) bool { return x.OpenRound() == r })
			for range rapid.IntRange(0, 10).Draw(rt, "bets") {
				m := rapid.SampledFrom(parimutuel.Markets).Draw(rt, "market")
				if !m.Offers(r) {
					continue
				}
				stake := money.Amount(rapid.Int64Range(int64(d.MinStake), 2000*int64(money.KZT)).Draw(rt, "stake"))
				user := int64(rapid.IntRange(1, users).Draw(rt, "user"))
				if b, ok := h.BetIfOffered(user, d, m, randomSelection(rt, m, n), stake); ok {
					stakes += b.Stake
				}
			}
		}
		placed := drawBets(rt, h, d.ID)
		detail := tote.VoidDetail{Kind: rapid.SampledFrom(tote.VoidKinds).Draw(rt, "kind"), At: h.Clock.Now().Truncate(time.Millisecond).UTC(), Why: "property"}
		organiser := h.Balance(ledger.OrganiserAccount) + h.Balance(ledger.JackpotAccount)
		st, err := run(h, d, &detail)
		if err != nil {
			rt.Fatal(err)
		}
		checkBooks(rt, h, d)
		for u := int64(1); u <= users; u++ {
			if got := h.Balance(ledger.UserWallet(ids.UserID(u))); got != deposit {
				rt.Errorf("wallet %d holds %s after the void, deposited %s", u, got, deposit)
			}
		}
		if got := h.Balance(ledger.OrganiserAccount) + h.Balance(ledger.JackpotAccount); got != organiser {
			rt.Errorf("the house moved from %s to %s in a void", organiser, got)
		}
		want, _ := reference(rt, d, placed, d.Pool, 0, true)
		checkRefunds(rt, h, d, placed, want, stakes)
		checkStep(rt, h, st, d, tote.EventDrawVoided, tote.PhaseVoid)
		if r := st.Draw.Result; !r.Void || r.VoidDetail == nil || *r.VoidDetail != detail || st.Events[0].Reason != detail.Reason() {
			rt.Errorf("void result %+v, event reason %q, want %+v", r.VoidDetail, st.Events[0].Reason, detail)
		}
		checkReplay(rt, h, d, &detail)
	})
}

// checkRefunds checks every placed bet is refunded its stake, as VoidPool
// computes it, and the refunds sum to the stakes.
func checkRefunds(rt *rapid.T, h *totetest.Harness, d tote.Draw, placed []tote.Bet, want map[int64]parimutuel.Payout, stakes money.Amount) {
	var refunded money.Amount
	for _, b := range drawBets(rt, h, d.ID) {
		refunded += b.Payout
		if po := want[b.ID]; b.Status != tote.BetRefunded || b.Payout != b.Stake || !po.Refund || po.Amount != b.Stake {
			rt.Errorf("bet %d of %s: %s %s, VoidPool refunds %s", b.ID, b.Stake, b.Status, b.Payout, po.Amount)
		}
	}
	if refunded != stakes || len(placed) != len(want) {
		rt.Errorf("refunded %s of %s staked over %d bets (%d in the reference)", refunded, stakes, len(placed), len(want))
	}
}
