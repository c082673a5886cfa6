// Package beacon is the public randomness the totalizator's cards are drawn
// from: rounds of a drand-style beacon chain (unchained BLS12-381
// signatures on G1, scheme bls-unchained-g1-rfc9380), each checked against
// the chain's public key before it is used. Nobody, the operator included,
// knows a round's value before the chain publishes it, and nobody can
// change it afterwards.
//
// The package declares the Source the dealer reads beacons from and holds
// the pure verification; the HTTP client of drand is an adapter
// (adapter/drand), and Local is a chain of the server's own for offline and
// embedded runs.
package beacon

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"sync"
	"time"

	"github.com/cloudflare/circl/sign/bls"

	"github.com/pokertote/pokertote/domain/errs"
)

// SchemeUnchainedG1 is the only scheme supported: drand's "quicknet"
// scheme. A round's message is SHA-256 of the round number as 8 bytes
// big-endian; the signature is a BLS signature on G1 (48 bytes
// compressed) with the hash-to-curve DST of DST; the public key is on G2
// (96 bytes compressed); the round's randomness is SHA-256 of the
// signature.
const SchemeUnchainedG1 = "bls-unchained-g1-rfc9380"

// DST is the domain separation tag with which a round's message is hashed
// to G1 (RFC 9380).
const DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"

// Sizes of the compressed points.
const (
	SignatureSize = 48
	PublicKeySize = 96
)

// Chain describes a beacon chain: what a verifier needs to check its
// rounds and their times. Times are whole milliseconds so that the round
// arithmetic is exact in any language.
type Chain struct {
	// Name is "quicknet" for drand's chain, "local" for a Local chain.
	Name string `json:"name"`
	// Hash identifies the chain: drand's chain hash for quicknet;
	// LocalChainHash for a local chain.
	Hash      string `json:"hash"`
	Scheme    string `json:"scheme"`
	PublicKey string `json:"publicKey"` // hex, 96 bytes
	// GenesisUnixMs is when round 1 was published (Unix milliseconds).
	GenesisUnixMs int64 `json:"genesisUnixMs"`
	// PeriodMs is the time between rounds in milliseconds.
	PeriodMs int64 `json:"periodMs"`
}

// Quicknet is drand's quicknet chain on the League of Entropy mainnet
// (https://api.drand.sh/52db9ba7.../info): one round every 3 s since
// 2023-08-23T15:09:27Z.
var Quicknet = Chain{
	Name:          "quicknet",
	Hash:          "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
	Scheme:        SchemeUnchainedG1,
	PublicKey:     "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
	GenesisUnixMs: 1692803367_000,
	PeriodMs:      3_000,
}

// IsQuicknet reports whether c claims to be drand's quicknet.
func (c Chain) IsQuicknet() bool { return c.Hash == Quicknet.Hash }

// Validate checks that the chain can be used: the scheme is supported,
// the key is a point of G2, the period is positive, and a chain that
// calls itself quicknet (or local) has quicknet's parameters (or a local
// chain's hash).
func (c Chain) Validate() error {
	if c.Scheme != SchemeUnchainedG1 {
		return errs.R(errs.Invalid, ReasonBeaconScheme, "beacon scheme %q is not supported, only %s", c.Scheme, SchemeUnchainedG1)
	}
	if c.PeriodMs <= 0 {
		return errs.R(errs.Invalid, ReasonBeaconChain, "a beacon period of %d ms is not positive", c.PeriodMs)
	}
	if _, err := c.publicKey(); err != nil {
		return err
	}
	switch {
	case c.IsQuicknet():
		if c != Quicknet {
			return errs.R(errs.Invalid, ReasonBeaconChain, "the chain claims quicknet's hash but not its key, genesis and period")
		}
	case c.Name == "local":
		if c.Hash != LocalChainHash(c) {
			return errs.R(errs.Invalid, ReasonBeaconChain, "local chain hash is %s, its key, genesis and period give %s", c.Hash, LocalChainHash(c))
		}
	default:
		return errs.R(errs.Invalid, ReasonBeaconChain, "unknown beacon chain %q (%s)", c.Name, c.Hash)
	}
	return nil
}

func (c Chain) publicKey() (*bls.PublicKey[bls.KeyG2SigG1], error) {
	if pk, ok := keys.Load(c.PublicKey); ok {
		return pk.(*bls.PublicKey[bls.KeyG2SigG1]), nil
	}
	b, err := hex.DecodeString(c.PublicKey)
	if err != nil || len(b) != PublicKeySize {
		return nil, errs.R(errs.Invalid, ReasonBeaconChain, "a beacon public key is %d bytes of hex", PublicKeySize)
	}
	pk := new(bls.PublicKey[bls.KeyG2SigG1])
	if err := pk.UnmarshalBinary(b); err != nil || !pk.Validate() {
		return nil, errs.R(errs.Invalid, ReasonBeaconChain, "the beacon public key is not a point of G2")
	}
	keys.Store(c.PublicKey, pk)
	return pk, nil
}

// keys caches decoded and validated public keys by their hex (a handful of
// chains per process).
var keys sync.Map

// verified remembers the rounds Verify accepted, so that a round checked by
// the dealer is not paired again by the verifier in the same process. The
// key holds every input of the check, so a hit is exactly a past success.
var verified struct {
	sync.Mutex
	m map[string][32]byte
}

// maxVerified bounds the memory of verified rounds; the map starts over
// when full.
const maxVerified = 4096

// RoundTime is when round r (1, 2, ...) is published:
// genesis + (r-1) * period.
func (c Chain) RoundTime(r uint64) time.Time {
	return time.UnixMilli(c.GenesisUnixMs + int64(r-1)*c.PeriodMs).UTC()
}

// FirstRoundAfter is the first round published strictly after t: the
// round a betting round closing at t commits to. Before genesis it is 1;
// otherwise floor((t_ms - genesis) / period) + 2, with t_ms t in whole Unix
// milliseconds (rounded down).
func (c Chain) FirstRoundAfter(t time.Time) uint64 {
	ms := t.UnixMilli()
	if ms < c.GenesisUnixMs {
		return 1
	}
	return uint64((ms-c.GenesisUnixMs)/c.PeriodMs) + 2
}

// FirstRoundAPeriodAfter is the first round published at least one full
// period after t: the round a betting round closing at t commits to from
// fair-deal version 3 on, so that a clock a little behind the chain's
// still closes the round before its beacon exists. It is FirstRoundAfter
// of t + period - 1 ms: floor((t_ms + period - 1 - genesis) / period) + 2,
// or 1 when t_ms + period - 1 is before genesis.
func (c Chain) FirstRoundAPeriodAfter(t time.Time) uint64 {
	ms := t.UnixMilli() + c.PeriodMs - 1
	if ms < c.GenesisUnixMs {
		return 1
	}
	return uint64((ms-c.GenesisUnixMs)/c.PeriodMs) + 2
}

// Beacon is one published round: its number and its signature.
type Beacon struct {
	Round     uint64 `json:"round"`
	Signature string `json:"signature"` // hex, 48 bytes
}

// Message is what round r's signature signs: SHA-256 of r as 8 bytes
// big-endian.
func Message(r uint64) [32]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], r)
	return sha256.Sum256(b[:])
}

// Randomness is the round's value: SHA-256 of the signature bytes.
func Randomness(sig []byte) [32]byte { return sha256.Sum256(sig) }

// Verify checks b's signature against the chain's public key and returns
// the round's randomness. A bad signature is an errs.Invalid error with
// reason BEACON_INVALID: it was not published by the chain.
func Verify(c Chain, b Beacon) ([32]byte, error) {
	pk, err := c.publicKey()
	if err != nil {
		return [32]byte{}, err
	}
	sig, err := hex.DecodeString(b.Signature)
	if err != nil || len(sig) != SignatureSize {
		return [32]byte{}, errs.R(errs.Invalid, ReasonBeaconInvalid, "round %d: a signature is %d bytes of hex", b.Round, SignatureSize)
	}
	if b.Round == 0 {
		return [32]byte{}, errs.R(errs.Invalid, ReasonBeaconInvalid, "rounds start at 1")
	}
	key := c.PublicKey + "/" + strconv.FormatUint(b.Round, 10) + "/" + b.Signature
	verified.Lock()
	r, ok := verified.m[key]
	verified.Unlock()
	if ok {
		return r, nil
	}
	msg := Message(b.Round)
	if !bls.Verify(pk, msg[:], bls.Signature(sig)) {
		return [32]byte{}, errs.R(errs.Invalid, ReasonBeaconInvalid, "round %d: the signature does not verify against the public key of chain %s", b.Round, short(c.Hash))
	}
	r = Randomness(sig)
	verified.Lock()
	if len(verified.m) >= maxVerified || verified.m == nil {
		verified.m = make(map[string][32]byte)
	}
	verified.m[key] = r
	verified.Unlock()
	return r, nil
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

// ReasonNotPublished is the reason of Source.Beacon's error for a round
// the chain has not published yet (or could not be reached for).
const ReasonNotPublished = "BEACON_NOT_PUBLISHED"

// ErrNotPublished is the error for a round not (yet) available.
func ErrNotPublished(r uint64, why string) error {
	return errs.R(errs.Conflict, ReasonNotPublished, "beacon round %d is not available: %s", r, why)
}

// Source is where the dealer reads beacon rounds: the drand HTTP client in
// production, a Local chain offline. The dealer verifies every round it
// gets against Chain() with Verify, so a Source is never trusted.
type Source interface {
	// Chain is the chain this source serves.
	Chain() Chain
	// Beacon returns round r. A round not published yet, or unreachable
	// now, is an error with reason ReasonNotPublished; the caller waits
	// and asks again.
	Beacon(ctx context.Context, r uint64) (Beacon, error)
}
