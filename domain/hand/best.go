package hand

import "github.com/pokertote/pokertote/domain/cards"

// BestFive returns the Value of 5, 6 or 7 distinct cards and the five cards
// that make it, ordered for display: the biggest group first (the pair, the
// trips, the quads), then kickers high to low; straights from the top card
// down, the wheel as 5-4-3-2-A. When several cards would do (the straight's
// five of two suits, a board playing), the earliest one in cs is taken. It
// is meant for results and the UI, not for hot loops, and panics like
// Evaluate.
func BestFive(cs []cards.Card) (Value, [5]cards.Card) {
	v := Evaluate(cs)
	cat := v.Category()
	flush := cat == Flush || cat == StraightFlush || cat == RoyalFlush
	var suit cards.Suit
	if flush {
		var perSuit [4]int
		for _, c := range cs {
			perSuit[c.Suit()]++
			if perSuit[c.Suit()] >= 5 {
				suit = c.Suit()
			}
		}
	}
	var used uint8
	var out [5]cards.Card
	for i, r := range v.ranks() {
		for j, c := range cs {
			if used&(1<<j) == 0 && c.Rank() == r && (!flush || c.Suit() == suit) {
				used |= 1 << j
				out[i] = c
				break
			}
		}
	}
	return v, out
}
