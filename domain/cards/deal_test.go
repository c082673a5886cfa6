package cards_test

import (
	"fmt"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

// deckCards returns the cards at the given indices of the ordered deck,
// where index i is card i, so a deal's cards name the indices they came from.
func deckCards(idx ...int) []cards.Card {
	out := make([]cards.Card, len(idx))
	for i, x := range idx {
		out[i] = cards.Card(x)
	}
	return out
}

func TestDealTote(t *testing.T) {
	deck := cards.OrderedDeck() // deck[i] == card i
	for n := cards.MinPositions; n <= cards.MaxPositions; n++ {
		t.Run(fmt.Sprintf("%d positions", n), func(t *testing.T) {
			d := cards.DealTote(deck, n)
			if len(d.Pockets) != n {
				t.Fatalf("%d pockets", len(d.Pockets))
			}
			for p := 1; p <= n; p++ {
				want := [2]cards.Card{cards.Card(p - 1), cards.Card(n + p - 1)}
				if d.Pockets[p-1] != want {
					t.Errorf("position %d pocket %v, want %v", p, d.Pockets[p-1], want)
				}
			}
			k := 2 * n
			checkCards(t, "burns", d.Burns[:], deckCards(k, k+4, k+6))
			checkCards(t, "flop", d.Flop[:], deckCards(k+1, k+2, k+3))
			checkCards(t, "turn", []cards.Card{d.Turn}, deckCards(k+5))
			checkCards(t, "river", []cards.Card{d.River}, deckCards(k+7))
			board := d.Board()
			checkCards(t, "board", board[:], deckCards(k+1, k+2, k+3, k+5, k+7))
		})
	}
}

func TestDealToteSixPositionsExplicit(t *testing.T) {
	d := cards.DealTote(cards.OrderedDeck(), 6)
	// deck: 2c 2d 2h 2s 3c 3d | 3h 3s 4c 4d 4h 4s | 5c burn, 5d 5h 5s flop, 6c burn, 6d turn, 6h burn, 6s river
	got := fmt.Sprint(d.Pockets, " ", d.Burns, " ", d.Flop, " ", d.Turn, " ", d.River)
	want := "[[2c 3h] [2d 3s] [2h 4c] [2s 4d] [3c 4h] [3d 4s]] [5c 6c 6h] [5d 5h 5s] 6d 6s"
	if got != want {
		t.Errorf("deal\n%s\nwant\n%s", got, want)
	}
}

func TestDealHoldem(t *testing.T) {
	deck := cards.OrderedDeck()
	tests := []struct {
		boxes  int
		pocket [][2]int
		dealer [2]int
		board  [5]int
	}{
		{1, [][2]int{{0, 2}}, [2]int{1, 3}, [5]int{4, 5, 6, 7, 8}},
		{2, [][2]int{{0, 3}, {1, 4}}, [2]int{2, 5}, [5]int{6, 7, 8, 9, 10}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d boxes", tt.boxes), func(t *testing.T) {
			d := cards.DealHoldem(deck, tt.boxes)
			if len(d.Boxes) != tt.boxes {
				t.Fatalf("%d boxes dealt", len(d.Boxes))
			}
			for b, want := range tt.pocket {
				checkCards(t, fmt.Sprintf("box %d", b+1), d.Boxes[b][:], deckCards(want[:]...))
			}
			checkCards(t, "dealer", d.Dealer[:], deckCards(tt.dealer[:]...))
			board := d.Board()
			checkCards(t, "board", board[:], deckCards(tt.board[:]...))
			checkCards(t, "flop", d.Flop[:], deckCards(tt.board[:3]...))
		})
	}
}

func TestDealsUseDistinctCards(t *testing.T) {
	for i := range 200 {
		deck := cards.Shuffle(cards.Seed{byte(i), byte(i >> 8)}, nil)
		for n := cards.MinPositions; n <= cards.MaxPositions; n++ {
			d := cards.DealTote(deck, n)
			all := d.Burns[:]
			all = append(all, d.Flop[:]...)
			all = append(all, d.Turn, d.River)
			for _, p := range d.Pockets {
				all = append(all, p[:]...)
			}
			checkDistinct(t, all, 2*n+8)
		}
		for b := 1; b <= cards.MaxBoxes; b++ {
			d := cards.DealHoldem(deck, b)
			all := append(d.Dealer[:], d.Flop[:]...)
			all = append(all, d.Turn, d.River)
			for _, p := range d.Boxes {
				all = append(all, p[:]...)
			}
			checkDistinct(t, all, 2*b+7)
		}
	}
}

func TestDealPanicsOutOfRange(t *testing.T) {
	deck := cards.OrderedDeck()
	tests := []struct {
		name string
		deal func()
	}{
		{"tote 1 position", func() { cards.DealTote(deck, 1) }},
		{"tote 11 positions", func() { cards.DealTote(deck, 11) }},
		{"holdem 0 boxes", func() { cards.DealHoldem(deck, 0) }},
		{"holdem 3 boxes", func() { cards.DealHoldem(deck, 3) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			tt.deal()
		})
	}
}

func checkCards(t *testing.T, what string, got, want []cards.Card) {
	t.Helper()
	if cards.Format(got) != cards.Format(want) {
		t.Errorf("%s = %s, want %s", what, cards.Format(got), cards.Format(want))
	}
}

func checkDistinct(t *testing.T, cs []cards.Card, n int) {
	t.Helper()
	if len(cs) != n {
		t.Fatalf("%d cards dealt, want %d", len(cs), n)
	}
	var seen cards.Set
	for _, c := range cs {
		if !c.Valid() || seen.Has(c) {
			t.Fatalf("card %v invalid or dealt twice in %s", c, cards.Format(cs))
		}
		seen = seen.With(c)
	}
}
