package cards_test

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/cards"
)

// A player checks a finished draw: the commitment published when the draw
// opened, the public seed published when round 1 closed, and the server
// seed revealed at the end give back the deck and the deal.
func ExampleVerify() {
	server, _ := cards.ParseSeed("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	commitment, _ := cards.ParseCommitment("630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
	deck, err := cards.Verify(server, commitment, []byte("pokertote"))
	if err != nil {
		fmt.Println(err)
		return
	}
	deal := cards.DealTote(deck, 6)
	for i, p := range deal.Pockets {
		fmt.Printf("position %d: %s\n", i+1, cards.Format(p[:]))
	}
	fmt.Println("burns:", cards.Format(deal.Burns[:]))
	board := deal.Board()
	fmt.Println("board:", cards.Format(board[:]))
	// Output:
	// position 1: 3d Jh
	// position 2: Ks 6h
	// position 3: Js 7d
	// position 4: Qc 2d
	// position 5: Ad 9s
	// position 6: 4h 5h
	// burns: 3c 6s 5d
	// board: Kc Ts Td 9h Ah
}

// A seed that does not hash to the published commitment is refused.
func ExampleVerify_mismatch() {
	var server cards.Seed // all zeros
	_, err := cards.Verify(server, [32]byte{}, nil)
	fmt.Println(err)
	// Output:
	// the server seed does not match the commitment: SHA-256 of the seed is 66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925, the commitment is 0000000000000000000000000000000000000000000000000000000000000000
}
