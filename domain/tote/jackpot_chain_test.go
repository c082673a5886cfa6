package tote_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestChainJackpotProperty: over random runs of moves, each batch chained
// on the last keeps the money: every entry's after is its before plus or
// minus its amount, the chain ends at the ledger's balance (and, once
// open, refuses any other), seqs count on without a gap and each prevHash is the hash
// before it.
func TestChainJackpotProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	kinds := []tote.JackpotKind{tote.JackpotContribution, tote.JackpotRollover, tote.JackpotWin, tote.JackpotTopUp}
	at := time.Date(2026, 1, 2, 3, 4, 5, 678_901_234, time.UTC)
	for trial := 0; trial < 200; trial++ {
		ledger := money.Amount(rng.Int64N(1_000_000))
		var head *tote.JackpotEntry
		var all []tote.JackpotEntry
		for batch := 0; batch < 5; batch++ {
			var moves []tote.JackpotMove
			after := ledger
			for range rng.IntN(4) {
				m := tote.JackpotMove{Kind: kinds[rng.IntN(len(kinds))], Amount: money.Amount(1 + rng.Int64N(10_000))}
				if m.Kind == tote.JackpotWin {
					if after == 0 {
						continue
					}
					m.Amount = 1 + money.Amount(rng.Int64N(int64(after)))
				}
				if tote.JackpotKinds[m.Kind].Pool {
					m.DrawID, m.PoolID = 1+rng.Int64N(100), "1:1:EXPRESS"
				}
				after += money.Amount(tote.JackpotKinds[m.Kind].Sign) * m.Amount
				moves = append(moves, m)
			}
			// An empty chain opens at whatever the ledger held; a chain
			// already open must end where the ledger does.
			if _, err := tote.ChainJackpot(head, moves, after+1, at); head != nil && err == nil {
				t.Fatalf("trial %d: a chain ending off the ledger's balance was accepted", trial)
			}
			es, err := tote.ChainJackpot(head, moves, after, at)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			all = append(all, es...)
			if len(all) > 0 {
				head = &all[len(all)-1]
			}
			ledger = after
		}
		for i, e := range all {
			h, err := tote.JackpotHash(e)
			switch {
			case err != nil || h != e.Hash:
				t.Fatalf("trial %d: entry %d hash %s, want %s (%v)", trial, e.Seq, e.Hash, h, err)
			case e.Seq != int64(i+1):
				t.Fatalf("trial %d: entry %d at position %d", trial, e.Seq, i)
			case e.After != e.Before+money.Amount(tote.JackpotKinds[e.Kind].Sign)*e.Amount || e.After < 0:
				t.Fatalf("trial %d: entry %+v does not add up", trial, e)
			case i == 0 && (e.Kind != tote.JackpotOpening || e.PrevHash != tote.JackpotGenesis):
				t.Fatalf("trial %d: the chain opens with %+v", trial, e)
			case i > 0 && (e.PrevHash != all[i-1].Hash || e.Before != all[i-1].After):
				t.Fatalf("trial %d: entry %d does not follow entry %d", trial, e.Seq, all[i-1].Seq)
			case !e.At.Equal(at.Truncate(time.Millisecond)):
				t.Fatalf("trial %d: time %s", trial, e.At)
			}
		}
		if len(all) > 0 && all[len(all)-1].After != ledger {
			t.Fatalf("trial %d: the chain ends at %s, the ledger holds %s", trial, all[len(all)-1].After, ledger)
		}
	}
}
