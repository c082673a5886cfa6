// Package cards defines playing cards, their text form ("Ah", "Td", "2c"),
// sets of cards, and the provably fair shuffle that orders a deck.
package cards

import (
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
)

// Rank is a card rank, Two (0) up to Ace (12).
type Rank uint8

// The thirteen ranks, low to high.
const (
	Two Rank = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// Suit is a card suit. Suits never rank against each other.
type Suit uint8

// The four suits.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

const rankChars = "23456789TJQKA"
const suitChars = "cdhs"

// Card is one of the 52 cards, numbered rank*4 + suit (0 = 2c ... 51 = As).
// The number is stable: it is stored in the database and used by the
// evaluator's tables.
type Card uint8

// NumCards is the size of a deck.
const NumCards = 52

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card(uint8(r)*4 + uint8(s)) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c >> 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c & 3) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < NumCards }

// String returns the two-character form, "Ah", "Td", "2c"; "??" for an
// invalid card.
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	return string([]byte{rankChars[c.Rank()], suitChars[c.Suit()]})
}

// String returns the rank's character: "2".."9", "T", "J", "Q", "K", "A".
func (r Rank) String() string {
	if r > Ace {
		return "?"
	}
	return rankChars[r : r+1]
}

// Name returns the rank's English name in the singular ("ace").
func (r Rank) Name() string {
	names := [...]string{"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"}
	if r > Ace {
		return "?"
	}
	return names[r]
}

// String returns the suit's character: "c", "d", "h", "s".
func (s Suit) String() string {
	if s > Spades {
		return "?"
	}
	return suitChars[s : s+1]
}

// Parse reads one card: a rank character (2-9, T, J, Q, K, A; lower case
// accepted) followed by a suit character (c, d, h, s; upper case accepted).
// "10d" is refused: ten is written T.
func Parse(s string) (Card, error) {
	if len(s) != 2 {
		return 0, badCard(s)
	}
	r := strings.IndexByte(rankChars, upper(s[0]))
	u := strings.IndexByte(suitChars, lower(s[1]))
	if r < 0 || u < 0 {
		return 0, badCard(s)
	}
	return New(Rank(r), Suit(u)), nil
}

// MustParse is Parse for constants in tests and examples; it panics on bad input.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads cards written one after another, optionally separated by
// spaces or commas ("AhKd", "Ah Kd", "Ah,Kd"). A duplicate card is an error.
func ParseList(s string) ([]Card, error) {
	var out []Card
	var seen Set
	rest := s
	for {
		rest = strings.TrimLeft(rest, " ,")
		if rest == "" {
			break
		}
		if len(rest) < 2 {
			return nil, badCard(rest)
		}
		c, err := Parse(rest[:2])
		if err != nil {
			return nil, err
		}
		if seen.Has(c) {
			return nil, errs.R(errs.Invalid, "DUPLICATE_CARD", "card %s appears twice in %q", c, s)
		}
		seen = seen.With(c)
		out = append(out, c)
		rest = rest[2:]
	}
	return out, nil
}

// MustParseList is ParseList for constants; it panics on bad input.
func MustParseList(s string) []Card {
	cs, err := ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// Format writes cards with single spaces between them ("Ah Kd 7c").
func Format(cs []Card) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
	}
	return b.String()
}

func badCard(s string) error {
	return errs.R(errs.Invalid, "INVALID_CARD", "%q is not a card: write a rank (2-9, T, J, Q, K, A) then a suit (c, d, h, s), like Ah or Td", s)
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b - 'A' + 'a'
	}
	return b
}

// Set is a set of cards as a 52-bit mask: bit c is card c.
type Set uint64

// SetOf returns the set of the given cards.
func SetOf(cs ...Card) Set {
	var s Set
	for _, c := range cs {
		s |= 1 << c
	}
	return s
}

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return s&(1<<c) != 0 }

// With returns the set plus c.
func (s Set) With(c Card) Set { return s | 1<<c }
