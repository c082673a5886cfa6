package odds_test

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
)

func ExampleCompute() {
	ps := [][2]cards.Card{
		{cards.MustParse("Ac"), cards.MustParse("Ad")},
		{cards.MustParse("Kh"), cards.MustParse("Ks")},
	}
	r, err := odds.Compute(ps, nil)
	if err != nil {
		panic(err)
	}
	aces := r.Positions[0]
	fmt.Println("boards:", r.Boards)
	fmt.Println("aces win", aces.Wins, "tie", aces.Ties, "lose", aces.Losses)
	fmt.Printf("aces equity %.4f = %v\n", aces.Equity(), aces.EquityRat())
	fmt.Printf("a flush wins %.4f of boards\n", r.CategoryProbability(hand.Flush))
	// Output:
	// boards: 1712304
	// aces win 1388072 tie 6538 lose 317694
	// aces equity 0.8126 = 29603/36432
	// a flush wins 0.0394 of boards
}

func ExampleLeaders() {
	ps := [][2]cards.Card{
		{cards.MustParse("Ah"), cards.MustParse("Kd")},
		{cards.MustParse("As"), cards.MustParse("Kc")},
		{cards.MustParse("7c"), cards.MustParse("6d")},
	}
	flop := cards.MustParseList("Ad 9h 2s")
	leaders, _ := odds.Leaders(ps, flop)
	fmt.Println("leaders after the flop (indexes):", leaders)
	turn := append(flop, cards.MustParse("8s"))
	leaders, _ = odds.Leaders(ps, turn)
	fmt.Println("leaders after the turn (indexes):", leaders)
	// Output:
	// leaders after the flop (indexes): [0 1]
	// leaders after the turn (indexes): [0 1]
}
