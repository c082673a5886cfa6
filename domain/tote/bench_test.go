package tote_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// BenchmarkDrawInMemory runs whole draws of a 6-position table with 30 bets
// each through the dealer on the in-memory store: the cost of the state
// machine and settlement without a database.
func BenchmarkDrawInMemory(b *testing.B) {
	h := totetest.NewHarness(b, totetest.MemEnv(nil), 6)
	h.Deposit(1, 1_000_000_000*money.KZT)
	b.ReportAllocs()
	for b.Loop() {
		d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
		for i := range 30 {
			h.MustBet(1, d, parimutuel.MarketWin, []string{"1", "2", "3", "4", "5", "6"}[i%6], 100*money.KZT)
		}
		h.RunUntil(h.Dealer, "SETTLED", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase == tote.PhaseSettled })
	}
}
