package hand

import "github.com/pokertote/pokertote/domain/cards"

// Describe returns the hand in words for players: "Flush, ace high",
// "Full house, kings over fives", "Straight, five high", "Two pair, aces and
// tens", "Pair, sevens", "High card, queen", "Royal flush". The zero Value
// is "No hand".
func (v Value) Describe() string {
	if v == 0 {
		return "No hand"
	}
	r := v.ranks()
	switch v.Category() {
	case HighCard:
		return "High card, " + r[0].Name()
	case Pair:
		return "Pair, " + plural(r[0])
	case TwoPair:
		return "Two pair, " + plural(r[0]) + " and " + plural(r[2])
	case ThreeOfAKind:
		return "Three of a kind, " + plural(r[0])
	case Straight:
		return "Straight, " + r[0].Name() + " high"
	case Flush:
		return "Flush, " + r[0].Name() + " high"
	case FullHouse:
		return "Full house, " + plural(r[0]) + " over " + plural(r[3])
	case FourOfAKind:
		return "Four of a kind, " + plural(r[0])
	case StraightFlush:
		return "Straight flush, " + r[0].Name() + " high"
	case RoyalFlush:
		return "Royal flush"
	}
	return "Unknown hand"
}

func plural(r cards.Rank) string {
	if r == cards.Six {
		return "sixes"
	}
	return r.Name() + "s"
}
