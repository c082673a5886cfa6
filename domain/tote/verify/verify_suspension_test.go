package verify_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// suspendedDraw settles a draw of two positions at SUSPEND_AT 50 %, where
// every round after the deal has a suspended WIN selection, with a bet on
// the other positions where they are open.
func suspendedDraw(t *testing.T) tote.DrawResult {
	t.Helper()
	h := totetest.NewHarness(t, totetest.MemEnv(t), 2)
	half := money.BasisPoints(5000)
	if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{SuspendAt: &half}); err != nil {
		t.Fatal(err)
	}
	h.Deposit(1, 10_000*money.KZT)
	for _, p := range []tote.Phase{tote.PhasePocket, tote.PhaseFlop, tote.PhaseTurn} {
		d := h.RunUntil(h.Dealer, string(p), totetest.InPhase(p))
		for _, sel := range []string{"1", "2"} {
			h.BetIfOffered(1, d, parimutuel.MarketWin, sel, 150*money.KZT)
		}
	}
	d := h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	return *d.Result
}

// TestVerifySuspensionTampered: the honest result verifies; one whose pool
// took a bet on a suspended selection fails verify.Result; and (checked
// against the same recomputation) changed chances or a hidden round fail.
func TestVerifySuspensionTampered(t *testing.T) {
	res := suspendedDraw(t)
	if v := verify.Result(res); !v.SuspensionsMatch || len(v.Problems) > 0 {
		t.Fatalf("the honest result fails: %v", v.Problems)
	}
	clone := func() tote.DrawResult {
		var c tote.DrawResult
		b, _ := json.Marshal(res)
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// A bet on the round-4 WIN selection the round opened suspended.
	var suspended string
	for _, c := range res.Chances[len(res.Chances)-1].Suspended(res.SuspendAt) {
		if c.Market == parimutuel.MarketWin {
			suspended = c.Selection
		}
	}
	if suspended == "" {
		t.Fatal("round 4 of two positions at 50 % has no suspended WIN selection")
	}
	tampered := clone()
	for i, p := range tampered.Pools {
		if p.Round == parimutuel.RoundTurn && p.Market == parimutuel.MarketWin {
			tampered.Pools[i].Selections = append(tampered.Pools[i].Selections, tote.ResultSelection{Selection: suspended, NumBets: 1, Stakes: 1000 * money.KZT})
			tampered.Pools[i].Bets = append(tampered.Pools[i].Bets, tote.ResultBet{ID: 99, Selection: suspended, Stake: 1000 * money.KZT})
		}
	}
	if v := verify.Result(tampered); v.SuspensionsMatch || !hasProblem(v.Problems, "suspended in round TURN") {
		t.Fatalf("a bet on suspended WIN %s passes: %v", suspended, v.Problems)
	}
	want, err := verify.RecomputeChances(res)
	if err != nil {
		t.Fatal(err)
	}
	check := func(r tote.DrawResult) []string {
		var ps []string
		verify.CheckSuspensions(r, want, func(f string, a ...any) { ps = append(ps, fmt.Sprintf(f, a...)) })
		return ps
	}
	if ps := check(res); len(ps) > 0 {
		t.Fatalf("the honest result against its recomputation: %v", ps)
	}
	hidden := clone()
	hidden.Chances[0].Chances[0].Paid = 0
	if ps := check(hidden); !hasProblem(ps, "published chances") {
		t.Fatalf("changed chances pass: %v", ps)
	}
	dropped := clone()
	dropped.Chances = dropped.Chances[:2]
	if ps := check(dropped); !hasProblem(ps, "published chances") {
		t.Fatalf("a round's chances left out pass: %v", ps)
	}
	// The tampered result with its suspension fields stripped, as if it
	// predated SPEC 1.9: its version says it does not.
	stripped := tampered
	stripped.SuspendAt, stripped.Chances = 0, nil
	if v := verify.Result(stripped); v.SuspensionsMatch || !hasProblem(v.Problems, "must publish suspendAt") {
		t.Fatalf("a result with its suspension fields stripped passes: %v", v.Problems)
	}
	// A SUSPEND_AT above 90 % is no SUSPEND_AT (refused before any work).
	high := clone()
	high.SuspendAt = 9500
	if v := verify.Result(high); v.SuspensionsMatch {
		t.Fatal("SUSPEND_AT 95 % passes")
	}
}

func hasProblem(ps []string, s string) bool {
	for _, p := range ps {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}
