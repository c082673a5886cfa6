package tote_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// TestChancesOverBoardsIsTheOddsCount: the general board walk a market's
// chances fall back on (parimutuel.ChancesOverBoards over
// ChanceSource.EachBoard, TOP_TWO's) gives exactly WIN's and COMBINATION's
// chances, which their rules read from odds' counts, at the pockets, the
// flop and the turn.
func TestChancesOverBoardsIsTheOddsCount(t *testing.T) {
	var specs []parimutuel.MarketSpec
	for _, m := range parimutuel.Production().Specs() {
		if m.Rule.Chances() == parimutuel.ChancesBoards {
			specs = append(specs, m)
		}
	}
	if len(specs) != 2 {
		t.Fatalf("%d production markets count their chances over the boards", len(specs))
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
			src := tote.ChanceSourceOf(pockets, b, r)
			for _, m := range specs {
				want, err := m.Chances(src, tote.SuspendAtMax)
				if err != nil {
					t.Fatal(err)
				}
				got, err := parimutuel.ChancesOverBoards(m, src, tote.SuspendAtMax)
				if err != nil {
					t.Fatal(err)
				}
				if len(want) != len(m.Selections(n)) || !reflect.DeepEqual(got, want) {
					t.Fatalf("trial %d round %s %s: walked %+v, counted %+v", trial, r, m.Name, got, want)
				}
			}
		}
	}
}
