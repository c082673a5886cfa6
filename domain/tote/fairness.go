package tote

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/money"
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
// Version 4 adds to the commitment every setting that moves money in the
// draw (DrawTerms) and the gap between a betting round's close and its
// street's beacon round, and waits for a missing beacon for BEACON_WAIT
// (docs/fairness.md, section 1.1).
const FairnessVersion = FairnessTerms

// The fair-deal versions a verifier knows.
const (
	FairnessPerStreet = 2
	FairnessBound     = 3
	FairnessTerms     = 4
)

// MinProductionBeaconWait is the shortest a draw on drand's chain may wait
// for a street's beacon round before a beacon-missing void (SPEC 1.8): a
// verifier rejects a quicknet draw of fair deal 4 committing to less.
const MinProductionBeaconWait = 10 * time.Minute

// wholeBP is 100 % in basis points.
const wholeBP money.BasisPoints = 10000

// DrawTerms is every setting that moves money in a draw, fixed when it
// opens (SPEC 1.8): published in DRAW_OPENED and the result, and covered
// by the commitment from fair deal 4, so none can be restated afterwards.
type DrawTerms struct {
	Commission     money.BasisPoints    `json:"commission"`
	ExpressShares  [2]money.BasisPoints `json:"expressShares"`
	JackpotRate    money.BasisPoints    `json:"jackpotRate"`
	JackpotEnabled bool                 `json:"jackpotEnabled"`
	MinStake       money.Amount         `json:"minStake"`
	MaxStake       money.Amount         `json:"maxStake"`
	SuspendAt      money.BasisPoints    `json:"suspendAt"`
}

// Terms is what d committed to when it opened.
func (d *Draw) Terms() DrawTerms {
	return DrawTerms{
		Commission: d.Pool.Commission, ExpressShares: [2]money.BasisPoints{d.Pool.ExpressShare1, d.Pool.ExpressShare2},
		JackpotRate: d.Pool.JackpotRate, JackpotEnabled: d.Pool.JackpotEnabled,
		MinStake: d.MinStake, MaxStake: d.MaxStake, SuspendAt: d.SuspendAt,
	}
}

// Terms is what the result says its draw settled with.
func (r *DrawResult) Terms() DrawTerms {
	return DrawTerms{
		Commission: r.Commission, ExpressShares: r.ExpressShares, JackpotRate: r.JackpotRate, JackpotEnabled: r.JackpotEnabled,
		MinStake: r.MinStake, MaxStake: r.MaxStake, SuspendAt: r.SuspendAt,
	}
}

// Check reports what no draw's terms can be: a commission below the
// rules' 3 %, EXPRESS shares not adding up to 100 %, a jackpot rate other
// than the rules' 0.01 %, a minimum stake below the floor or above the
// maximum, a maximum above the ceiling, SUSPEND_AT outside 50-90 %.
func (t DrawTerms) Check() []string {
	var out []string
	if t.Commission < parimutuel.MinCommission || t.Commission > wholeBP {
		out = append(out, fmt.Sprintf("commission %s is outside %s to 100%%", FormatPercent(t.Commission), FormatPercent(parimutuel.MinCommission)))
	}
	if t.ExpressShares[0] < 0 || t.ExpressShares[1] < 0 || t.ExpressShares[0]+t.ExpressShares[1] != wholeBP {
		out = append(out, fmt.Sprintf("EXPRESS shares %s and %s do not add up to 100%%", FormatPercent(t.ExpressShares[0]), FormatPercent(t.ExpressShares[1])))
	}
	if t.JackpotRate != parimutuel.JackpotRate {
		out = append(out, fmt.Sprintf("jackpot rate %s is not the rules' %s", FormatPercent(t.JackpotRate), FormatPercent(parimutuel.JackpotRate)))
	}
	if t.MinStake < MinStakeFloor || t.MaxStake < t.MinStake || t.MaxStake > MaxStakeCeiling {
		out = append(out, fmt.Sprintf("stakes %s to %s are not within %s to %s", t.MinStake, t.MaxStake, MinStakeFloor, MaxStakeCeiling))
	}
	if t.SuspendAt < SuspendAtMin || t.SuspendAt > SuspendAtMax {
		out = append(out, fmt.Sprintf("SUSPEND_AT %s is outside %s to %s", FormatPercent(t.SuspendAt), FormatPercent(SuspendAtMin), FormatPercent(SuspendAtMax)))
	}
	return out
}

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
	// GapMs (fair deal 4) is how long after a betting round's close its
	// street's beacon round is published at the earliest: at least the
	// chain's period, and at least a second of real time, so that the
	// round's bet root is published before the round exists.
	GapMs int64 `json:"gapMs,omitempty"`
	// Terms (fair deal 4) is every setting that moves money in the draw.
	Terms *DrawTerms `json:"terms,omitempty"`
}

// Clone returns a copy that shares nothing with b (nil stays nil).
func (b *DrawBeacons) Clone() *DrawBeacons {
	if b == nil {
		return nil
	}
	c := *b
	if b.Terms != nil {
		t := *b.Terms
		c.Terms = &t
	}
	return &c
}

// RoundFor is the beacon round a betting round closing at t commits to
// under b's version: the first round after t (version 2), or the first at
// least one full period after t (version 3).
func (b *DrawBeacons) RoundFor(t time.Time) uint64 {
	if b.Version >= FairnessTerms {
		return b.Chain.FirstRoundAfter(t.Add(time.Duration(b.GapMs-1) * time.Millisecond))
	}
	if b.Version >= FairnessBound {
		return b.Chain.FirstRoundAPeriodAfter(t)
	}
	return b.Chain.FirstRoundAfter(t)
}

// CommitmentTag starts the preimage of a version-3 draw's commitment,
// CommitmentTagTerms a version-4 draw's.
const (
	CommitmentTag      = "pokertote/tote/commitment/v3"
	CommitmentTagTerms = "pokertote/tote/commitment/v4"
)

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
// will be checked against. For version 4 the tag is
// "pokertote/tote/commitment/v4" and the same bytes are followed by
//
//	gapMs (8) ‖ commission (8) ‖ EXPRESS shares (8 + 8) ‖ jackpot rate (8)
//	‖ jackpot enabled (1: 0 or 1) ‖ min stake (8) ‖ max stake (8) ‖ SUSPEND_AT (8)
//
// (basis points and tiyn), so that no money setting can be restated after
// the draw. An error is a chain whose hash or key is not hex of the right
// size, or a version-4 commitment without terms.
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
	if b.Version >= FairnessTerms && b.Terms == nil {
		return [cards.SeedSize]byte{}, fmt.Errorf("a fair deal %d commitment covers the draw's terms, and there are none", b.Version)
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
	if b.Version >= FairnessTerms {
		h.Write([]byte(CommitmentTagTerms))
	} else {
		h.Write([]byte(CommitmentTag))
	}
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
	if t := b.Terms; b.Version >= FairnessTerms {
		u64(uint64(b.GapMs))
		for _, v := range []int64{int64(t.Commission), int64(t.ExpressShares[0]), int64(t.ExpressShares[1]), int64(t.JackpotRate)} {
			u64(uint64(v))
		}
		enabled := byte(0)
		if t.JackpotEnabled {
			enabled = 1
		}
		h.Write([]byte{enabled})
		for _, v := range []int64{int64(t.MinStake), int64(t.MaxStake), int64(t.SuspendAt)} {
			u64(uint64(v))
		}
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
	// Gap is the least time from a betting round's close to its street's
	// beacon round (DrawBeacons.GapMs); the chain's period when shorter.
	Gap time.Duration
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
// beaconWait (BEACON_WAIT, SPEC 1.8: 30 minutes by default), while the
// table opens no other draw; past the deadline the draw is voided. A
// beacon late past the next round's committed close leaves that round
// shorter, or with no time for bets at all, never longer: the closes are
// committed.
func PlanBeacons(c beacon.Chain, open time.Time, s BeaconSchedule) DrawBeacons {
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond).UTC() }
	b := DrawBeacons{Version: FairnessVersion, Chain: c, GapMs: max(s.Gap.Milliseconds(), c.PeriodMs)}
	b.ClosesAt[0] = ms(open.Add(s.Rounds[0]))
	for i := range 4 {
		b.Rounds[i] = b.RoundFor(b.ClosesAt[i])
		at := c.RoundTime(b.Rounds[i])
		wait := s.BeaconWait
		if i < 3 {
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
