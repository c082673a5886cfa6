package verify

import (
	"slices"
	"time"

	"github.com/pokertote/pokertote/domain/beacon"
	"github.com/pokertote/pokertote/domain/tote"
)

// verifyVoid checks a result's void against the draw's committed times
// (docs/fairness.md section 6). From result version 3 a void
// publishes its structured cause, and only two causes exist: an admin
// void before round 1's close deadline, with no beacon fetched and no card
// dealt; or a street's beacon round missing past its committed deadline,
// with every earlier street dealt and none after. The published reason
// must be the one written from the cause, so a relabelled or empty reason
// fails; the jackpot must stand unchanged. Results before version 3 carry
// no cause: their reason is free text, as it always was.
func verifyVoid(res tote.DrawResult, problem func(string, ...any)) bool {
	c := checker{problem: problem}
	bad := c.bad
	if res.Version < tote.ResultVersionCommitted {
		if !res.Void && (res.VoidReason != "" || res.VoidDetail != nil) {
			bad("void: a settled draw publishes a void reason")
		}
		return c.ok()
	}
	if !res.Void {
		if res.VoidReason != "" || res.VoidDetail != nil {
			bad("void: a settled draw publishes a void reason or cause")
		}
		return c.ok()
	}
	v := res.VoidDetail
	if v == nil {
		bad("void: a version-%d void publishes its cause (voidDetail)", res.Version)
		return false
	}
	if res.VoidReason != v.Reason() {
		bad("void: the reason %q is not the one its cause gives (%q)", res.VoidReason, v.Reason())
	}
	if len(res.Hands) > 0 || len(res.Winners) > 0 {
		bad("void: a void draw publishes no hands or winners")
	}
	if res.JackpotAfter != res.JackpotBefore {
		bad("void: the jackpot went from %s to %s; a void moves nothing", res.JackpotBefore, res.JackpotAfter)
	}
	for _, p := range res.Pools {
		if p.JackpotBefore != res.JackpotBefore {
			bad("void: pool %s publishes a jackpot of %s, the draw %s", p.PoolID, p.JackpotBefore, res.JackpotBefore)
		}
	}
	b := res.Beacons
	if b == nil {
		bad("void: a version-%d result publishes its beacons", res.Version)
		return false
	}
	fetched := 0
	for fetched < 4 && b.Signatures[fetched] != "" {
		fetched++
	}
	switch v.Kind {
	case tote.VoidAdminBeforeDeal:
		if !v.At.Before(b.ClosesAt[0]) {
			bad("void: an admin void at %s, not before betting round 1 closed (%s)", v.At.Format(tote.TimeLayout), b.ClosesAt[0].Format(tote.TimeLayout))
		}
		if fetched > 0 || len(res.Pockets) > 0 || len(res.Board) > 0 || len(res.Burns) > 0 {
			bad("void: an admin void before the deal, yet %d beacon rounds fetched and cards published", fetched)
		}
	case tote.VoidBeaconMissing:
		s, ok := voidStreet(v, b, "a missing", bad)
		if !ok {
			return false
		}
		if v.Deadline == nil || !v.Deadline.Equal(b.Deadlines[s-1]) {
			bad("void: the %s's committed deadline is %s, the void names %v", tote.StreetNames[s-1], b.Deadlines[s-1].Format(tote.TimeLayout), fmtTime(v.Deadline))
		}
		if !v.At.After(b.Deadlines[s-1]) {
			bad("void: voided at %s, not after the %s's deadline %s", v.At.Format(tote.TimeLayout), tote.StreetNames[s-1], b.Deadlines[s-1].Format(tote.TimeLayout))
		}
		if fetched != s-1 {
			bad("void: the %s's beacon is missing, but %d streets have signatures (want %d)", tote.StreetNames[s-1], fetched, s-1)
		}
	case tote.VoidBeaconEarly:
		if res.Version < tote.ResultVersionBound {
			bad("void: a version-%d void cannot be %s (version %d on)", res.Version, v.Kind, tote.ResultVersionBound)
			return false
		}
		s, ok := voidStreet(v, b, "an early", bad)
		if !ok {
			return false
		}
		if v.Deadline != nil {
			bad("void: an early beacon names no deadline")
		}
		if v.At.Before(b.ClosesAt[s-1]) {
			bad("void: voided at %s, before betting round %d's close %s", v.At.Format(tote.TimeLayout), s, b.ClosesAt[s-1].Format(tote.TimeLayout))
		}
		if at := b.Chain.RoundTime(v.Round); !v.At.Before(at) {
			bad("void: voided at %s, not before round %d's time %s: a round published by then is not early", v.At.Format(tote.TimeLayout), v.Round, at.Format(tote.TimeLayout))
		}
		if _, err := beacon.Verify(b.Chain, beacon.Beacon{Round: v.Round, Signature: v.Signature}); err != nil {
			bad("void: the early round's signature: %v", err)
		}
		if fetched != s-1 {
			bad("void: betting round %d closed on an early beacon, but %d streets have signatures (want %d)", s, fetched, s-1)
		}
	case tote.VoidRootLate:
		if res.Version < tote.ResultVersionTerms {
			bad("void: a version-%d void cannot be %s (version %d on)", res.Version, v.Kind, tote.ResultVersionTerms)
			return false
		}
		s, ok := voidStreet(v, b, "a late root's", bad)
		if !ok {
			return false
		}
		if v.Deadline != nil || v.Signature != "" {
			bad("void: a late root names no deadline or signature")
		}
		if at := b.Chain.RoundTime(v.Round); v.At.Before(at) {
			bad("void: voided at %s, before round %d's time %s: the root could still have been published in time", v.At.Format(tote.TimeLayout), v.Round, at.Format(tote.TimeLayout))
		}
		if fetched != s-1 {
			bad("void: betting round %d closed late, but %d streets have signatures (want %d)", s, fetched, s-1)
		}
	default:
		bad("void: unknown cause %q (a version-%d void is %s, %s or, from version %d, %s, from version %d, %s)", v.Kind, res.Version, tote.VoidAdminBeforeDeal, tote.VoidBeaconMissing, tote.ResultVersionBound, tote.VoidBeaconEarly, tote.ResultVersionTerms, tote.VoidRootLate)
	}
	return c.ok()
}

// voidStreet is the street a beacon void names (what: "a missing" or "an
// early" beacon), checked to be a street and to name its committed round;
// false when there is no such street.
func voidStreet(v *tote.VoidDetail, b *tote.DrawBeacons, what string, bad func(string, ...any)) (int, bool) {
	s := v.Street
	if s < 1 || s > 4 {
		bad("void: %s beacon of street %d", what, s)
		return 0, false
	}
	if v.Round != b.Rounds[s-1] {
		bad("void: the %s's committed round is %d, the void names round %d", tote.StreetNames[s-1], b.Rounds[s-1], v.Round)
	}
	return s, true
}

// fmtTime writes an optional time for a problem line.
func fmtTime(t *time.Time) string {
	if t == nil {
		return "none"
	}
	return t.Format(tote.TimeLayout)
}

// legacyVoidHands reports whether hands published by a void result before
// version 3 are what its settler wrote: every position's best five with
// the full board, each LOSS (such a void after the river filled them).
func legacyVoidHands(res tote.DrawResult, want []tote.HandView) bool {
	if len(res.Winners) > 0 || len(res.Hands) != len(want) {
		return false
	}
	for i, h := range res.Hands {
		w := want[i]
		if h.Position != w.Position || h.Category != w.Category || h.Description != w.Description || !slices.Equal(h.Cards, w.Cards) || h.Status != w.Status {
			return false
		}
	}
	return true
}
