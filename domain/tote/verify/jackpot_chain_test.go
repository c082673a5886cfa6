package verify_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// genuineJackpotRun plays a top-up, a draw whose 3-of-3 coupons take the
// jackpot and a draw that only feeds it, and returns the whole chain with
// every result.
func genuineJackpotRun(t *testing.T) verify.JackpotRun {
	t.Helper()
	h := totetest.NewHarness(t, totetest.MemEnv(t), 3)
	h.Deposit(1, money.Tenge(100_000))
	if err := h.Svc.JackpotTopUp(h.Ctx, 7, money.Tenge(1000), "t1"); err != nil {
		t.Fatal(err)
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	for f := 1; f <= 3; f++ {
		for tu := 1; tu <= 3; tu++ {
			for r := 1; r <= 3; r++ {
				h.MustBet(1, d, parimutuel.MarketExpress, strconv.Itoa(f)+"-"+strconv.Itoa(tu)+"-"+strconv.Itoa(r), money.Tenge(100))
			}
		}
	}
	h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	d = h.RunUntil(h.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 && x.Phase == tote.PhasePreDeal })
	for p := 1; p <= 3; p++ {
		h.MustBet(1, d, parimutuel.MarketWin, strconv.Itoa(p), money.Tenge(100))
	}
	h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	if err := h.Svc.JackpotTopUp(h.Ctx, 7, money.Tenge(5), "t2"); err != nil {
		t.Fatal(err)
	}
	return h.JackpotRun()
}

// cloneRun copies a run deeply (through JSON, as a checker reads it).
func cloneRun(t *testing.T, run verify.JackpotRun) verify.JackpotRun {
	t.Helper()
	b, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	var out verify.JackpotRun
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// rechain recomputes every entry from index i on: balances from the
// amounts, prevHash and hash, as a forger rewriting the chain would.
func rechain(t *testing.T, es []tote.JackpotEntry, i int) {
	t.Helper()
	for ; i < len(es); i++ {
		if i > 0 {
			es[i].Before, es[i].PrevHash = es[i-1].After, es[i-1].Hash
		}
		es[i].After = es[i].Before + money.Amount(tote.JackpotKinds[es[i].Kind].Sign)*es[i].Amount
		h, err := tote.JackpotHash(es[i])
		if err != nil {
			t.Fatal(err)
		}
		es[i].Hash = h
	}
}

// entryOf is the index of the first entry of kind k.
func entryOf(t *testing.T, es []tote.JackpotEntry, k tote.JackpotKind) int {
	t.Helper()
	i := slices.IndexFunc(es, func(e tote.JackpotEntry) bool { return e.Kind == k })
	if i < 0 {
		t.Fatalf("no %s entry in %+v", k, es)
	}
	return i
}

// resultOf is the index of the result with a jackpot win.
func winningResult(t *testing.T, rs []tote.DrawResult) int {
	t.Helper()
	for i, r := range rs {
		for _, p := range r.Pools {
			if p.JackpotPaid > 0 {
				return i
			}
		}
	}
	t.Fatal("no result won the jackpot")
	return -1
}

// TestJackpotChain: a genuine run (an opening, top-ups, a win,
// contributions) passes, and every tamper the auditor named is rejected.
func TestJackpotChain(t *testing.T) {
	genuine := genuineJackpotRun(t)
	kinds := map[tote.JackpotKind]bool{}
	for _, e := range genuine.Entries {
		kinds[e.Kind] = true
	}
	for _, k := range []tote.JackpotKind{tote.JackpotOpening, tote.JackpotTopUp, tote.JackpotWin, tote.JackpotContribution} {
		if !kinds[k] {
			t.Fatalf("the genuine run has no %s entry: %+v", k, genuine.Entries)
		}
	}
	if p := verify.JackpotChain(genuine); len(p) > 0 {
		t.Fatalf("the genuine run: %v", p)
	}
	head := genuine.Entries[len(genuine.Entries)-1]
	recorded := []verify.JackpotAnchor{{Seq: head.Seq, Hash: head.Hash}}

	tests := []struct {
		name   string
		tamper func(t *testing.T, run *verify.JackpotRun)
		want   string
	}{
		{"genuine with the head recorded", func(t *testing.T, run *verify.JackpotRun) { run.Anchors = recorded }, ""},
		{"a later run alone", func(t *testing.T, run *verify.JackpotRun) {
			// A checker may start anywhere: the run from the win on, with
			// the results of the draws in it, holds.
			i := entryOf(t, run.Entries, tote.JackpotWin)
			run.Entries = run.Entries[i:]
			w := winningResult(t, run.Results)
			var keep []tote.DrawResult
			for _, r := range run.Results {
				if r.JackpotChain.After >= run.Entries[0].Seq-1 {
					keep = append(keep, r)
				}
			}
			if len(keep) == 0 || keep[len(keep)-1].DrawID != run.Results[w].DrawID {
				t.Fatalf("the winning draw is not in the later run")
			}
			run.Results = keep
		}, ""},
		{"a raised jackpotBefore", func(t *testing.T, run *verify.JackpotRun) {
			r := &run.Results[winningResult(t, run.Results)]
			r.JackpotBefore += 1000
			r.JackpotAfter += 1000
			for i := range r.Pools {
				r.Pools[i].JackpotBefore += 1000
			}
		}, "jackpotBefore"},
		{"a raised jackpotBefore with the chain recomputed from the top-up", func(t *testing.T, run *verify.JackpotRun) {
			r := &run.Results[winningResult(t, run.Results)]
			r.JackpotBefore += 1000
			for i := range r.Pools {
				r.Pools[i].JackpotBefore += 1000
				r.Pools[i].JackpotPaid += 1000 * money.Amount(min(r.Pools[i].JackpotPaid, 1))
			}
			i := entryOf(t, run.Entries, tote.JackpotTopUp)
			run.Entries[i].Amount += 1000
			w := entryOf(t, run.Entries, tote.JackpotWin)
			run.Entries[w].Amount += 1000
			rechain(t, run.Entries, i)
			run.Anchors = recorded
		}, "anchor held"},
		{"a reduced win", func(t *testing.T, run *verify.JackpotRun) {
			r := &run.Results[winningResult(t, run.Results)]
			for i := range r.Pools {
				if r.Pools[i].JackpotPaid > 0 {
					r.Pools[i].JackpotPaid -= 1000
					r.JackpotAfter += 1000
				}
			}
		}, "the result says WIN"},
		{"a reduced win entry with the chain recomputed", func(t *testing.T, run *verify.JackpotRun) {
			w := entryOf(t, run.Entries, tote.JackpotWin)
			run.Entries[w].Amount -= 1000
			rechain(t, run.Entries, w)
		}, "the result says WIN"},
		{"a dropped entry", func(t *testing.T, run *verify.JackpotRun) {
			i := entryOf(t, run.Entries, tote.JackpotContribution)
			run.Entries = slices.Delete(run.Entries, i, i+1)
		}, "missing"},
		{"a dropped entry with the chain recomputed", func(t *testing.T, run *verify.JackpotRun) {
			i := entryOf(t, run.Entries, tote.JackpotContribution)
			run.Entries = slices.Delete(run.Entries, i, i+1)
			for j := i; j < len(run.Entries); j++ {
				run.Entries[j].Seq--
			}
			rechain(t, run.Entries, i)
		}, "jackpotAfter"},
		{"a rewritten entry with the chain recomputed", func(t *testing.T, run *verify.JackpotRun) {
			i := entryOf(t, run.Entries, tote.JackpotTopUp)
			run.Entries[i].At = run.Entries[i].At.Add(-time.Hour)
			rechain(t, run.Entries, i)
			run.Anchors = recorded
		}, "anchor held"},
		{"an entry edited without its hash", func(t *testing.T, run *verify.JackpotRun) {
			i := entryOf(t, run.Entries, tote.JackpotTopUp)
			run.Entries[i].Amount += 1000
			run.Entries[i].After += 1000
		}, "its fields hash to"},
		{"a result left out", func(t *testing.T, run *verify.JackpotRun) {
			run.Results = slices.Delete(run.Results, winningResult(t, run.Results), winningResult(t, run.Results)+1)
		}, "whose result was not given"},
		{"an unknown kind", func(t *testing.T, run *verify.JackpotRun) {
			i := entryOf(t, run.Entries, tote.JackpotTopUp)
			run.Entries[i].Kind = "ADJUSTMENT"
		}, "unknown kind"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := cloneRun(t, genuine)
			tc.tamper(t, &run)
			problems := verify.JackpotChain(run)
			if tc.want == "" {
				if len(problems) > 0 {
					t.Fatalf("rejected: %v", problems)
				}
				return
			}
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Fatalf("want a problem with %q, got %v", tc.want, problems)
			}
		})
	}
}

var updateJackpot = flag.Bool("update-jackpot", false, "regenerate testdata/jackpot/run.json from a fresh genuine run")

// TestJackpotRunFile: the shared run testdata/jackpot/run.json (which the
// browser's verifier checks too, web/test/unit/jackpot.test.mjs) holds;
// -update-jackpot makes it again.
func TestJackpotRunFile(t *testing.T) {
	path := filepath.Join("..", "..", "..", "testdata", "jackpot", "run.json")
	if *updateJackpot {
		b, err := json.MarshalIndent(genuineJackpotRun(t), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var run verify.JackpotRun
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	if p := verify.JackpotChain(run); len(p) > 0 {
		t.Fatalf("%s: %v", path, p)
	}
}
