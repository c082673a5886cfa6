package tote

import (
	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/cards"
)

// streetNames name the streets in problem lines, index s-1.
var streetNames = [4]string{"pockets", "flop", "turn", "river"}

// verifyBeacons checks a version-2 draw's beacon commitment (chain, round
// numbers against the close deadlines, signatures) and deals the streets
// whose rounds are published. It returns the deal, how many streets it
// covers, and whether every beacon link holds.
func verifyBeacons(res DrawResult, seed cards.Seed, problem func(string, ...any)) (cards.ToteDeal, int, bool) {
	b := res.Beacons
	ok := true
	bad := func(format string, args ...any) {
		ok = false
		problem(format, args...)
	}
	if b.Version != FairnessPerStreet && b.Version != FairnessBound {
		bad("beacons: fair deal version %d, this verifier knows versions %d and %d", b.Version, FairnessPerStreet, FairnessBound)
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
			bad("beacon schedule: round %d closes at %s, not after round %d (%s)", i+1, b.ClosesAt[i].Format(timeLayout), i, b.ClosesAt[i-1].Format(timeLayout))
		}
		if want := b.RoundFor(b.ClosesAt[i]); b.Rounds[i] != want {
			bad("beacon round of the %s: committed round %d, but the first round %s betting round %d closed (%s) is %d",
				streetNames[i], b.Rounds[i], roundRule(b.Version), i+1, b.ClosesAt[i].Format(timeLayout), want)
		}
		if i > 0 && !b.Deadlines[i].After(b.Deadlines[i-1]) {
			bad("beacon schedule: the %s's deadline %s is not after the %s's (%s)", streetNames[i], b.Deadlines[i].Format(timeLayout), streetNames[i-1], b.Deadlines[i-1].Format(timeLayout))
		}
		if at := b.Chain.RoundTime(b.Rounds[i]); b.Deadlines[i].Before(at) {
			bad("beacon schedule: the %s's deadline %s is before its round is published (%s)", streetNames[i], b.Deadlines[i].Format(timeLayout), at.Format(timeLayout))
		}
	}
	var rands [][32]byte
	for i, sig := range b.Signatures {
		if sig == "" {
			for j := i + 1; j < 4; j++ {
				if b.Signatures[j] != "" {
					bad("beacon signatures: the %s has one but the %s, dealt before it, has none", streetNames[j], streetNames[i])
				}
			}
			break
		}
		r, err := beacon.Verify(b.Chain, beacon.Beacon{Round: b.Rounds[i], Signature: sig})
		if err != nil {
			bad("beacon signature of the %s (round %d): %v", streetNames[i], b.Rounds[i], err)
			return cards.ToteDeal{}, 0, false
		}
		rands = append(rands, r)
	}
	if !ok {
		return cards.ToteDeal{}, 0, false
	}
	if len(rands) == 0 {
		return cards.ToteDeal{}, 0, true
	}
	return cards.DealToteStreets(seed, res.Positions, rands), len(rands), true
}

// roundRule says in a problem line which round a version commits to.
func roundRule(version int) string {
	if version >= FairnessBound {
		return "at least one period after"
	}
	return "after"
}

// timeLayout writes deadlines in problem lines.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"
