package odds

import (
	"math/rand/v2"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// leaders is parimutuel.Leaders with the positions counted from 0, as the
// tally counts them.
func leaders(pockets [][2]cards.Card, board []cards.Card) []int {
	ls := parimutuel.Leaders(pockets, board)
	for i := range ls {
		ls[i]--
	}
	return ls
}

// TestExpressMatchesBruteForce compares the tally with a direct count over
// every ordered deal of flop, turn and river from a reduced set of unseen
// cards, coupon by coupon, with the settlement's rule (parimutuel.Leaders)
// deciding each deal.
func TestExpressMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for trial := range 6 {
		n := 2 + trial%4
		deck := rng.Perm(cards.NumCards)
		pockets := make([][2]cards.Card, n)
		for i := range pockets {
			pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
		}
		unseen := make([]cards.Card, 0, 11)
		for _, c := range deck[2*n : 2*n+11] {
			unseen = append(unseen, cards.Card(c))
		}
		d, err := parseDeal(pockets, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := expressOver(d.pockets, unseen, 1+trial%3)
		want := map[[3]int]int64{}
		var deals int64
		u := len(unseen)
		for i := 0; i < u; i++ {
			for j := i + 1; j < u; j++ {
				for k := j + 1; k < u; k++ {
					for tc := 0; tc < u; tc++ {
						for rc := 0; rc < u; rc++ {
							if tc == i || tc == j || tc == k || rc == i || rc == j || rc == k || rc == tc {
								continue
							}
							deals++
							flop := []cards.Card{unseen[i], unseen[j], unseen[k]}
							lf := leaders(pockets, flop)
							lt := leaders(pockets, append(flop[:3:3], unseen[tc]))
							w := leaders(pockets, append(flop[:3:3], unseen[tc], unseen[rc]))
							for a := range n {
								for b := range n {
									for c := range n {
										if has(lf, a) && has(lt, b) || has(lf, a) && has(w, c) || has(lt, b) && has(w, c) {
											want[[3]int{a, b, c}]++
										}
									}
								}
							}
						}
					}
				}
			}
		}
		if got.Deals != deals {
			t.Fatalf("trial %d: %d deals, brute force %d", trial, got.Deals, deals)
		}
		for a := range n {
			for b := range n {
				for c := range n {
					if p := got.Paid(a, b, c); p.Paid != want[[3]int{a, b, c}] || p.Of != deals {
						t.Fatalf("trial %d coupon %d-%d-%d: %+v, brute force %d of %d", trial, a+1, b+1, c+1, p, want[[3]int{a, b, c}], deals)
					}
				}
			}
		}
	}
}

func has(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestExpressWorkersAgree checks that sharing the flops among workers
// changes nothing, and the number of deals, over 18 unseen cards.
func TestExpressWorkersAgree(t *testing.T) {
	ps := [][2]cards.Card{}
	for _, s := range []string{"Ah Ad", "7c 2d", "Kh Qh", "5s 5d", "Jc Tc", "9h 8h"} {
		cs := cards.MustParseList(s)
		ps = append(ps, [2]cards.Card{cs[0], cs[1]})
	}
	d, err := parseDeal(ps, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	unseen := d.unseen[:18]
	one, three := expressOver(d.pockets, unseen, 1), expressOver(d.pockets, unseen, 3)
	if want := int64(18 * 17 * 16 / 6 * 15 * 14); one.Deals != want || *one != *three {
		t.Fatalf("deals %d (want %d); one worker and three differ: %v", one.Deals, want, *one != *three)
	}
}

// TestExpressCanReachIsABound checks on random deals over a reduced set of
// unseen cards that whenever the bound says no coupon reaches the line,
// the exact tally has none at or above it, and that both answers occur.
func TestExpressCanReachIsABound(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2))
	said := map[bool]int{}
	for trial := range 200 {
		n := 2 + trial%3
		deck := rng.Perm(cards.NumCards)
		pockets := make([][2]cards.Card, n)
		for i := range pockets {
			pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
		}
		d, err := parseDeal(pockets, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		unseen := make([]cards.Card, 0, 9)
		for _, c := range deck[2*n : 2*n+9] {
			unseen = append(unseen, cards.Card(c))
		}
		d.unseen = unseen
		e := newEnumerator(d)
		tl := e.newTally(0)
		e.walk(tl, 5, 0, d.board)
		r := e.result(tl)
		x := expressOver(d.pockets, unseen, 1)
		for _, bp := range []int64{6000, 8000, 9000} {
			may := canReach(e, r, bp)
			said[may]++
			if may {
				continue
			}
			for a := range n {
				for b := range n {
					for c := range n {
						if x.Paid(a, b, c).AtLeast(bp) {
							t.Fatalf("trial %d: the bound excludes %d bp but coupon %d-%d-%d has %+v", trial, bp, a+1, b+1, c+1, x.Paid(a, b, c))
						}
					}
				}
			}
		}
	}
	if said[true] == 0 || said[false] == 0 {
		t.Fatalf("the bound answered %v: both answers must be exercised", said)
	}
}
