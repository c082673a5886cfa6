package main

import (
	"strings"
	"testing"
)

// TestSimulationAcceptsNoArbitrage runs the simulation on a few deals (the
// full 10,000 are docs/bench/2026-12-01-suspension.md's): the bot finds
// selections above the line, none of its bets is accepted and no top-up
// follows; and the same seed gives the same figures whatever -workers is.
func TestSimulationAcceptsNoArbitrage(t *testing.T) {
	sim := func(workers string) string {
		t.Helper()
		var out strings.Builder
		if err := run([]string{"-deals", "60", "-pocket-deals", "2", "-positions", "6", "-workers", workers}, &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	one := sim("1")
	if !strings.Contains(one, "| all | | | | | | 0 | 0.00 |") {
		t.Fatalf("an arbitrage bet was accepted:\n%s", one)
	}
	turn := tableRow(one, "TURN")
	if turn == "" || strings.Contains(turn, "| 0 / 0 / 0 |") {
		t.Fatalf("60 deals of 6 positions gave the bot nothing to try at the turn, so the test shows nothing:\n%s", one)
	}
	if two := sim("2"); tableRow(two, "TURN") != turn || tableRow(two, "FLOP") != tableRow(one, "FLOP") {
		t.Fatalf("the figures depend on -workers:\n%s\n%s", one, two)
	}
}

func tableRow(out, round string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| "+round+" |") {
			return l
		}
	}
	return ""
}
