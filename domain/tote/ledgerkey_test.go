package tote

import (
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
)

// The keys the totalizator posts read back as what they were posted for.
func TestParseLedgerKeyReadsWhatWasPosted(t *testing.T) {
	d := Draw{ID: 41, Number: 7}
	stake := StakeTransfer(d, Bet{ID: 9001, DrawID: 41, Round: parimutuel.RoundPocket, Selection: parimutuel.Selection{Market: parimutuel.MarketWin, Position: 3}, UserID: 5, Stake: 100})
	if r, ok := ParseLedgerKey(stake.IdempotencyKey); !ok || r.BetID != 9001 {
		t.Fatalf("stake key %q read as %+v %v", stake.IdempotencyKey, r, ok)
	}
	pool := PoolID(41, parimutuel.RoundFlop, parimutuel.MarketCombination)
	for _, k := range []string{"tote:settle:" + pool, "tote:settle:" + pool + ":3", "tote:void:" + pool} {
		r, ok := ParseLedgerKey(k)
		if !ok || r.DrawID != 41 || r.Round != int(parimutuel.RoundFlop) || r.Market != string(parimutuel.MarketCombination) {
			t.Fatalf("%q read as %+v %v", k, r, ok)
		}
	}
	for _, k := range []string{"", "tote", "tote:bet:", "tote:bet:x", "tote:bet:0", "tote:bet:1:2", "tote:settle:1:2", "tote:jackpot-topup:1:k", "holdem:3:stake", "deposit-1", "tote:void:x:1:WIN"} {
		if r, ok := ParseLedgerKey(k); ok {
			t.Fatalf("%q read as %+v", k, r)
		}
	}
}

func FuzzParseLedgerKey(f *testing.F) {
	for _, s := range []string{"tote:bet:12", "tote:settle:1:2:WIN", "tote:void:3:1:EXPRESS:2", "holdem:1:stake"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		r, ok := ParseLedgerKey(k)
		if ok && r.BetID == 0 && r.DrawID == 0 {
			t.Fatalf("%q read as a reference to nothing: %+v", k, r)
		}
	})
}
