package cards

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"

	"github.com/pokertote/pokertote/domain/errs"
)

// SeedSize is the length of a server seed and of a commitment in bytes.
const SeedSize = 32

// Seed is a draw's secret server seed (SPEC 1.8). It stays secret until the
// draw ends, so it formats as a placeholder with every fmt verb (%v, %s,
// %x, %d, %#v, ...): a seed logged by accident does not leak. Hex gives the
// real value when it is revealed.
type Seed [SeedSize]byte

// NewServerSeed draws a fresh secret seed from crypto/rand.
func NewServerSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return Seed{}, errs.Wrap(err, "could not draw a shuffle seed")
	}
	return s, nil
}

// Commitment returns SHA-256(seed), published when a draw opens so that the
// seed revealed after the draw can be checked against it.
func Commitment(seed Seed) [SeedSize]byte { return sha256.Sum256(seed[:]) }

// Hex returns the seed as 64 lower-case hexadecimal characters: the form
// in which it is revealed and which ParseSeed reads.
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// String returns a placeholder, never the secret; use Hex to reveal it.
func (s Seed) String() string { return "cards.Seed(redacted)" }

// GoString returns a placeholder, never the secret; use Hex to reveal it.
func (s Seed) GoString() string { return "cards.Seed(redacted)" }

// Format writes a placeholder for every fmt verb, never the secret; use
// Hex to reveal it.
func (s Seed) Format(f fmt.State, _ rune) { io.WriteString(f, s.String()) }

// ParseSeed reads a server seed written as 64 hexadecimal characters
// (either case), the form Hex writes. Anything else is an errs.Invalid
// error with reason INVALID_SEED.
func ParseSeed(s string) (Seed, error) {
	b, err := decodeHex32(s, "server seed", ReasonInvalidSeed)
	return Seed(b), err
}

// ParseCommitment reads a commitment written as 64 hexadecimal characters
// (either case), the form FormatCommitment writes. Anything else is an
// errs.Invalid error with reason INVALID_COMMITMENT.
func ParseCommitment(s string) ([SeedSize]byte, error) {
	return decodeHex32(s, "commitment", ReasonInvalidCommitment)
}

// FormatCommitment returns a commitment as 64 lower-case hexadecimal
// characters, the form in which it is published.
func FormatCommitment(c [SeedSize]byte) string { return hex.EncodeToString(c[:]) }

func decodeHex32(s, what, reason string) ([SeedSize]byte, error) {
	var out [SeedSize]byte
	if len(s) != 2*SeedSize {
		return [SeedSize]byte{}, errs.R(errs.Invalid, reason, "a %s is %d hexadecimal characters (%d bytes), this one has %d characters", what, 2*SeedSize, SeedSize, len(s))
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return [SeedSize]byte{}, errs.R(errs.Invalid, reason, "a %s is written in hexadecimal (0-9, a-f): character %d, %q, is not", what, i+1, s[i])
		}
	}
	if _, err := hex.Decode(out[:], []byte(s)); err != nil {
		return [SeedSize]byte{}, errs.R(errs.Invalid, reason, "a %s is written in hexadecimal (0-9, a-f)", what)
	}
	return out, nil
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// PublicSeedFromIDs returns a public seed fixed by a set of identifiers,
// such as a draw's accepted round-1 bet ids: SHA-256 over the ids sorted in
// ascending byte order, each written as its length in bytes (4-byte
// big-endian) followed by its bytes. Sorting makes the seed independent of
// the order in which bets committed; the length prefixes make it
// unambiguous ("ab","c" and "a","bc" differ). The ids slice is not changed.
func PublicSeedFromIDs(ids []string) []byte {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	h := sha256.New()
	var n [4]byte
	for _, id := range sorted {
		binary.BigEndian.PutUint32(n[:], uint32(len(id)))
		h.Write(n[:])
		h.Write([]byte(id))
	}
	return h.Sum(nil)
}
