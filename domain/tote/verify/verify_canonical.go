package verify

import (
	"fmt"
	"github.com/pokertote/pokertote/domain/tote"
)

// verifyCanonical checks that every hex string of a result is written the
// one way the server writes it: lower-case, of its size. Two
// spellings of one value would let two different-looking results both
// verify, and a verifier in another language might compare the text.
func verifyCanonical(res tote.DrawResult, problem func(string, ...any)) bool {
	c := checker{problem: problem}
	// A negative size is an optional string (empty allowed) of -size bytes.
	check := func(what, s string, size int) {
		if size < 0 {
			if s == "" {
				return
			}
			size = -size
		}
		if !canonicalHex(s, size) {
			c.bad("canonical form: %s %q is not %d lower-case hex digits", what, s, 2*size)
		}
	}
	check("serverSeed", res.ServerSeed, 32)
	check("commitment", res.Commitment, 32)
	if res.PublicSeed != "" && !canonicalHex(res.PublicSeed, len(res.PublicSeed)/2) {
		c.bad("canonical form: publicSeed %q is not lower-case hex", res.PublicSeed)
	}
	if b := res.Beacons; b != nil {
		check("beacons.chain.hash", b.Chain.Hash, 32)
		check("beacons.chain.publicKey", b.Chain.PublicKey, 96)
		for i, sig := range b.Signatures {
			check(fmt.Sprintf("beacons.signatures[%d]", i), sig, -48)
		}
	}
	if v := res.VoidDetail; v != nil {
		check("voidDetail.signature", v.Signature, -48)
	}
	return c.ok()
}

// canonicalHex reports whether s is exactly 2*size lower-case hex digits.
func canonicalHex(s string, size int) bool {
	if len(s) != 2*size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// checker collects one part of the verification: every problem goes to
// the report, and the part says afterwards whether all it checked held.
type checker struct {
	problem func(string, ...any)
	failed  bool
}

// bad reports a problem and marks the part failed.
func (c *checker) bad(format string, args ...any) {
	c.failed = true
	c.problem(format, args...)
}

// ok says whether no problem was reported.
func (c *checker) ok() bool { return !c.failed }
