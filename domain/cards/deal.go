package cards

import "fmt"

// The number of positions a totalizator table can deal to (SPEC 1).
const (
	MinPositions = 2
	MaxPositions = 10
)

// ToteDeal is the cards of one totalizator draw, as DealTote takes them
// from the deck.
type ToteDeal struct {
	// Pockets[i] is the pocket of position i+1, in the order dealt.
	Pockets [][2]Card
	// Burns are the cards burned before the flop, the turn and the river.
	Burns [3]Card
	Flop  [3]Card
	Turn  Card
	River Card
}

// Board returns the five community cards: flop, turn, river.
func (d ToteDeal) Board() [5]Card {
	return [5]Card{d.Flop[0], d.Flop[1], d.Flop[2], d.Turn, d.River}
}

// DealTote deals a shuffled deck to a totalizator draw of n positions
// (MinPositions..MaxPositions), the way a dealer deals Texas Hold'em, from
// the top of the deck (Deck[0]) down:
//
//   - deck[0..n-1]: the first pocket card of positions 1, 2, ..., n;
//   - deck[n..2n-1]: the second pocket card of positions 1, 2, ..., n;
//   - deck[2n]: burn; deck[2n+1..2n+3]: the flop;
//   - deck[2n+4]: burn; deck[2n+5]: the turn;
//   - deck[2n+6]: burn; deck[2n+7]: the river.
//
// So position p (1-based) holds deck[p-1] and deck[n+p-1]. The rest of the
// deck is never used. An n outside the range is a programming error (table
// settings are validated when saved) and panics.
func DealTote(deck Deck, n int) ToteDeal {
	if n < MinPositions || n > MaxPositions {
		panic(fmt.Sprintf("cards: DealTote with %d positions, want %d..%d", n, MinPositions, MaxPositions))
	}
	d := ToteDeal{Pockets: make([][2]Card, n)}
	for p := range n {
		d.Pockets[p] = [2]Card{deck[p], deck[n+p]}
	}
	k := 2 * n
	d.Burns[0] = deck[k]
	d.Flop = [3]Card{deck[k+1], deck[k+2], deck[k+3]}
	d.Burns[1] = deck[k+4]
	d.Turn = deck[k+5]
	d.Burns[2] = deck[k+6]
	d.River = deck[k+7]
	return d
}

// MaxBoxes is the number of boxes a Casino Hold'em player may play at once
// (SPEC 2).
const MaxBoxes = 2

// HoldemDeal is the cards of one Casino Hold'em hand, as DealHoldem takes
// them from the deck.
type HoldemDeal struct {
	// Boxes[i] is the pocket of box i+1, in the order dealt.
	Boxes  [][2]Card
	Dealer [2]Card
	Flop   [3]Card
	Turn   Card
	River  Card
}

// Board returns the five community cards: flop, turn, river.
func (d HoldemDeal) Board() [5]Card {
	return [5]Card{d.Flop[0], d.Flop[1], d.Flop[2], d.Turn, d.River}
}

// DealHoldem deals a shuffled deck to a Casino Hold'em hand with 1 or 2
// player boxes. It follows DealTote's rule with the dealer seated after the
// boxes, and without burns: with b boxes there are b+1 seats (box 1, box 2
// if played, then the dealer) and
//
//   - deck[0..b]: the first card of each seat in turn;
//   - deck[b+1..2b+1]: the second card of each seat in turn;
//   - the next 3 cards: the flop; then the turn; then the river.
//
// One box: box deck[0], deck[2]; dealer deck[1], deck[3]; flop deck[4..6];
// turn deck[7]; river deck[8]. Two boxes: box 1 deck[0], deck[3]; box 2
// deck[1], deck[4]; dealer deck[2], deck[5]; flop deck[6..8]; turn deck[9];
// river deck[10]. There are no burns because a burn guards a physical deck
// against a glimpsed top card, which a committed digital deck does not
// need, and the rules of SPEC 2 have none. Cards are dealt from the deck in
// this fixed order whatever the player decides, so a decision can never
// change which cards come later. A box count outside 1..MaxBoxes is a
// programming error and panics.
func DealHoldem(deck Deck, boxes int) HoldemDeal {
	if boxes < 1 || boxes > MaxBoxes {
		panic(fmt.Sprintf("cards: DealHoldem with %d boxes, want 1..%d", boxes, MaxBoxes))
	}
	seats := boxes + 1
	d := HoldemDeal{Boxes: make([][2]Card, boxes)}
	for b := range boxes {
		d.Boxes[b] = [2]Card{deck[b], deck[seats+b]}
	}
	d.Dealer = [2]Card{deck[boxes], deck[seats+boxes]}
	k := 2 * seats
	d.Flop = [3]Card{deck[k], deck[k+1], deck[k+2]}
	d.Turn = deck[k+3]
	d.River = deck[k+4]
	return d
}
