package verify_test

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// TestBetRootsCommitEveryRound: each ROUND_CLOSED of a draw carries the
// root of exactly the bets its round accepted; the result publishes the
// four roots; every bet proves against the root its round published; and
// a phantom bet, a selection of 2 bets published as 39,000, an inflated
// stake, a dropped selection or pool, or roots re-committed after the fact
// fail the verifier (they verified before issue 26).
func TestBetRootsCommitEveryRound(t *testing.T) {
	h, d := settledDraw(t)
	published := map[int]betroot.Root{}
	for _, e := range h.Events() {
		if e.Type == tote.EventRoundClosed && e.DrawID == d.ID {
			if e.BetRoot == nil {
				t.Fatalf("ROUND_CLOSED of round %s carries no bet root", e.Round)
			}
			published[int(e.Round)] = *e.BetRoot
		}
	}
	if len(published) != 4 || published[1].NumBets != 6 || published[2].NumBets != 1 || published[3].NumBets != 0 {
		t.Fatalf("roots published at the closes: %+v", published)
	}
	r := copyResult(t, *d.Result)
	if len(r.BetRoots) != 4 || len(verify.CheckRecordedRoots(r, []betroot.Root{published[1], published[2], published[3], published[4]})) > 0 {
		t.Fatalf("the result's roots %+v, published %+v", r.BetRoots, published)
	}
	if v := verify.Result(r); len(v.Problems) > 0 {
		t.Fatalf("%v", v.Problems)
	}
	bets, err := h.Env.Store.DrawBets(h.Ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bets {
		p, err := h.Svc.ProveBet(h.Ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		leaf := tote.LeafOf(b)
		leaf.Version = tote.LeafVersion(&d)
		if err := betroot.Verify(leaf, p.Proof, published[int(b.Round)].Root); err != nil || leaf.Version != 2 {
			t.Errorf("bet %d (leaf version %d): %v", b.ID, leaf.Version, err)
		}
		leaf.Stake += int64(money.KZT) // what an inflated bet would show
		if err := betroot.Verify(leaf, p.Proof, published[int(b.Round)].Root); err == nil {
			t.Errorf("bet %d proves with an inflated stake", b.ID)
		}
	}

	win1 := func(r *tote.DrawResult) (*tote.PoolResult, *tote.ResultSelection) {
		for i := range r.Pools {
			p := &r.Pools[i]
			if p.Round == 1 && p.Market == "WIN" {
				return p, &p.Selections[0]
			}
		}
		t.Fatal("no WIN pool of round 1")
		return nil, nil
	}
	tampers := map[string]func(r *tote.DrawResult){
		"phantom bet": func(r *tote.DrawResult) {
			p, s := win1(r)
			s.NumBets++
			s.Stakes += 5000 * money.KZT
			p.NumBets++
			p.Gross += 5000 * money.KZT
		},
		"2 bets published as 39,000": func(r *tote.DrawResult) {
			p, s := win1(r)
			p.NumBets += 39_000 - s.NumBets
			s.NumBets = 39_000
		},
		"dropped selection": func(r *tote.DrawResult) {
			p, s := win1(r)
			p.NumBets -= s.NumBets
			p.Gross -= s.Stakes
			p.Selections = p.Selections[1:]
		},
		"dropped pool": func(r *tote.DrawResult) {
			for i := range r.Pools {
				if r.Pools[i].Round == 1 && r.Pools[i].Market == "EXPRESS" {
					r.Pools = append(r.Pools[:i], r.Pools[i+1:]...)
					return
				}
			}
		},
		"roots dropped": func(r *tote.DrawResult) { r.BetRoots = r.BetRoots[:2] },
		"upper-case root": func(r *tote.DrawResult) {
			r.BetRoots[0].Root = strings.ToUpper(r.BetRoots[0].Root)
		},
	}
	for name, tamper := range tampers {
		x := copyResult(t, *d.Result)
		tamper(&x)
		v := verify.Result(x)
		if !strings.Contains(strings.Join(v.Problems, "\n"), "bet root") {
			t.Errorf("%s: no bet-root problem: %v", name, v.Problems)
		}
	}
	// A result re-committed after the fact (new roots matching phantom
	// bets) verifies on its own, but not against the roots a player saw.
	x := copyResult(t, *d.Result)
	x.BetRoots[0].NumBets++
	if p := verify.CheckRecordedRoots(x, []betroot.Root{published[1]}); len(p) == 0 {
		t.Error("a re-committed root matches the recorded one")
	}
}
