package verify_test

import (
	"io"
	"testing"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/verify"
)

// sliceReader reads leaves from a slice.
func sliceReader(ls []betroot.PublicLeaf) verify.LeafReader {
	i := 0
	return func() (betroot.PublicLeaf, error) {
		if i == len(ls) {
			return betroot.PublicLeaf{}, io.EOF
		}
		i++
		return ls[i-1], nil
	}
}

// TestLeavesRecomputeEveryPool (SPEC 1.8, every bet public): a settled
// draw's published leaves carry no id, fold to its four roots, and sum to
// every selection's bets, stakes and exact payout. Stake moved between
// two selections in the published totals with the roots unchanged, a
// payout raised by one tiyn (which the totals alone allow), and leaves
// changed after the fact all fail.
func TestLeavesRecomputeEveryPool(t *testing.T) {
	h, d := settledDraw(t)
	var leaves []betroot.PublicLeaf
	if err := h.Svc.Leaves(h.Ctx, d.ID, 0, func(l betroot.PublicLeaf) error { leaves = append(leaves, l); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 7 || leaves[0].ID != 0 || len(leaves[0].Ref) != 64 || leaves[0].PlacedAt.IsZero() {
		t.Fatalf("published leaves %+v", leaves)
	}
	res := copyResult(t, *d.Result)
	if p := verify.CheckLeaves(res, sliceReader(leaves)); len(p) > 0 {
		t.Fatalf("the genuine leaves: %q", p)
	}
	win1 := func(r *tote.DrawResult) *tote.PoolResult {
		for i := range r.Pools {
			if r.Pools[i].Round == parimutuel.RoundPreDeal && r.Pools[i].Market == parimutuel.MarketWin {
				return &r.Pools[i]
			}
		}
		t.Fatal("no round-1 WIN pool")
		return nil
	}
	resultTampers := map[string]func(r *tote.DrawResult){
		"stake moved between two selections, every figure recomputed, roots unchanged": func(r *tote.DrawResult) {
			p := win1(r)
			p.Selections[0].Stakes -= 50 * money.KZT
			p.Selections[1].Stakes += 50 * money.KZT
			if err := verify.Resettle(r, false); err != nil {
				t.Fatal(err)
			}
		},
		"a payout raised by one tiyn": func(r *tote.DrawResult) {
			p := win1(r)
			for i := range p.Selections {
				if p.Selections[i].Payout > 0 {
					p.Selections[i].Payout++
					return
				}
			}
			t.Fatal("no paid selection")
		},
	}
	for name, tamper := range resultTampers {
		r := copyResult(t, res)
		tamper(&r)
		if len(verify.CheckLeaves(r, sliceReader(leaves))) == 0 {
			t.Errorf("%s: the leaves agree", name)
		}
	}
	leafTampers := map[string]func(ls []betroot.PublicLeaf){
		"a stake changed":               func(ls []betroot.PublicLeaf) { ls[0].Stake += 100 },
		"a bet dropped":                 func(ls []betroot.PublicLeaf) { ls[1] = ls[0] },
		"placed after its round closed": func(ls []betroot.PublicLeaf) { ls[6].PlacedAt = res.Beacons.ClosesAt[1] },
		"the id published":              func(ls []betroot.PublicLeaf) { ls[2].Ref, ls[2].ID = "", 3 },
		"a selection not canonical":     func(ls []betroot.PublicLeaf) { ls[0].Selection = "0" + ls[0].Selection },
	}
	for name, tamper := range leafTampers {
		ls := append([]betroot.PublicLeaf(nil), leaves...)
		tamper(ls)
		if len(verify.CheckLeaves(res, sliceReader(ls))) == 0 {
			t.Errorf("%s: the result agrees", name)
		}
	}
}
