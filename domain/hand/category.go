package hand

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/errs"
)

// Category is the kind of a poker hand, HighCard lowest. RoyalFlush is its
// own category because the COMBINATION market pays it separately.
type Category uint8

// The hand categories, low to high.
const (
	HighCard Category = iota
	Pair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
	RoyalFlush
)

// NumCategories is the number of hand categories.
const NumCategories = 10

var categoryNames = [NumCategories]string{
	"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT",
	"FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH",
}

// String returns the category's API enum name, such as "FULL_HOUSE".
func (c Category) String() string {
	if c >= NumCategories {
		return fmt.Sprintf("Category(%d)", uint8(c))
	}
	return categoryNames[c]
}

// ParseCategory reads an API enum name ("HIGH_CARD" ... "ROYAL_FLUSH"),
// exactly as String writes it.
func ParseCategory(s string) (Category, error) {
	for c, name := range categoryNames {
		if s == name {
			return Category(c), nil
		}
	}
	return 0, errs.R(errs.Invalid, ReasonInvalidCategory, "%q is not a hand category: use one of HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH", s)
}

// MarshalText writes the category by name ("FLUSH"), so stored results and
// JSON documents read the same as the API.
func (c Category) MarshalText() ([]byte, error) {
	if c >= NumCategories {
		return nil, fmt.Errorf("hand: no category %d", uint8(c))
	}
	return []byte(categoryNames[c]), nil
}

// UnmarshalText reads a category written by MarshalText.
func (c *Category) UnmarshalText(b []byte) error {
	v, err := ParseCategory(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
