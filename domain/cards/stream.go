package cards

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"slices"
)

// Stream is the deterministic random byte stream that drives Shuffle. It
// is public so that the exact procedure can be read, tested and
// reimplemented by anyone verifying a draw:
//
//   - Block k (k = 0, 1, 2, ...) is HMAC-SHA256 with the 32-byte server seed
//     as key and the message publicSeed ‖ k, where k is written as 8 bytes
//     big-endian. The public seed may have any length, including zero.
//   - The stream is block 0's 32 bytes, then block 1's, and so on; every
//     byte is used once, in order, and a block is computed only when the
//     previous one is used up.
//
// A Stream is not safe for concurrent use.
type Stream struct {
	mac     hash.Hash
	public  []byte
	counter uint64         // index of the next block to compute
	block   [SeedSize]byte // the current block
	used    int            // bytes of block already consumed
}

// NewStream returns the stream for a server seed and a public seed. The
// public seed is copied.
func NewStream(server Seed, public []byte) *Stream {
	return &Stream{
		mac:    hmac.New(sha256.New, server[:]),
		public: slices.Clone(public),
		used:   SeedSize, // no block yet: the first Byte computes block 0
	}
}

// Byte returns the next byte of the stream.
func (s *Stream) Byte() byte {
	if s.used == len(s.block) {
		s.nextBlock()
	}
	b := s.block[s.used]
	s.used++
	return b
}

func (s *Stream) nextBlock() {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], s.counter)
	s.mac.Reset()
	s.mac.Write(s.public)
	s.mac.Write(k[:])
	s.mac.Sum(s.block[:0])
	s.counter++
	s.used = 0
}

// IntN returns a uniformly distributed integer in [0, n) for 1 <= n <= 256,
// by rejection sampling so that no value is favoured (no modulo bias): with
// limit = 256 - (256 mod n), the largest multiple of n not above 256, it
// reads the next byte b of the stream; if b < limit it returns b mod n,
// otherwise it discards b and reads another. Every call consumes at least
// one byte, even for n = 1. It panics if n is out of range, which is a
// programming error.
func (s *Stream) IntN(n int) int {
	if n < 1 || n > 256 {
		panic(fmt.Sprintf("cards: Stream.IntN(%d): n must be in 1..256", n))
	}
	limit := 256 - 256%n
	for {
		if b := int(s.Byte()); b < limit {
			return b % n
		}
	}
}
