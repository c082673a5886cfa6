package tote

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// FairnessVersion is the version of the fair deal new draws use: each
// street drawn from its own beacon round (docs/fairness.md). Version 2
// committed to the server seed alone (SHA-256 of it) and drew
// each street from the first round after its close; version 3
// commits, in the one commitment of DRAW_OPENED, to the seed, the number
// of positions, the chain and every close time, round and deadline
// (DrawCommitment), and draws each street from the first round at least
// one full period after its close (beacon.Chain.FirstRoundAPeriodAfter).
const FairnessVersion = FairnessBound

// The fair-deal versions a verifier knows.
const (
	FairnessPerStreet = 2
	FairnessBound     = 3
)

// DrawBeacons is a draw's commitment to its beacon, fixed and published
// (DRAW_OPENED) when the draw opens, before any bet: the chain, the close
// deadline of each betting round, the beacon round each street is drawn
// from (the first round published after that street's round closes), and
// how long the dealer waits for each round before it voids the draw. The
// signatures are filled in as the dealer fetches and verifies them.
// Index s-1 is street s: pockets, flop, turn, river.
type DrawBeacons struct {
	Version    int          `json:"version"`
	Chain      beacon.Chain `json:"chain"`
	ClosesAt   [4]time.Time `json:"closesAt"`
	Rounds     [4]uint64    `json:"rounds"`
	Deadlines  [4]time.Time `json:"deadlines"`
	Signatures [4]string    `json:"signatures"`
}

// Clone returns a copy that shares nothing with b (nil stays nil).
func (b *DrawBeacons) Clone() *DrawBeacons {
	if b == nil {
		return nil
	}
	c := *b
	return &c
}

// RoundFor is the beacon round a betting round closing at t commits to
// under b's version: the first round after t (version 2), or the first at
// least one full period after t (version 3).
func (b *DrawBeacons) RoundFor(t time.Time) uint64 {
	if b.Version >= FairnessBound {
		return b.Chain.FirstRoundAPeriodAfter(t)
	}
	return b.Chain.FirstRoundAfter(t)
}

// CommitmentTag starts the preimage of a version-3 draw's commitment.
const CommitmentTag = "pokertote/tote/commitment/v3"

// DrawCommitment is the commitment a draw publishes when it opens
// (docs/fairness.md, section 1.1). For a version-1 or version-2 draw it is
// SHA-256 of the server seed. For version 3 it is SHA-256 of
//
//	"pokertote/tote/commitment/v3" ‖ server seed (32) ‖ positions (1 byte)
//	‖ len(name) (1) ‖ name ‖ chain hash (32) ‖ len(scheme) (1) ‖ scheme
//	‖ public key (96) ‖ genesisUnixMs (8) ‖ periodMs (8)
//	‖ for each street 1..4: closesAt (Unix ms, 8) ‖ round (8) ‖ deadline (Unix ms, 8)
//
// (integers big-endian), so the one hex string a player records from
// DRAW_OPENED also fixes the chain, every round and every time the result
// will be checked against. An error is a chain whose hash or key is not
// hex of the right size.
func DrawCommitment(seed cards.Seed, positions int, b *DrawBeacons) ([cards.SeedSize]byte, error) {
	if b == nil || b.Version < FairnessBound {
		return cards.Commitment(seed), nil
	}
	c := b.Chain
	hash, err1 := hex.DecodeString(c.Hash)
	pk, err2 := hex.DecodeString(c.PublicKey)
	if err1 != nil || err2 != nil || len(hash) != 32 || len(pk) != beacon.PublicKeySize || len(c.Name) > 255 || len(c.Scheme) > 255 || positions < 0 || positions > 255 {
		return [cards.SeedSize]byte{}, fmt.Errorf("the chain's hash (32 bytes) or public key (%d bytes) is not hex of its size", beacon.PublicKeySize)
	}
	h := sha256.New()
	u64 := func(v uint64) {
		var w [8]byte
		binary.BigEndian.PutUint64(w[:], v)
		h.Write(w[:])
	}
	str := func(s string) {
		h.Write([]byte{byte(len(s))})
		h.Write([]byte(s))
	}
	h.Write([]byte(CommitmentTag))
	h.Write(seed[:])
	h.Write([]byte{byte(positions)})
	str(c.Name)
	h.Write(hash)
	str(c.Scheme)
	h.Write(pk)
	u64(uint64(c.GenesisUnixMs))
	u64(uint64(c.PeriodMs))
	for i := range 4 {
		u64(uint64(b.ClosesAt[i].UnixMilli()))
		u64(b.Rounds[i])
		u64(uint64(b.Deadlines[i].UnixMilli()))
	}
	var out [cards.SeedSize]byte
	h.Sum(out[:0])
	return out, nil
}

// WithoutSignatures is the commitment as DRAW_OPENED publishes it.
func (b DrawBeacons) WithoutSignatures() *DrawBeacons {
	b.Signatures = [4]string{}
	return &b
}

// BeaconSchedule is what PlanBeacons needs: the table's timings already scaled.
type BeaconSchedule struct {
	Rounds     [4]time.Duration
	Card       time.Duration
	BeaconWait time.Duration
	Positions  int
}

// PlanBeacons fixes a draw's timetable and beacon rounds when it opens at
// open. Round 1 closes at open + its length; street s is drawn from the
// first beacon round at least one period after round s closes (RoundFor), and is dealt once that round is
// published (pockets one card interval apart, the last opening round 2;
// a board street one card interval after its round). Round s+1 then lasts
// its length, so
//
//	closes[1] = time(rounds[0]) + n*card + length(2)
//	closes[s] = time(rounds[s-1]) + card + length(s+1)   (s = 2, 3)
//
// The dealer waits for round rounds[s] until deadlines[s] = its time +
// min(beaconWait, half the next betting round) (beaconWait for the river),
// so a late beacon never leaves the next round less than half its length;
// past the deadline the draw is voided.
func PlanBeacons(c beacon.Chain, open time.Time, s BeaconSchedule) DrawBeacons {
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond).UTC() }
	b := DrawBeacons{Version: FairnessVersion, Chain: c}
	b.ClosesAt[0] = ms(open.Add(s.Rounds[0]))
	for i := range 4 {
		b.Rounds[i] = b.RoundFor(b.ClosesAt[i])
		at := c.RoundTime(b.Rounds[i])
		wait := s.BeaconWait
		if i < 3 {
			wait = min(wait, s.Rounds[i+1]/2)
			dealt := s.Card
			if i == 0 {
				dealt = time.Duration(s.Positions) * s.Card
			}
			b.ClosesAt[i+1] = ms(at.Add(dealt + s.Rounds[i+1]))
		}
		b.Deadlines[i] = ms(at.Add(wait))
	}
	return b
}

// CardDue is when the (k+1)-th card step of the street drawn after betting
// round r closes is due by the committed timetable: k+1 card intervals after
// the street's beacon round is published. A step running late is due at
// once, so lateness never adds up along the street.
func (b *DrawBeacons) CardDue(r parimutuel.Round, k int, card time.Duration) time.Time {
	return b.Chain.RoundTime(b.Rounds[r-1]).Add(time.Duration(k+1) * card)
}

// randomness returns the verified randomness of the streets fetched so
// far, in street order (stops at the first street without a signature).
func (b *DrawBeacons) randomness() [][32]byte {
	var out [][32]byte
	for _, sig := range b.Signatures {
		raw, err := hex.DecodeString(sig)
		if sig == "" || err != nil {
			break
		}
		out = append(out, beacon.Randomness(raw))
	}
	return out
}
