package tote

import (
	"encoding/hex"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// FairnessVersion is the version of the fair deal new draws use: each
// street drawn from its own beacon round (docs/fairness.md).
const FairnessVersion = 2

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

// withoutSignatures is the commitment as DRAW_OPENED publishes it.
func (b DrawBeacons) withoutSignatures() *DrawBeacons {
	b.Signatures = [4]string{}
	return &b
}

// schedule is what planBeacons needs: the table's timings already scaled.
type schedule struct {
	rounds     [4]time.Duration
	card       time.Duration
	beaconWait time.Duration
	positions  int
}

// planBeacons fixes a draw's timetable and beacon rounds when it opens at
// open. Round 1 closes at open + its length; street s is drawn from the
// first beacon round after round s closes, and is dealt once that round is
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
func planBeacons(c beacon.Chain, open time.Time, s schedule) DrawBeacons {
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond).UTC() }
	b := DrawBeacons{Version: FairnessVersion, Chain: c}
	b.ClosesAt[0] = ms(open.Add(s.rounds[0]))
	for i := range 4 {
		b.Rounds[i] = c.FirstRoundAfter(b.ClosesAt[i])
		at := c.RoundTime(b.Rounds[i])
		wait := s.beaconWait
		if i < 3 {
			wait = min(wait, s.rounds[i+1]/2)
			dealt := s.card
			if i == 0 {
				dealt = time.Duration(s.positions) * s.card
			}
			b.ClosesAt[i+1] = ms(at.Add(dealt + s.rounds[i+1]))
		}
		b.Deadlines[i] = ms(at.Add(wait))
	}
	return b
}

// cardDue is when the (k+1)-th card step of the street drawn after betting
// round r closes is due by the committed timetable: k+1 card intervals after
// the street's beacon round is published. A step running late is due at
// once, so lateness never adds up along the street.
func (b *DrawBeacons) cardDue(r parimutuel.Round, k int, card time.Duration) time.Time {
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

// streetOf is the street a dealing step draws.
func streetOf(act action) int {
	switch act {
	case actDealFlop:
		return cards.StreetFlop
	case actDealTurn:
		return cards.StreetTurn
	case actDealRiver:
		return cards.StreetRiver
	}
	return cards.StreetPockets
}
