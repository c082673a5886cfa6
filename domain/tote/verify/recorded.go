package verify

import (
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/tote"
)

// RecordedRound is one street's beacon round as a player recorded it from
// DRAW_OPENED (or the join snapshot) while the draw ran, with its close
// time when they noted it.
type RecordedRound struct {
	Round    uint64     `json:"round"`
	ClosesAt *time.Time `json:"closesAt,omitempty"`
}

// CheckRecordedRounds compares a result's beacon rounds (and close times)
// with the ones a player recorded, street by street: a river re-dealt on
// a later round, its close moved to fit, then fails even if everything
// else was recomputed to match (docs/fairness.md, section 7).
func CheckRecordedRounds(res tote.DrawResult, recorded []RecordedRound) []string {
	b := res.Beacons
	if b == nil {
		return []string{"beacon rounds: recorded, but the result publishes no beacons"}
	}
	var out []string
	for i, want := range recorded {
		if i >= 4 {
			break
		}
		if b.Rounds[i] != want.Round {
			out = append(out, fmt.Sprintf("beacon round of the %s: published %d, recorded %d", tote.StreetNames[i], b.Rounds[i], want.Round))
		}
		if want.ClosesAt != nil && !b.ClosesAt[i].Equal(*want.ClosesAt) {
			out = append(out, fmt.Sprintf("close of betting round %d: published %s, recorded %s", i+1, b.ClosesAt[i].Format(tote.TimeLayout), want.ClosesAt.UTC().Format(tote.TimeLayout)))
		}
	}
	return out
}

// CheckHeldBeacons checks a result against beacon rounds the checker holds
// with their signatures: recorded by a player while the draw ran, or
// fetched from drand's public record (cmd/verify-draw -fetch, the browser
// verifier). drand's rounds are permanent, so a BEACON_MISSING void of a
// round held here, with a signature that verifies on the draw's chain, was
// a beacon withheld, not missing: rejected. A held round is also compared
// with the signature the result publishes for its street.
func CheckHeldBeacons(res tote.DrawResult, held []beacon.Beacon) []string {
	b := res.Beacons
	if b == nil || len(held) == 0 {
		return nil
	}
	var out []string
	for _, h := range held {
		if _, err := beacon.Verify(b.Chain, h); err != nil {
			continue // not a round of this chain: it proves nothing here
		}
		for s := range 4 {
			if b.Rounds[s] != h.Round {
				continue
			}
			if sig := b.Signatures[s]; sig != "" && sig != h.Signature {
				out = append(out, fmt.Sprintf("beacon signature of the %s (round %d): published %s, the chain's is %s", tote.StreetNames[s], h.Round, sig, h.Signature))
			}
			if v := res.VoidDetail; res.Void && v != nil && v.Kind == tote.VoidBeaconMissing && v.Round == h.Round {
				out = append(out, fmt.Sprintf("void: round %d of the %s is published (its signature %.16s… verifies), due at %s, before the void at %s: the beacon was withheld, not missing",
					h.Round, tote.StreetNames[s], h.Signature, b.Chain.RoundTime(h.Round).Format(tote.TimeLayout), v.At.Format(tote.TimeLayout)))
			}
		}
	}
	return out
}

// CheckRecordedEnd compares a result with how a player saw the draw end:
// watching it from DRAW_OPENED, they saw it voided after closed betting
// rounds had closed (their ROUND_CLOSED events), and no more. A result that
// is not a void, or publishes another number of bet roots (a round the
// player never saw close, given a forged root to relabel the void), fails.
func CheckRecordedEnd(res tote.DrawResult, closed *int) []string {
	if closed == nil {
		return nil
	}
	if !res.Void {
		return []string{fmt.Sprintf("the draw was seen voided after %d betting rounds closed; the result is settled", *closed)}
	}
	if len(res.BetRoots) != *closed {
		return []string{fmt.Sprintf("bet roots: the draw was seen voided after %d betting rounds closed; the result publishes %d roots", *closed, len(res.BetRoots))}
	}
	return nil
}
