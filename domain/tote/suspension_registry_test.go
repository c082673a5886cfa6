package tote_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestChancesOverBoardsIsTheOddsCount: the general board walk a new
// market's chances may use (parimutuel.ChancesOverBoards over
// ChanceSource.EachBoard) gives exactly WIN's and COMBINATION's chances,
// which are read from odds' counts, at the flop and at the turn.
func TestChancesOverBoardsIsTheOddsCount(t *testing.T) {
	prod := parimutuel.Production()
	var walked []parimutuel.MarketSpec
	for _, m := range prod.Specs() {
		if m.Name == parimutuel.MarketExpress {
			continue // decided by the leaders too: no board's alone
		}
		m.Name = "BOARD_" + m.Name
		m.Chances = parimutuel.ChancesOverBoards
		walked = append(walked, m)
	}
	reg, err := parimutuel.NewRegistry(walked...)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(29, 5))
	for trial := range 7 {
		n := 2 + trial%9
		rounds := []parimutuel.Round{parimutuel.RoundFlop, parimutuel.RoundTurn}
		if trial == 6 {
			// Every board from the pockets: 201,376 of them at ten positions.
			n, rounds = 10, []parimutuel.Round{parimutuel.RoundPocket}
		}
		deck := rng.Perm(cards.NumCards)
		pockets := make([][2]cards.Card, n)
		for i := range pockets {
			pockets[i] = [2]cards.Card{cards.Card(deck[2*i]), cards.Card(deck[2*i+1])}
		}
		board := []cards.Card{cards.Card(deck[2*n]), cards.Card(deck[2*n+1]), cards.Card(deck[2*n+2]), cards.Card(deck[2*n+3])}
		for _, r := range rounds {
			b := board[:map[parimutuel.Round]int{parimutuel.RoundPocket: 0, parimutuel.RoundFlop: 3, parimutuel.RoundTurn: 4}[r]]
			want, err := tote.ChancesAtOpening(pockets, b, r, tote.SuspendAtMax)
			if err != nil {
				t.Fatal(err)
			}
			want.Chances = slices.DeleteFunc(want.Chances, func(c tote.SelectionChance) bool { return c.Market == parimutuel.MarketExpress })
			got, err := tote.ChancesAtOpeningIn(reg, pockets, b, r, tote.SuspendAtMax)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got.Chances {
				got.Chances[i].Market = got.Chances[i].Market[len("BOARD_"):]
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d round %s: walked %+v, counted %+v", trial, r, got.Chances, want.Chances)
			}
		}
	}
}
