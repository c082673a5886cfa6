package tote_test

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestChancesAtTurnMatchBruteForce compares the turn round's chances with a
// count over every river: WIN is paid when the position wins or ties,
// COMBINATION when the winning hand has the category.
func TestChancesAtTurnMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	for trial := range 20 {
		n := 2 + trial%9
		deck := rng.Perm(cards.NumCards)
		pockets := make([][2]cards.Card, n)
		for i := range pockets {
			pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
		}
		board := []cards.Card{cards.Card(deck[2*n]), cards.Card(deck[2*n+1]), cards.Card(deck[2*n+2]), cards.Card(deck[2*n+3])}
		rc, err := tote.ChancesAtOpening(pockets, board, parimutuel.RoundTurn, tote.SuspendAtMax)
		if err != nil {
			t.Fatal(err)
		}
		win := make([]int64, n)
		var cat [parimutuel.NumCombinations]int64
		var boards int64
		for _, c := range deck[2*n+4:] {
			full := append(board[:4:4], cards.Card(c))
			boards++
			for _, w := range parimutuel.Leaders(pockets, full) { // positions from 1
				win[w-1]++
			}
			var five [5]cards.Card
			copy(five[:], full)
			cat[parimutuel.WinningCategory(pockets, five)]++
		}
		var want []tote.SelectionChance
		for i := range n {
			want = append(want, tote.SelectionChance{Market: parimutuel.MarketWin, Selection: strconv.Itoa(i + 1), Paid: win[i], Of: boards})
		}
		for c := range parimutuel.NumCombinations {
			want = append(want, tote.SelectionChance{Market: parimutuel.MarketCombination, Selection: parimutuel.Combination(c).String(), Paid: cat[c], Of: boards})
		}
		if !reflect.DeepEqual(rc.Chances, want) {
			t.Fatalf("trial %d: chances %+v, brute force %+v", trial, rc.Chances, want)
		}
	}
}

// TestSuspendedAtExactly: the threshold is compared exactly, at or above.
func TestSuspendedAtExactly(t *testing.T) {
	c := tote.SelectionChance{Paid: 9, Of: 10}
	if !c.SuspendedAt(9000) || c.SuspendedAt(9001) {
		t.Fatal("9 of 10 is suspended at 90.00 % and not at 90.01 %")
	}
	if err := tote.CheckSuspendAt(9001); err == nil {
		t.Fatal("SUSPEND_AT above 90 % accepted")
	}
	if err := tote.CheckSuspendAt(4999); err == nil {
		t.Fatal("SUSPEND_AT below 50 % accepted")
	}
}

// TestChancesRoundTrip: the stored form reads back as written.
func TestChancesRoundTrip(t *testing.T) {
	rcs := []tote.RoundChances{
		{Round: 2, Chances: []tote.SelectionChance{{Market: parimutuel.MarketWin, Selection: "1", Paid: 5, Of: 9}, {Market: parimutuel.MarketExpress, Selection: "1-1-2", Paid: 8, Of: 9}}},
		{Round: 4, Chances: []tote.SelectionChance{{Market: parimutuel.MarketCombination, Selection: "FLUSH", Paid: 44, Of: 44}}},
	}
	got, err := tote.ParseChances(tote.FormatChances(rcs))
	if err != nil || !reflect.DeepEqual(got, rcs) {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if _, err := tote.ParseChances("2 WIN 1"); err == nil {
		t.Fatal("a malformed entry was read")
	}
	d := tote.Draw{SuspendAt: 8000, Chances: rcs}
	if _, ok := d.Suspended(2, parimutuel.ExpressSelection(1, 1, 2)); !ok {
		t.Fatal("8 of 9 is suspended at 80 %")
	}
	if _, ok := d.Suspended(2, parimutuel.WinSelection(1)); ok {
		t.Fatal("5 of 9 is not suspended at 80 %")
	}
	if _, ok := d.Suspended(3, parimutuel.CombinationSelection(parimutuel.Flush)); ok {
		t.Fatal("a chance of round 4 suspends nothing in round 3")
	}
}
