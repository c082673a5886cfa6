package cards

import "fmt"

// The four streets of a totalizator draw, in the order they are dealt. Each
// is drawn from its own beacon round (SPEC 1.8, docs/fairness.md).
const (
	StreetPockets = 1
	StreetFlop    = 2
	StreetTurn    = 3
	StreetRiver   = 4
)

// StreetTag starts the public part of every street's stream message; it
// names the algorithm's version.
const StreetTag = "pokertote/tote/v2"

// StreetPublic is the public seed of a street's Stream: the ASCII bytes of
// StreetTag, one byte holding the street (1..4), then the 32 bytes of the
// street's beacon randomness (50 bytes in all).
func StreetPublic(street int, randomness [32]byte) []byte {
	out := make([]byte, 0, len(StreetTag)+1+32)
	out = append(out, StreetTag...)
	out = append(out, byte(street))
	return append(out, randomness[:]...)
}

// StreetCards is how many cards street s takes from the deck for n
// positions: 2n pockets; burn and three for the flop; burn and one for the
// turn and the river.
func StreetCards(street, n int) int {
	switch street {
	case StreetPockets:
		return 2 * n
	case StreetFlop:
		return 4
	case StreetTurn, StreetRiver:
		return 2
	}
	panic(fmt.Sprintf("cards: street %d", street))
}

// DrawStreet draws the cards of one street (version 2 of the fair deal):
//
//  1. The remaining cards are the 52 minus every card used by the earlier
//     streets (dealt or burned), in ascending card number (2c 2d 2h 2s 3c
//     ... As).
//  2. They are shuffled exactly as Shuffle shuffles a deck, with the Stream
//     of (server seed, StreetPublic(street, randomness)): for i = L-1 down
//     to 1, j = IntN(i+1), swap positions i and j.
//  3. The street takes the first StreetCards(street, n) cards of the
//     shuffled remainder, in order.
//
// For the pockets, card k of the result goes to position k mod n + 1 (first
// cards of positions 1..n, then second cards); for the other streets the
// first card is the burn.
func DrawStreet(server Seed, street, n int, used Set, randomness [32]byte) []Card {
	rest := make([]Card, 0, NumCards)
	for c := range Card(NumCards) {
		if !used.Has(c) {
			rest = append(rest, c)
		}
	}
	s := NewStream(server, StreetPublic(street, randomness))
	for i := len(rest) - 1; i > 0; i-- {
		j := s.IntN(i + 1)
		rest[i], rest[j] = rest[j], rest[i]
	}
	return rest[:StreetCards(street, n)]
}

// DealToteStreets deals a totalizator draw of n positions street by street
// from the beacon randomness of each street (randomness[0] for the
// pockets, [1] the flop, [2] the turn, [3] the river). Only the streets
// whose randomness is given are dealt (len(randomness) of them, 1..4); the
// rest of the ToteDeal stays zero.
func DealToteStreets(server Seed, n int, randomness [][32]byte) ToteDeal {
	if n < MinPositions || n > MaxPositions {
		panic(fmt.Sprintf("cards: DealToteStreets with %d positions, want %d..%d", n, MinPositions, MaxPositions))
	}
	d := ToteDeal{Pockets: make([][2]Card, n)}
	var used Set
	for i, r := range randomness[:min(len(randomness), 4)] {
		street := i + 1
		got := DrawStreet(server, street, n, used, r)
		for _, c := range got {
			used = used.With(c)
		}
		switch street {
		case StreetPockets:
			for p := range n {
				d.Pockets[p] = [2]Card{got[p], got[n+p]}
			}
		case StreetFlop:
			d.Burns[0], d.Flop = got[0], [3]Card{got[1], got[2], got[3]}
		case StreetTurn:
			d.Burns[1], d.Turn = got[0], got[1]
		case StreetRiver:
			d.Burns[2], d.River = got[0], got[1]
		}
	}
	return d
}
