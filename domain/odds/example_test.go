package odds_test

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
)

func ExampleCompute() {
	ps := [][2]cards.Card{
		[2]cards.Card(cards.MustParseList("Ac Ad")),
		[2]cards.Card(cards.MustParseList("Kh Ks")),
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
