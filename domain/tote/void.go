package tote

import (
	"fmt"
	"time"
)

// VoidKind is why a draw was voided, as a verifier can check it (issue
// 26). A draw can be voided for three causes only:
//
//   - ADMIN_BEFORE_DEAL: an admin voided it while betting round 1 was open,
//     before its close deadline, so before any beacon round the draw uses
//     could be known and before any card existed;
//   - BEACON_MISSING: the beacon round of a street was not available
//     (unpublished, unreachable or failing verification) by that street's
//     committed deadline;
//   - BEACON_BEFORE_CLOSE (result version 4): when a betting round closed,
//     the beacon round its street is drawn from was already published
//     (the server's clock was a full period behind the chain), so a bet
//     of that round could have been placed knowing the street;
//   - ROOT_LATE (result version 5): a betting round with bets closed, and
//     its bet root would have been published, only once its street's
//     beacon round existed (a stalled dealer), when the house could have
//     known the next cards before committing to the bets.
//
// After round 1 closes the cards follow from the committed seed and the
// beacons alone, so nobody, the operator included, can call a draw off
// because of them: any replica can always finish it. LEGACY is the kind of
// voids recorded before kinds existed (their reason is free text); it is
// stored and counted, never given to a new void.
type VoidKind string

// The void kinds.
const (
	VoidAdminBeforeDeal VoidKind = "ADMIN_BEFORE_DEAL"
	VoidBeaconMissing   VoidKind = "BEACON_MISSING"
	VoidBeaconEarly     VoidKind = "BEACON_BEFORE_CLOSE"
	VoidRootLate        VoidKind = "ROOT_LATE"
	VoidLegacy          VoidKind = "LEGACY"
)

// VoidKinds lists every kind, in the order the public counts show them.
var VoidKinds = []VoidKind{VoidAdminBeforeDeal, VoidBeaconMissing, VoidBeaconEarly, VoidRootLate, VoidLegacy}

// VoidDetail is the structured cause of a void, published in the result
// (voidDetail) and checked by the verifier against the draw's committed
// times (docs/fairness.md, section 6).
type VoidDetail struct {
	Kind VoidKind `json:"kind"`
	// At is when the server decided the void (UTC, whole milliseconds).
	At time.Time `json:"at"`
	// Street (1 pockets .. 4 river), Round and Deadline name the beacon
	// round that was missing and the deadline it missed (BEACON_MISSING),
	// or the round found published when betting round Street closed
	// (BEACON_BEFORE_CLOSE, no deadline) with its Signature as the dealer
	// fetched it then.
	Street    int        `json:"street,omitempty"`
	Round     uint64     `json:"round,omitempty"`
	Deadline  *time.Time `json:"deadline,omitempty"`
	Signature string     `json:"signature,omitempty"`
	// Why is the dealer's or the admin's own words (an error, the admin's
	// reason). It is published for people; no check trusts it.
	Why string `json:"why,omitempty"`
}

// Reason is the void's published reason: a sentence written from the
// structured fields, so a verifier recomputes it and a relabelled or empty
// reason fails.
func (v VoidDetail) Reason() string {
	switch v.Kind {
	case VoidAdminBeforeDeal:
		return "voided by an admin before betting round 1 closed: " + v.Why
	case VoidBeaconMissing:
		dl := ""
		if v.Deadline != nil {
			dl = v.Deadline.UTC().Format(TimeLayout)
		}
		return fmt.Sprintf("beacon failure: round %d (the %s) was not available by %s (%s); every stake is refunded",
			v.Round, streetName(v.Street), dl, v.Why)
	case VoidBeaconEarly:
		return fmt.Sprintf("beacon early: round %d (the %s) was already published when betting round %d closed at %s; every stake is refunded",
			v.Round, streetName(v.Street), v.Street, v.At.UTC().Format(TimeLayout))
	case VoidRootLate:
		return fmt.Sprintf("bet root late: betting round %d closed at %s, once round %d (the %s) was due; every stake is refunded",
			v.Street, v.At.UTC().Format(TimeLayout), v.Round, streetName(v.Street))
	}
	return string(v.Kind) + ": " + v.Why
}

// streetName names street s (1..4), or "street s" outside that range.
func streetName(s int) string {
	if s >= 1 && s <= 4 {
		return StreetNames[s-1]
	}
	return fmt.Sprintf("street %d", s)
}

// AdminVoidAllowed reports whether an admin may still void dr at now: a
// draw whose round 1 is open and whose round-1 close deadline has not come.
func AdminVoidAllowed(dr Draw, now time.Time) bool {
	return dr.Phase == PhasePreDeal && now.Before(dr.RoundClosesAt)
}

// VoidCount is how many draws of a table were voided for one kind.
type VoidCount struct {
	Kind  VoidKind
	Count int64
}

// StreetNames name the streets in void reasons and the verifier's problem
// lines, index s-1.
var StreetNames = [4]string{"pockets", "flop", "turn", "river"}

// TimeLayout writes deadlines in void reasons and problem lines.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"
