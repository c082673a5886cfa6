package holdem

import "testing"

func TestHandOfLedgerKey(t *testing.T) {
	for _, what := range []string{"stake", "bet:2", "payout"} {
		if id, ok := HandOfLedgerKey(ledgerKey(77, what)); !ok || id != 77 {
			t.Fatalf("%q read as %d %v", ledgerKey(77, what), id, ok)
		}
	}
	for _, k := range []string{"", "holdem:", "holdem:x:stake", "holdem:0:stake", "tote:bet:1", "xholdem:1:stake"} {
		if id, ok := HandOfLedgerKey(k); ok {
			t.Fatalf("%q read as hand %d", k, id)
		}
	}
}
