package cards

import (
	"crypto/subtle"

	"github.com/pokertote/pokertote/domain/errs"
)

// Deck is the 52 cards in the order they are dealt: Deck[0] is the top
// card, dealt first.
type Deck [NumCards]Card

// OrderedDeck returns the unshuffled deck, in card-number order
// (2c 2d 2h 2s 3c ... As): the order Shuffle starts from.
func OrderedDeck() Deck {
	var d Deck
	for i := range d {
		d[i] = Card(i)
	}
	return d
}

// Shuffle returns the deck of a draw: the provably fair shuffle of SPEC 1.8
// (seed rule 14). It is a pure function of the secret server seed and the
// public seed, so that once the server seed is revealed anyone can
// recompute the deck:
//
//  1. Start from OrderedDeck: position p holds card p (2c 2d 2h 2s 3c ... As).
//  2. Make the Stream of (server, public): HMAC-SHA256 blocks keyed by the
//     server seed over public ‖ 8-byte big-endian block counter, read a byte
//     at a time.
//  3. Fisher-Yates from the last index down: for i = 51, 50, ..., 1, draw
//     j = IntN(i+1) from the stream (one byte b at a time, discarding
//     b >= 256 - 256 mod (i+1), then j = b mod (i+1)) and swap the cards
//     at positions i and j.
//
// The result is Deck[0] first. Every one of the 52! orders is equally
// likely given a uniformly random server seed.
func Shuffle(server Seed, public []byte) Deck {
	d := OrderedDeck()
	s := NewStream(server, public)
	for i := NumCards - 1; i > 0; i-- {
		j := s.IntN(i + 1)
		d[i], d[j] = d[j], d[i]
	}
	return d
}

// Verify checks a revealed server seed against the commitment published
// when the draw opened and returns the deck it produces with the public
// seed. A seed that does not match the commitment is an errs.Invalid error
// with reason COMMITMENT_MISMATCH and no deck.
func Verify(server Seed, commitment [SeedSize]byte, public []byte) (Deck, error) {
	got := Commitment(server)
	if subtle.ConstantTimeCompare(got[:], commitment[:]) != 1 {
		return Deck{}, errs.R(errs.Invalid, ReasonCommitmentMismatch,
			"the server seed does not match the commitment: SHA-256 of the seed is %s, the commitment is %s",
			FormatCommitment(got), FormatCommitment(commitment))
	}
	return Shuffle(server, public), nil
}

// Valid reports whether the deck holds each of the 52 cards exactly once.
func (d Deck) Valid() bool {
	var seen Set
	for _, c := range d {
		if !c.Valid() || seen.Has(c) {
			return false
		}
		seen = seen.With(c)
	}
	return true
}

// String returns the deck top card first, separated by spaces, the form
// ParseList reads.
func (d Deck) String() string { return Format(d[:]) }
