package cards_test

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
)

func TestNewServerSeed(t *testing.T) {
	a, err := cards.NewServerSeed()
	if err != nil {
		t.Fatal(err)
	}
	b, err := cards.NewServerSeed()
	if err != nil {
		t.Fatal(err)
	}
	if a == b || a == (cards.Seed{}) {
		t.Errorf("two fresh seeds are equal or zero")
	}
}

func TestCommitmentIsSHA256(t *testing.T) {
	// SHA-256 of 32 zero bytes, a well-known value.
	const zero = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
	if got := cards.FormatCommitment(cards.Commitment(cards.Seed{})); got != zero {
		t.Errorf("Commitment(zero) = %s, want %s", got, zero)
	}
	s := cards.Seed{1, 2, 3}
	if cards.Commitment(s) != sha256.Sum256(s[:]) {
		t.Errorf("Commitment is not SHA-256 of the seed")
	}
}

func TestSeedHexRoundTrip(t *testing.T) {
	s := cards.Seed(sha256.Sum256([]byte("hex")))
	got, err := cards.ParseSeed(s.Hex())
	if err != nil || got != s {
		t.Fatalf("ParseSeed(Hex()) = %x, %v", got[:], err)
	}
	upper, err := cards.ParseSeed(strings.ToUpper(s.Hex()))
	if err != nil || upper != s {
		t.Errorf("upper-case hex: %v", err)
	}
	c := cards.Commitment(s)
	back, err := cards.ParseCommitment(cards.FormatCommitment(c))
	if err != nil || back != c {
		t.Errorf("ParseCommitment(FormatCommitment()) = %x, %v", back, err)
	}
}

func TestSeedDoesNotLeakThroughFmt(t *testing.T) {
	s := cards.Seed(sha256.Sum256([]byte("secret")))
	secret := s.Hex()
	for _, verb := range []string{"%v", "%s", "%x", "%X", "%#v", "%+v", "%q", "%d", "%o", "%08b", "%T %v"} {
		out := fmt.Sprintf(verb, s)
		if strings.Contains(strings.ToLower(out), secret[:16]) || strings.Contains(out, fmt.Sprint(s[0], " ", s[1])) {
			t.Errorf("fmt %s printed the secret: %s", verb, out)
		}
	}
	if out := fmt.Sprintf("%v %d %+v", struct{ S cards.Seed }{s}, []cards.Seed{s}, &s); strings.Contains(out, fmt.Sprint(s[0], " ", s[1])) {
		t.Errorf("seed inside a struct printed: %s", out)
	}
}

func TestParseSeedRejects(t *testing.T) {
	good := strings.Repeat("ab", 32)
	tests := []struct {
		name    string
		in      string
		mention string
	}{
		{"empty", "", "has 0 characters"},
		{"too short", good[:62], "has 62 characters"},
		{"too long", good + "00", "has 66 characters"},
		{"odd length", good[:63], "has 63 characters"},
		{"not hex", "zz" + good[2:], "character 1, 'z'"},
		{"0x prefix", "0x" + good[2:], "character 2, 'x'"},
		{"space inside", good[:10] + " " + good[11:], "character 11"},
		{"trailing newline", good[:63] + "\n", "character 64"},
		{"unicode", "é" + good[2:], "character 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := cards.ParseSeed(tt.in)
			assertInvalid(t, err, "INVALID_SEED", tt.mention)
			if s != (cards.Seed{}) {
				t.Errorf("seed returned with the error")
			}
			_, err = cards.ParseCommitment(tt.in)
			assertInvalid(t, err, "INVALID_COMMITMENT", "commitment")
		})
	}
}

func TestPublicSeedFromIDs(t *testing.T) {
	ids := []string{"bet-3", "bet-1", "bet-2"}
	a := cards.PublicSeedFromIDs(ids)
	if !slices.Equal(ids, []string{"bet-3", "bet-1", "bet-2"}) {
		t.Errorf("ids slice was changed: %v", ids)
	}
	if b := cards.PublicSeedFromIDs([]string{"bet-1", "bet-2", "bet-3"}); string(a) != string(b) {
		t.Errorf("order of ids changes the seed")
	}
	if len(a) != 32 {
		t.Errorf("length %d", len(a))
	}
	if x, y := cards.PublicSeedFromIDs([]string{"ab", "c"}), cards.PublicSeedFromIDs([]string{"a", "bc"}); string(x) == string(y) {
		t.Errorf("ids concatenated without separation")
	}
	if x, y := cards.PublicSeedFromIDs(nil), cards.PublicSeedFromIDs([]string{""}); string(x) == string(y) {
		t.Errorf("no ids and one empty id collide")
	}
	// Pinned: SHA-256 of 00000001 'a' 00000001 'b'.
	want := sha256.Sum256([]byte{0, 0, 0, 1, 'a', 0, 0, 0, 1, 'b'})
	if got := cards.PublicSeedFromIDs([]string{"b", "a"}); string(got) != string(want[:]) {
		t.Errorf("PublicSeedFromIDs(b, a) = %x, want %x", got, want)
	}
}

func FuzzParseSeed(f *testing.F) {
	for _, s := range []string{"", "00", strings.Repeat("0", 64), strings.Repeat("aB", 32), strings.Repeat("g", 64), "0x" + strings.Repeat("1", 62), strings.Repeat("é", 32)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seed, err := cards.ParseSeed(s)
		c, cerr := cards.ParseCommitment(s)
		if (err == nil) != (cerr == nil) {
			t.Fatalf("ParseSeed and ParseCommitment disagree on %q: %v, %v", s, err, cerr)
		}
		if err != nil {
			if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != "INVALID_SEED" {
				t.Fatalf("ParseSeed(%q) error %v", s, err)
			}
			if !errs.Is(cerr, errs.Invalid) || errs.ReasonOf(cerr) != "INVALID_COMMITMENT" {
				t.Fatalf("ParseCommitment(%q) error %v", s, cerr)
			}
			return
		}
		if seed.Hex() != strings.ToLower(s) || cards.FormatCommitment(c) != strings.ToLower(s) {
			t.Fatalf("%q read back as %s", s, seed.Hex())
		}
		if [32]byte(seed) != c {
			t.Fatalf("seed and commitment bytes differ for %q", s)
		}
	})
}
