package odds

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
)

// randomDeal deals n pockets and a board of b cards from a shuffled deck.
func randomDeal(rng *rand.Rand, n, b int) ([][2]cards.Card, []cards.Card) {
	deck := rng.Perm(cards.NumCards)
	pockets := make([][2]cards.Card, n)
	for i := range pockets {
		pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
	}
	board := make([]cards.Card, b)
	for i := range board {
		board[i] = cards.Card(deck[2*n+i])
	}
	return pockets, board
}

// TestComputeSharedIsCompute checks that a cached answer is the
// enumeration's, that callers cannot change what others are given, and
// that the cache stays within its size.
func TestComputeSharedIsCompute(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 2))
	for i := range sharedResults + 20 {
		pockets, board := randomDeal(rng, 2+i%9, 3+i%3)
		want, err := Compute(pockets, board)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // a miss, then a hit
			got, err := ComputeShared(pockets, board)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("deal %d: shared %+v, enumerated %+v", i, got, want)
			}
			got.Positions[0].Wins++ // the caller's copy
			got.Boards++
		}
	}
	if n := len(sharedResult.m); n != sharedResults {
		t.Errorf("the cache holds %d results, want its size %d", n, sharedResults)
	}
	// The same cards in another position order are another deal.
	pockets, board := randomDeal(rng, 3, 4)
	if _, err := ComputeShared(pockets, board); err != nil {
		t.Fatal(err)
	}
	pockets[0], pockets[2] = pockets[2], pockets[0]
	want, _ := Compute(pockets, board)
	if got, _ := ComputeShared(pockets, board); !reflect.DeepEqual(got, want) {
		t.Errorf("positions swapped: shared %+v, enumerated %+v", got, want)
	}
}

// TestComputeSharedRefusesWhatComputeRefuses checks that an invalid deal
// gets the enumeration's error, also after a valid one was cached.
func TestComputeSharedRefusesWhatComputeRefuses(t *testing.T) {
	ok := [][2]cards.Card{[2]cards.Card(cards.MustParseList("Ah Kd")), [2]cards.Card(cards.MustParseList("2c 7s"))}
	if _, err := ComputeShared(ok, cards.MustParseList("3h 4h 5h 6h")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		pockets [][2]cards.Card
		board   string
		reason  string
	}{
		{"duplicate", ok, "Ah 4h 5h 6h", cards.ReasonDuplicateCard},
		{"board of two", ok, "3h 4h", ReasonWrongBoardSize},
		{"one position", ok[:1], "3h 4h 5h 6h", ReasonWrongPositionCount},
		{"eleven positions", make([][2]cards.Card, 11), "", ReasonWrongPositionCount},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			board := cards.MustParseList(tt.board)
			_, err := ComputeShared(tt.pockets, board)
			if errs.ReasonOf(err) != tt.reason {
				t.Errorf("%v, want %s", err, tt.reason)
			}
			if tt.reason != ReasonWrongPositionCount {
				return // the pockets are valid: EXPRESS would enumerate them
			}
			if _, err := ComputeExpressShared(tt.pockets); errs.ReasonOf(err) != tt.reason {
				t.Errorf("express: %v, want %s", err, tt.reason)
			}
		})
	}
}

// TestComputeExpressSharedIsComputeExpress checks a miss and a hit against
// the enumeration on a full table (the fewest unseen cards).
func TestComputeExpressSharedIsComputeExpress(t *testing.T) {
	pockets, _ := randomDeal(rand.New(rand.NewPCG(25, 3)), MaxPositions, 0)
	want, err := ComputeExpress(pockets, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		got, err := ComputeExpressShared(pockets)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("shared %+v, enumerated %+v", got.Deals, want.Deals)
		}
		got.Deals++
	}
}
