package verify

import (
	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/tote"
)

// verifyBeacons checks a version-2 draw's beacon commitment (chain, round
// numbers against the close deadlines, signatures) and deals the streets
// whose rounds are published. It returns the deal, how many streets it
// covers, and whether every beacon link holds.
func verifyBeacons(res tote.DrawResult, seed cards.Seed, problem func(string, ...any)) (cards.ToteDeal, int, bool) {
	b := res.Beacons
	c := checker{problem: problem}
	bad := c.bad
	if b.Version < tote.FairnessPerStreet || b.Version > tote.FairnessTerms {
		bad("beacons: fair deal version %d, this verifier knows versions %d to %d", b.Version, tote.FairnessPerStreet, tote.FairnessTerms)
		return cards.ToteDeal{}, 0, false
	}
	if !verifyTerms(res, problem) {
		return cards.ToteDeal{}, 0, false
	}
	if err := b.Chain.Validate(); err != nil {
		bad("beacon chain: %v", err)
		return cards.ToteDeal{}, 0, false
	}
	if res.Positions < cards.MinPositions || res.Positions > cards.MaxPositions {
		bad("positions: a table of %d positions cannot exist", res.Positions)
		return cards.ToteDeal{}, 0, false
	}
	for i := range 4 {
		if i > 0 && !b.ClosesAt[i].After(b.ClosesAt[i-1]) {
			bad("beacon schedule: round %d closes at %s, not after round %d (%s)", i+1, b.ClosesAt[i].Format(tote.TimeLayout), i, b.ClosesAt[i-1].Format(tote.TimeLayout))
		}
		if want := b.RoundFor(b.ClosesAt[i]); b.Rounds[i] != want {
			bad("beacon round of the %s: committed round %d, but the first round %s betting round %d closed (%s) is %d",
				tote.StreetNames[i], b.Rounds[i], roundRule(b.Version), i+1, b.ClosesAt[i].Format(tote.TimeLayout), want)
		}
		if i > 0 && !b.Deadlines[i].After(b.Deadlines[i-1]) {
			bad("beacon schedule: the %s's deadline %s is not after the %s's (%s)", tote.StreetNames[i], b.Deadlines[i].Format(tote.TimeLayout), tote.StreetNames[i-1], b.Deadlines[i-1].Format(tote.TimeLayout))
		}
		if at := b.Chain.RoundTime(b.Rounds[i]); b.Deadlines[i].Before(at) {
			bad("beacon schedule: the %s's deadline %s is before its round is published (%s)", tote.StreetNames[i], b.Deadlines[i].Format(tote.TimeLayout), at.Format(tote.TimeLayout))
		} else if wait := b.Deadlines[i].Sub(at); b.Version >= tote.FairnessTerms && b.Chain.IsQuicknet() && wait < tote.MinProductionBeaconWait {
			bad("beacon schedule: the %s's round is waited for %s, less than the %s a draw on drand's chain must wait before voiding", tote.StreetNames[i], wait, tote.MinProductionBeaconWait)
		}
	}
	var rands [][32]byte
	for i, sig := range b.Signatures {
		if sig == "" {
			for j := i + 1; j < 4; j++ {
				if b.Signatures[j] != "" {
					bad("beacon signatures: the %s has one but the %s, dealt before it, has none", tote.StreetNames[j], tote.StreetNames[i])
				}
			}
			break
		}
		r, err := beacon.Verify(b.Chain, beacon.Beacon{Round: b.Rounds[i], Signature: sig})
		if err != nil {
			bad("beacon signature of the %s (round %d): %v", tote.StreetNames[i], b.Rounds[i], err)
			return cards.ToteDeal{}, 0, false
		}
		rands = append(rands, r)
	}
	if !c.ok() {
		return cards.ToteDeal{}, 0, false
	}
	if len(rands) == 0 {
		return cards.ToteDeal{}, 0, true
	}
	return cards.DealToteStreets(seed, res.Positions, rands), len(rands), true
}

// verifyTerms checks a fair deal 4 draw's committed terms: present, such
// as a draw can have, a beacon gap of at least the chain's period, and the
// very settings the result's pools were settled with (verifyPools
// recomputes them with the result's own).
func verifyTerms(res tote.DrawResult, problem func(string, ...any)) bool {
	b := res.Beacons
	if b.Version < tote.FairnessTerms {
		if b.Terms != nil || b.GapMs != 0 {
			problem("beacons: a fair deal %d draw commits to no terms or gap; they are fair deal %d's", b.Version, tote.FairnessTerms)
			return false
		}
		return true
	}
	c := checker{problem: problem}
	if b.Terms == nil {
		c.bad("terms: a fair deal %d draw publishes the terms it committed to, and there are none", b.Version)
		return false
	}
	if b.GapMs < b.Chain.PeriodMs {
		c.bad("beacon schedule: a gap of %d ms from a close to its round, less than the chain's period (%d ms)", b.GapMs, b.Chain.PeriodMs)
	}
	for _, p := range b.Terms.Check() {
		c.bad("terms: %s", p)
	}
	if got := res.Terms(); got != *b.Terms {
		c.bad("terms: the draw committed to %+v and the result settled with %+v", *b.Terms, got)
	}
	return c.ok()
}

// roundRule says in a problem line which round a version commits to.
func roundRule(version int) string {
	if version >= tote.FairnessTerms {
		return "at least the committed gap after"
	}
	if version >= tote.FairnessBound {
		return "at least one period after"
	}
	return "after"
}
