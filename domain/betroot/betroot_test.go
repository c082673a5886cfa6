package betroot

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/rfc6962"
	"pgregory.net/rapid"
)

func leaves(n int) []Leaf {
	out := make([]Leaf, n)
	for i := range out {
		out[i] = Leaf{ID: int64(10 + 3*i), Round: 2, Market: "WIN", Selection: string(rune('1' + i%6)), Stake: int64(10_000 + i)}
	}
	return out
}

// TestKnownAnswer pins the leaf encoding and the root of a small tree
// (docs/fairness.md section 11 and web/src/verify/merkle.test.ts hold the
// same figures).
func TestKnownAnswer(t *testing.T) {
	l := Leaf{ID: 42, Round: 1, Market: "WIN", Selection: "3", Stake: 100_00}
	if got := hex.EncodeToString(l.Bytes()); got != "706f6b6572746f74652f6265742f7631000000000000002a010357494e01330000000000002710" {
		t.Errorf("leaf bytes %s", got)
	}
	r, err := Of(2, leaves(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("leaf hash %x, root of 3: %s", l.Hash(), r.Root)
	if r.NumBets != 3 || r.Stakes != 30_003 || r.Root != knownRoot3 {
		t.Errorf("root %+v", r)
	}
	if e, _ := Of(1, nil); e.Root != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("empty root %s", e.Root)
	}
}

// knownRoot3 is the root of leaves(3), cross-checked by an independent
// Python RFC 6962 implementation.
const knownRoot3 = "93b5016610b4c29fc907aff913a1e4877f2beca1b511f0d15a667df58b719013"

// TestProofs: every leaf of trees of 1..40 bets proves against the root,
// checked by transparency-dev/merkle's verifier; the root equals the
// library's compact range over the same leaves; a changed stake, id,
// selection, index or root fails.
func TestProofs(t *testing.T) {
	rf := compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}
	for n := 1; n <= 40; n++ {
		ls := leaves(n)
		root, err := Of(2, ls)
		if err != nil {
			t.Fatal(err)
		}
		cr := rf.NewEmptyRange(0)
		for _, l := range ls {
			if err := cr.Append(l.Hash(), nil); err != nil {
				t.Fatal(err)
			}
		}
		want, err := cr.GetRootHash(nil)
		if err != nil || hex.EncodeToString(want) != root.Root {
			t.Fatalf("n=%d: root %s, the compact range gives %x (%v)", n, root.Root, want, err)
		}
		for i, l := range ls {
			p, err := Prove(ls, l.ID)
			if err != nil {
				t.Fatal(err)
			}
			if p.Index != uint64(i) || p.Size != uint64(n) {
				t.Fatalf("proof %+v for leaf %d of %d", p, i, n)
			}
			if err := Verify(l, p, root.Root); err != nil {
				t.Fatalf("n=%d i=%d: %v", n, i, err)
			}
			bad := l
			bad.Stake++
			if err := Verify(bad, p, root.Root); !errors.Is(err, ErrNotIncluded) {
				t.Fatalf("an inflated stake proves: %v", err)
			}
			if n > 1 {
				q := p
				q.Index = (q.Index + 1) % q.Size
				if err := Verify(l, q, root.Root); err == nil {
					t.Fatalf("a wrong index proves")
				}
			}
		}
	}
	if _, err := Prove(leaves(3), 11); err == nil {
		t.Error("a bet not in the round proves")
	}
	if _, err := Of(2, []Leaf{{ID: 2, Round: 2}, {ID: 1, Round: 2}}); err == nil {
		t.Error("unsorted leaves accepted")
	}
	if _, err := ParseHash("AB" + knownRoot3); err == nil {
		t.Error("upper-case hex accepted")
	}
}

// TestRootBindsEveryField: any change to any leaf changes the root
// (property).
func TestRootBindsEveryField(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(rt, "n")
		ls := leaves(n)
		before, _ := Of(2, ls)
		i := rapid.IntRange(0, n-1).Draw(rt, "leaf")
		switch rapid.IntRange(0, 3).Draw(rt, "field") {
		case 0:
			ls[i].Stake += rapid.Int64Range(1, 1000).Draw(rt, "delta")
		case 1:
			ls[i].Selection += "x"
		case 2:
			ls[i].Market = "COMBINATION"
		case 3:
			ls = append(ls[:i:i], ls[i+1:]...)
		}
		after, _ := Of(2, ls)
		if after.Root == before.Root {
			rt.Fatalf("the root did not change")
		}
	})
}

// TestLeafV2KnownAnswer pins the version-2 leaf (fair deal 4): the
// reference hides the id, the time placed is in it; the browser's
// verifier (web/test/unit/merkle.test.mjs) checks the same bytes.
func TestLeafV2KnownAnswer(t *testing.T) {
	l := Leaf{Version: 2, ID: 42, Round: 1, Market: "WIN", Selection: "3", Stake: 10000, PlacedAt: time.UnixMilli(1764950400123).UTC()}
	ref := Ref(42)
	if got := hex.EncodeToString(ref[:]); got != "d86694c9457097cdaecc10d8d86dccdce9fe0b28999b1755f9bd8e34c3643800" {
		t.Errorf("ref %s", got)
	}
	if got := hex.EncodeToString(l.Bytes()); got != "706f6b6572746f74652f6265742f7632d86694c9457097cdaecc10d8d86dccdce9fe0b28999b1755f9bd8e34c3643800010357494e013300000000000027100000019aef3ddc7b" {
		t.Errorf("bytes %s", got)
	}
	p := l.Public()
	if p.ID != 0 || p.Ref != hex.EncodeToString(ref[:]) {
		t.Errorf("the published leaf %+v names the id", p)
	}
	if h, err := p.Hash(); err != nil || !bytes.Equal(h, l.Hash()) {
		t.Errorf("the published leaf hashes to %x (%v), the leaf to %x", h, err, l.Hash())
	}
	moved := l
	moved.PlacedAt = moved.PlacedAt.Add(time.Millisecond)
	if bytes.Equal(moved.Hash(), l.Hash()) {
		t.Error("the time placed is not in the leaf")
	}
}

// TestFolderIsOf: folding leaves one at a time in a compact range gives
// the root, count and stakes Of gives, for every size up to 70.
func TestFolderIsOf(t *testing.T) {
	var ls []Leaf
	for n := 0; n <= 70; n++ {
		f := NewFolder()
		for _, l := range ls {
			if err := f.Add(l.Hash(), l.Stake); err != nil {
				t.Fatal(err)
			}
		}
		got, err := f.Root(2)
		want, err2 := Of(2, ls)
		if err != nil || err2 != nil || !Equal(got, want) {
			t.Fatalf("n=%d: folded %+v (%v), Of %+v (%v)", n, got, err, want, err2)
		}
		ls = append(ls, Leaf{Version: 1 + n%2, ID: int64(n + 1), Round: 2, Market: "WIN", Selection: fmt.Sprint(1 + n%4), Stake: int64(100 + n), PlacedAt: time.UnixMilli(int64(n))})
	}
}
