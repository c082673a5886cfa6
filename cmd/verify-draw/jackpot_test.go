package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// TestJackpotMode: -jackpot passes a genuine run, prints its head, and
// fails a raised jackpotBefore and a run that does not match an anchor.
func TestJackpotMode(t *testing.T) {
	h := totetest.NewHarness(t, totetest.MemEnv(t), 4)
	h.Deposit(1, 10_000*money.KZT)
	if err := h.Svc.JackpotTopUp(h.Ctx, 7, 500*money.KZT, "k1"); err != nil {
		t.Fatal(err)
	}
	d := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	for _, sel := range []string{"1", "2", "3", "4"} {
		h.MustBet(1, d, parimutuel.MarketWin, sel, 150*money.KZT)
	}
	h.RunUntil(h.Dealer, "SETTLED", totetest.InPhase(tote.PhaseSettled))
	genuine := h.JackpotRun()
	head := genuine.Entries[len(genuine.Entries)-1]

	write := func(t *testing.T, run verify.JackpotRun) string {
		t.Helper()
		b, err := json.Marshal(run)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "run.json")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var out bytes.Buffer
	if err := run([]string{"-jackpot", write(t, genuine), "-anchors", fmt.Sprintf("%d:%s", head.Seq, head.Hash)}, &out, &out); err != nil {
		t.Fatalf("a genuine run: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), head.Hash) {
		t.Errorf("the head is not printed:\n%s", out.String())
	}

	raised := genuine
	raised.Results = append([]tote.DrawResult(nil), genuine.Results...)
	raised.Results[0].JackpotBefore += 1000
	raised.Results[0].JackpotAfter += 1000
	if err := run([]string{"-jackpot", write(t, raised)}, &out, &out); !errors.Is(err, errMismatch) {
		t.Errorf("a raised jackpotBefore: %v", err)
	}
	other := strings.Repeat("ab", 32)
	if err := run([]string{"-jackpot", write(t, genuine), "-anchors", fmt.Sprintf("%d:%s", head.Seq, other)}, &out, &out); !errors.Is(err, errMismatch) {
		t.Errorf("a run against another recorded head: %v", err)
	}
}
