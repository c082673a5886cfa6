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
	for _, k := range []string{"", "tote", "tote:bet:", "tote:bet:x", "tote:bet:0", "tote:bet:1:2", "tote:bet:+1", "tote:bet:01", "tote:settle:1:2", "tote:jackpot-topup:1:k", "holdem:3:stake", "deposit-1", "tote:void:x:1:WIN",
		"tote:settle:1:2:WIN:1", "tote:settle:1:2:WIN:0", "tote:settle:1:2:WIN:-2", "tote:settle:1:2:WIN:2:3", "tote:settle:1:2:", "tote:settle:-1:2:WIN", "tote:settle:01:2:WIN"} {
		if r, ok := ParseLedgerKey(k); ok {
			t.Fatalf("%q read as %+v", k, r)
		}
	}
}

// FuzzParseLedgerKey: arbitrary input never panics, and a key read is one
// Key writes back the same (so no two keys read as the same transfer).
func FuzzParseLedgerKey(f *testing.F) {
	for _, s := range []string{"tote:bet:12", "tote:settle:1:2:WIN", "tote:void:3:1:EXPRESS:2", "tote:settle:1:2:WIN:1", "tote:bet:+1", "tote:bet:012", "holdem:1:stake", "tote:jackpot-topup:1:k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		r, ok := ParseLedgerKey(k)
		if !ok {
			if r != (LedgerRef{}) {
				t.Fatalf("%q refused but read as %+v", k, r)
			}
			return
		}
		if r.Key() != k {
			t.Fatalf("%q read as %+v, which writes %q", k, r, r.Key())
		}
		switch r.Kind {
		case LedgerStake:
			if r.BetID <= 0 || r.DrawID != 0 || r.Market != "" || r.Part != 0 {
				t.Fatalf("%q read as a stake of %+v", k, r)
			}
		case LedgerSettle, LedgerVoid:
			if r.DrawID <= 0 || r.BetID != 0 || r.Market == "" || r.Part < 1 {
				t.Fatalf("%q read as a pool's transfer of %+v", k, r)
			}
		default:
			t.Fatalf("%q read as kind %q", k, r.Kind)
		}
	})
}

// FuzzLedgerKeyRoundTrip: every key the tote writes (a stake's, each part
// of each pool's settlement or void, as StakeTransfer and the settlement
// write them) parses back to the fields it was written from.
func FuzzLedgerKeyRoundTrip(f *testing.F) {
	f.Add(int64(1), int64(1), uint8(0), uint16(1), uint8(0))
	f.Add(int64(1<<62), int64(9_000_000_000), uint8(7), uint16(400), uint8(1))
	pools := DrawPools()
	f.Fuzz(func(t *testing.T, betID, drawID int64, pool uint8, part uint16, void uint8) {
		if betID <= 0 || drawID <= 0 || part == 0 {
			t.Skip("ids and parts are positive")
		}
		stake := StakeTransfer(Draw{ID: drawID}, Bet{ID: betID, DrawID: drawID, Round: parimutuel.RoundPocket, Selection: parimutuel.Selection{Market: parimutuel.MarketWin, Position: 1}, UserID: 5, Stake: 100})
		if r, ok := ParseLedgerKey(stake.IdempotencyKey); !ok || r != (LedgerRef{Kind: LedgerStake, BetID: betID}) {
			t.Fatalf("stake key %q of bet %d read as %+v %v", stake.IdempotencyKey, betID, r, ok)
		}
		k := pools[int(pool)%len(pools)]
		kind := []LedgerKind{LedgerSettle, LedgerVoid}[void%2]
		want := LedgerRef{Kind: kind, DrawID: drawID, Round: int(k.Round), Market: string(k.Market), Part: int(part)}
		key := want.Key()
		if r, ok := ParseLedgerKey(key); !ok || r != want {
			t.Fatalf("%q written from %+v read as %+v %v", key, want, r, ok)
		}
		if want.PoolID() != PoolID(drawID, k.Round, k.Market) {
			t.Fatalf("%+v names pool %q, not %q", want, want.PoolID(), PoolID(drawID, k.Round, k.Market))
		}
	})
}
