package cards_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
)

// shuffleVectors are known answers. They were computed once by an
// independent Python implementation of the documented procedure (hmac,
// hashlib; about twenty lines) and pinned here; any change to them is a
// change to every past draw's verification and must never happen.
var shuffleVectors = []struct {
	name       string
	server     string // hex
	public     string // hex
	commitment string // hex, SHA-256 of server
	deck       string
}{
	{
		name:       "zero seeds",
		server:     "0000000000000000000000000000000000000000000000000000000000000000",
		public:     "",
		commitment: "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
		deck:       "Jc Qd Jd Qs 6c Jh 3h Kd 7d 2c Ac 6s 7c 3d Kh 4d Ah 6d Tc 8s Th Ad 2s 5s 4s 8d Ks 9h Kc 4c 9d 5h 9c Ts 9s 7s 3s 7h 5c Td 3c 6h 8h As 2d Qc Qh 2h Js 4h 8c 5d",
	},
	{
		name:       "counting seed",
		server:     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		public:     hex.EncodeToString([]byte("pokertote")),
		commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
		deck:       "3d Ks Js Qc Ad 4h Jh 6h 7d 2d 9s 5h 3c Kc Ts Td 6s 9h 5d Ah Qh 7c 3h 6d Qd Kh 8h 7h 7s 2h 8c 3s 4s As 5s 8d Tc 4c Jd 2s 2c 5c Jc Ac 6c 9d 8s 9c Kd 4d Th Qs",
	},
	{
		name:       "hashed seed, hashed public",
		server:     "f7995dea10482893a36be30a0530fb1a790e8776096cd75b901aa221ca2bb7ec",
		public:     "5e68cb2bdc9d676f755581a047682c1c630610d653365700151d370a373e6cfd",
		commitment: "10b6f40e31033927f36890ea8815020bc165e80771799c610665b80b575a54c5",
		deck:       "8h Th Js 9d 4d 8d Qs 2h Ad Qc 3h 2d 3s 6s Ac Jh Tc 5s Kd 2c 9h 8c 8s 4s Ks 7c 6c Qd Ts Kh Jd Qh 3c Td As Ah 7s Jc 9s 2s 6d 6h 7h 9c 4h 3d 4c Kc 5d 5c 7d 5h",
	},
	{
		name:       "long public seed",
		server:     strings.Repeat("ff", 32),
		public:     hex.EncodeToString(countingBytes(200)),
		commitment: "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
		deck:       "8h Qh 5s 4c 7h Ks 2c Qc 4h Ad 4d Jd 5h 5d 2d Jh Qd Js Kh 8c 9s Ac Td 5c Kd 7c 8d 7s Ah 2h 3h 3c 2s 4s Ts 6d As 7d 8s Th 9d 3d 6s 9h Tc Jc 3s 6h 6c 9c Kc Qs",
	},
}

func TestShuffleKnownAnswers(t *testing.T) {
	for _, v := range shuffleVectors {
		t.Run(v.name, func(t *testing.T) {
			server, err := cards.ParseSeed(v.server)
			if err != nil {
				t.Fatal(err)
			}
			commitment, err := cards.ParseCommitment(v.commitment)
			if err != nil {
				t.Fatal(err)
			}
			public, err := hex.DecodeString(v.public)
			if err != nil {
				t.Fatal(err)
			}
			if got := cards.FormatCommitment(cards.Commitment(server)); got != v.commitment {
				t.Errorf("Commitment = %s, want %s", got, v.commitment)
			}
			if got := cards.Shuffle(server, public).String(); got != v.deck {
				t.Errorf("Shuffle =\n%s\nwant\n%s", got, v.deck)
			}
			deck, err := cards.Verify(server, commitment, public)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if deck.String() != v.deck {
				t.Errorf("Verify deck =\n%s\nwant\n%s", deck, v.deck)
			}
			if ref := referenceShuffle(server[:], public); deckString(ref) != v.deck {
				t.Errorf("reference implementation disagrees with the pinned vector")
			}
		})
	}
}

// TestShuffleMatchesReference compares Shuffle with referenceShuffle, a
// second implementation written from the documentation alone, over many
// seeds and public seeds of lengths around SHA-256's 64-byte block.
func TestShuffleMatchesReference(t *testing.T) {
	publicLens := []int{0, 1, 8, 32, 47, 55, 56, 63, 64, 65, 119, 120, 200, 1000}
	for i := range 400 {
		server := cards.Seed(sha256.Sum256(fmt.Appendf(nil, "reference server %d", i)))
		public := countingBytes(publicLens[i%len(publicLens)])
		if len(public) > 0 {
			public[0] = byte(i)
		}
		got := cards.Shuffle(server, public)
		if want := referenceShuffle(server[:], public); got != want {
			t.Fatalf("seed %d, public length %d:\nShuffle   %s\nreference %s", i, len(public), got, deckString(want))
		}
	}
}

func TestStreamMatchesHMAC(t *testing.T) {
	server := cards.Seed(sha256.Sum256([]byte("stream test")))
	public := []byte("public seed")
	s := cards.NewStream(server, public)
	var want []byte
	for k := range uint64(4) {
		m := hmac.New(sha256.New, server[:])
		m.Write(public)
		m.Write(binary.BigEndian.AppendUint64(nil, k))
		want = m.Sum(want)
	}
	got := make([]byte, len(want))
	for i := range got {
		got[i] = s.Byte()
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("stream bytes\n%x\nwant HMAC blocks 0..3\n%x", got, want)
	}
}

func TestStreamCopiesPublicSeed(t *testing.T) {
	server := cards.Seed{1}
	public := []byte("cut value")
	s := cards.NewStream(server, public)
	public[0] = 'X'
	fresh := cards.NewStream(server, []byte("cut value"))
	for range 100 {
		if s.Byte() != fresh.Byte() {
			t.Fatal("stream changed when the caller changed its public seed slice")
		}
	}
}

func TestShuffleIsPermutation(t *testing.T) {
	for i := range 2000 {
		var server cards.Seed
		binary.BigEndian.PutUint64(server[:], uint64(i))
		d := cards.Shuffle(server, []byte{byte(i), byte(i >> 8)})
		if !d.Valid() {
			t.Fatalf("seed %d: deck is not a permutation: %s", i, d)
		}
	}
}

func TestShuffleDependsOnEverySeedBit(t *testing.T) {
	server := cards.Seed(sha256.Sum256([]byte("bits")))
	public := []byte("public")
	base := cards.Shuffle(server, public)
	for bit := range 8 * cards.SeedSize {
		s := server
		s[bit/8] ^= 1 << (bit % 8)
		if cards.Shuffle(s, public) == base {
			t.Errorf("flipping server seed bit %d left the deck unchanged", bit)
		}
	}
	for bit := range 8 * len(public) {
		p := bytes.Clone(public)
		p[bit/8] ^= 1 << (bit % 8)
		if cards.Shuffle(server, p) == base {
			t.Errorf("flipping public seed bit %d left the deck unchanged", bit)
		}
	}
	if cards.Shuffle(server, append(bytes.Clone(public), 0)) == base {
		t.Errorf("appending a zero byte to the public seed left the deck unchanged")
	}
	if cards.Shuffle(server, nil) != cards.Shuffle(server, []byte{}) {
		t.Errorf("nil and empty public seeds differ")
	}
}

func TestVerify(t *testing.T) {
	server := cards.Seed(sha256.Sum256([]byte("verify")))
	commitment := cards.Commitment(server)
	public := []byte("round 1 bets")

	t.Run("matching seed", func(t *testing.T) {
		d, err := cards.Verify(server, commitment, public)
		if err != nil {
			t.Fatal(err)
		}
		if d != cards.Shuffle(server, public) {
			t.Errorf("Verify deck differs from Shuffle")
		}
	})
	t.Run("other seed", func(t *testing.T) {
		other := server
		other[31] ^= 1
		d, err := cards.Verify(other, commitment, public)
		assertInvalid(t, err, "COMMITMENT_MISMATCH", "does not match the commitment")
		if d != (cards.Deck{}) {
			t.Errorf("a deck came back with the error")
		}
	})
	t.Run("other commitment", func(t *testing.T) {
		c := commitment
		c[0] ^= 0x80
		_, err := cards.Verify(server, c, public)
		assertInvalid(t, err, "COMMITMENT_MISMATCH", cards.FormatCommitment(c))
	})
	t.Run("commitment is not the seed", func(t *testing.T) {
		_, err := cards.Verify(server, [32]byte(server), public)
		assertInvalid(t, err, "COMMITMENT_MISMATCH", "")
	})
}

func TestDeckValid(t *testing.T) {
	if !cards.OrderedDeck().Valid() {
		t.Errorf("ordered deck not valid")
	}
	d := cards.OrderedDeck()
	d[5] = d[6]
	if d.Valid() {
		t.Errorf("deck with a repeated card reported valid")
	}
	d = cards.OrderedDeck()
	d[0] = 52
	if d.Valid() {
		t.Errorf("deck with an invalid card reported valid")
	}
	if got := cards.OrderedDeck().String(); !strings.HasPrefix(got, "2c 2d 2h 2s 3c") || !strings.HasSuffix(got, "Ac Ad Ah As") {
		t.Errorf("ordered deck = %s", got)
	}
}

func TestStreamIntNRange(t *testing.T) {
	for _, n := range []int{0, -1, 257} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("IntN(%d) did not panic", n)
				}
			}()
			cards.NewStream(cards.Seed{}, nil).IntN(n)
		})
	}
	s := cards.NewStream(cards.Seed{}, nil)
	for _, n := range []int{1, 2, 52, 255, 256} {
		for range 1000 {
			if v := s.IntN(n); v < 0 || v >= n {
				t.Fatalf("IntN(%d) = %d", n, v)
			}
		}
	}
}

func BenchmarkShuffle(b *testing.B) {
	server := cards.Seed(sha256.Sum256([]byte("bench")))
	public := sha256.Sum256([]byte("bets"))
	b.ReportAllocs()
	var d cards.Deck
	for i := 0; b.Loop(); i++ {
		server[0] = byte(i)
		d = cards.Shuffle(server, public[:])
	}
	_ = d
}

func BenchmarkVerifyAndDeal(b *testing.B) {
	server := cards.Seed(sha256.Sum256([]byte("bench")))
	commitment := cards.Commitment(server)
	public := sha256.Sum256([]byte("bets"))
	b.ReportAllocs()
	for b.Loop() {
		d, err := cards.Verify(server, commitment, public[:])
		if err != nil {
			b.Fatal(err)
		}
		_ = cards.DealTote(d, cards.MaxPositions)
	}
}

// referenceShuffle is an independent implementation of Shuffle's
// documentation, written for clarity rather than speed: it precomputes a
// long stretch of the HMAC stream as one byte slice, then runs Fisher-Yates
// on a slice of ints with its own rejection sampler.
func referenceShuffle(server, public []byte) cards.Deck {
	var stream []byte
	for k := uint64(0); k < 16; k++ { // 512 bytes; a shuffle needs about 60
		msg := append(bytes.Clone(public), 0, 0, 0, 0, 0, 0, 0, 0)
		binary.BigEndian.PutUint64(msg[len(public):], k)
		m := hmac.New(sha256.New, server)
		m.Write(msg)
		stream = m.Sum(stream)
	}
	next := 0
	uniform := func(n int) int {
		for {
			b := int(stream[next])
			next++
			if b < 256/n*n {
				return b % n
			}
		}
	}
	order := make([]int, 52)
	for i := range order {
		order[i] = i
	}
	for i := 51; i >= 1; i-- {
		j := uniform(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	var d cards.Deck
	for i, c := range order {
		d[i] = cards.Card(c)
	}
	return d
}

func deckString(d cards.Deck) string { return cards.Format(d[:]) }

func countingBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}
