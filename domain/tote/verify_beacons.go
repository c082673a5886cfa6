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
	if b.Version != FairnessVersion {
		bad("beacons: fair deal version %d, this verifier knows version %d", b.Version, FairnessVersion)
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
		if want := b.Chain.FirstRoundAfter(b.ClosesAt[i]); b.Rounds[i] != want {
			bad("beacon round of the %s: committed round %d, but the first round after betting round %d closed (%s) is %d",
				streetNames[i], b.Rounds[i], i+1, b.ClosesAt[i].Format(timeLayout), want)
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

// timeLayout writes deadlines in problem lines.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"
