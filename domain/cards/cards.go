// Package cards defines playing cards, their text form ("Ah", "Td", "2c"),
// sets of cards, and the provably fair shuffle that orders a deck.
package cards

import (
	"fmt"
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
// "10d" is refused: ten is written T. Anything else, including surrounding
// spaces, is an errs.Invalid error with reason INVALID_CARD.
func Parse(s string) (Card, error) {
	c, ok := parse(s)
	if !ok {
		return 0, errs.R(errs.Invalid, ReasonInvalidCard, "%s", badCardMessage(s))
	}
	return c, nil
}

// parse reads exactly one two-character card.
func parse(s string) (Card, bool) {
	if len(s) != 2 {
		return 0, false
	}
	r := strings.IndexByte(rankChars, upper(s[0]))
	u := strings.IndexByte(suitChars, lower(s[1]))
	if r < 0 || u < 0 {
		return 0, false
	}
	return New(Rank(r), Suit(u)), true
}

// ParseList reads cards written one after another, optionally separated by
// spaces, tabs, newlines or commas ("AhKd", "Ah Kd", "Ah,Kd"). Input with
// no cards at all ("", " ") is the empty list, so that Format's output for
// no cards reads back. A bad card or a duplicate card is an errs.Invalid
// error (reasons INVALID_CARD and DUPLICATE_CARD) naming the card's place.
func ParseList(s string) ([]Card, error) {
	var out []Card
	var seen Set
	rest := s
	for n := 1; ; n++ {
		rest = strings.TrimLeft(rest, listSeparators)
		if rest == "" {
			break
		}
		c, ok := parse(rest[:min(2, len(rest))])
		if !ok {
			return nil, errs.R(errs.Invalid, ReasonInvalidCard, "card %d of %q: %s", n, s, badCardMessage(badToken(rest)))
		}
		if seen.Has(c) {
			return nil, errs.R(errs.Invalid, ReasonDuplicateCard, "card %s appears twice in %q", c, s)
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

// listSeparators are the characters ParseList skips between cards.
const listSeparators = " \t\r\n,"

// badToken returns the text a bad card in a list is reported as: its two
// characters, or three for "10x" so that the hint about T makes sense.
func badToken(rest string) string {
	if strings.HasPrefix(rest, "10") && len(rest) >= 3 {
		return rest[:3]
	}
	return rest[:min(2, len(rest))]
}

// badCardMessage explains why s is not a card, with a hint for the usual
// mistakes.
func badCardMessage(s string) string {
	const how = "write a rank (2-9, T, J, Q, K, A) then a suit (c, d, h, s), like Ah or Td"
	switch {
	case s == "":
		return "a card is missing: " + how
	case strings.HasPrefix(s, "10"):
		return fmt.Sprintf("%q is not a card: ten is written T, like Td", s)
	}
	return fmt.Sprintf("%q is not a card: %s", s, how)
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
