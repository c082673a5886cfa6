package hand_test

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
)

func ExampleEvaluate() {
	board := cards.MustParseList("Kh 5c Kd 9s 5h")
	a := hand.Evaluate(append(cards.MustParseList("Ks 2c"), board...))
	b := hand.Evaluate(append(cards.MustParseList("9c 9d"), board...))
	fmt.Println(a.Category(), "-", a.Describe())
	fmt.Println(b.Category(), "-", b.Describe())
	fmt.Println("first wins:", a > b)
	// Output:
	// FULL_HOUSE - Full house, kings over fives
	// FULL_HOUSE - Full house, nines over kings
	// first wins: true
}

func ExampleBestFive() {
	v, five := hand.BestFive(cards.MustParseList("Ac 2d 3h 4s 5c 9d 9h"))
	fmt.Println(v.Describe(), "-", cards.Format(five[:]))
	// Output: Straight, five high - 5c 4s 3h 2d Ac
}

// A board's Key is summed once; each pocket then costs one Add and one
// lookup.
func ExampleEvalKey() {
	board := hand.KeyOfCards(cards.MustParseList("Ah Th 7h 2c 2d")...)
	for _, pocket := range []string{"Kh 3h", "7c 7s", "Ad Kd"} {
		v := hand.EvalKey(board.Add(hand.KeyOfCards(cards.MustParseList(pocket)...)))
		fmt.Printf("%s: %s\n", pocket, v.Describe())
	}
	// Output:
	// Kh 3h: Flush, ace high
	// 7c 7s: Full house, sevens over twos
	// Ad Kd: Two pair, aces and twos
}
