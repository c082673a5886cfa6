package beacon

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/pokertote/pokertote/domain/errs"
)

// LocalGenesis is the genesis of every local chain, a fixed instant so that
// replicas sharing a key agree on round times without talking.
var LocalGenesis = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// LocalChainHash is the hash naming a local chain: SHA-256 of
// "pokertote/local-beacon/v1" ‖ public key (96 bytes) ‖ genesis (Unix ms,
// 8 bytes big-endian) ‖ period (ms, 8 bytes big-endian), in hex.
func LocalChainHash(c Chain) string {
	pk, _ := hex.DecodeString(c.PublicKey)
	h := sha256.New()
	h.Write([]byte("pokertote/local-beacon/v1"))
	h.Write(pk)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(c.GenesisUnixMs))
	h.Write(b[:])
	binary.BigEndian.PutUint64(b[:], uint64(c.PeriodMs))
	h.Write(b[:])
	return hex.EncodeToString(h.Sum(nil))
}

// Local is a beacon chain of the server's own: it signs round r with its
// BLS key once the clock reaches the round's time, exactly as drand's
// quicknet does, so the dealer reads and verifies it on the same code path.
// It is for offline and embedded runs (the README's first command, tests,
// CI): whoever holds its key knows every round in advance, so it proves
// nothing to players, and every result names it. Production refuses it
// unless told otherwise.
type Local struct {
	key   *bls.PrivateKey[bls.KeyG2SigG1]
	chain Chain
	now   func() time.Time
}

// NewLocal returns a local chain whose key is derived from secret (at least
// 32 bytes; replicas that share it serve the same chain), with one round
// every period from LocalGenesis, reading the time from now.
func NewLocal(secret []byte, period time.Duration, now func() time.Time) (*Local, error) {
	if len(secret) < 32 {
		return nil, errs.R(errs.Invalid, ReasonBeaconKey, "a local beacon secret has at least 32 bytes")
	}
	if period < time.Millisecond {
		return nil, errs.R(errs.Invalid, ReasonBeaconChain, "a local beacon period is at least 1 ms")
	}
	key, err := bls.KeyGen[bls.KeyG2SigG1](secret, []byte("pokertote/local-beacon/v1"), nil)
	if err != nil {
		return nil, errs.Wrap(err, "could not derive the local beacon key")
	}
	pk, err := key.PublicKey().MarshalBinary()
	if err != nil {
		return nil, errs.Wrap(err, "could not encode the local beacon key")
	}
	c := Chain{
		Name: "local", Scheme: SchemeUnchainedG1, PublicKey: hex.EncodeToString(pk),
		GenesisUnixMs: LocalGenesis.UnixMilli(), PeriodMs: period.Milliseconds(),
	}
	c.Hash = LocalChainHash(c)
	return &Local{key: key, chain: c, now: now}, nil
}

// Chain implements Source.
func (l *Local) Chain() Chain { return l.chain }

// Beacon implements Source: round r, signed, once its time has come.
func (l *Local) Beacon(_ context.Context, r uint64) (Beacon, error) {
	if r == 0 || l.now().Before(l.chain.RoundTime(r)) {
		return Beacon{}, ErrNotPublished(r, "not published yet")
	}
	return l.Sign(r), nil
}

// Sign signs round r whatever the time: for tests that need a beacon ahead
// of its time (which is exactly what a local chain's holder can do).
func (l *Local) Sign(r uint64) Beacon {
	msg := Message(r)
	return Beacon{Round: r, Signature: hex.EncodeToString(bls.Sign(l.key, msg[:]))}
}
