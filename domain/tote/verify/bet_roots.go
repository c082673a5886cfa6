package verify

import (
	"fmt"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/tote"
)

// verifyBetRoots checks a version-3 result's bet roots: one per betting
// round that closed (four for a settled draw, none for an admin void, the
// rounds up to the missing street for a beacon void), in order, each in
// canonical hex, and each round's pools holding exactly its root's number
// of bets and stakes. A phantom, dropped or inflated bet, or a pool or
// selection left out, then fails (against the roots a player recorded from
// ROUND_CLOSED: CheckRecordedRoots).
func verifyBetRoots(res tote.DrawResult, problem func(string, ...any)) bool {
	if res.Version < tote.ResultVersionCommitted || res.Beacons == nil {
		if len(res.BetRoots) > 0 {
			problem("bet roots: a version-%d result publishes none", res.Version)
			return false
		}
		return true
	}
	c := checker{problem: problem}
	bad := c.bad
	closed := 4
	if res.Void && res.VoidDetail != nil {
		switch res.VoidDetail.Kind {
		case tote.VoidAdminBeforeDeal:
			closed = 0
		case tote.VoidBeaconMissing:
			closed = res.VoidDetail.Street
		case tote.VoidBeaconEarly, tote.VoidRootLate: // the round it names never closed
			closed = max(res.VoidDetail.Street-1, 0)
		}
	}
	verifyRootTimes(res, bad)
	if len(res.BetRoots) != closed {
		bad("bet roots: %d published, %d betting rounds closed", len(res.BetRoots), closed)
	}
	type sums struct {
		n      int
		stakes int64
	}
	got := map[int]sums{}
	for _, p := range res.Pools {
		s := got[int(p.Round)]
		s.n += p.NumBets
		s.stakes += int64(p.Gross)
		for _, sel := range p.Selections {
			if sel.Stakes < 0 {
				bad("pool %s: selection %s stakes %s", p.PoolID, sel.Selection, sel.Stakes)
			}
		}
		got[int(p.Round)] = s
	}
	for i, r := range res.BetRoots {
		if r.Round != i+1 {
			bad("bet roots: root %d is of round %d", i+1, r.Round)
			continue
		}
		if _, err := betroot.ParseHash(r.Root); err != nil {
			bad("bet root of round %d: %v", r.Round, err)
		}
		if s := got[r.Round]; s.n != r.NumBets || s.stakes != r.Stakes {
			bad("bet root of round %d commits to %d bets staking %d tiyn; the round's pools publish %d bets staking %d", r.Round, r.NumBets, r.Stakes, s.n, s.stakes)
		}
	}
	for round, s := range got {
		// An admin void refunds the open round 1; an early beacon, the round
		// that was closing.
		open := res.Void && round == closed+1 && (closed == 0 || res.VoidDetail != nil && (res.VoidDetail.Kind == tote.VoidBeaconEarly || res.VoidDetail.Kind == tote.VoidRootLate))
		if round > len(res.BetRoots) && !open && (s.n > 0 || s.stakes > 0) {
			bad("bet roots: round %d's pools publish %d bets, but the round has no root", round, s.n)
		}
	}
	return c.ok()
}

// verifyRootTimes checks, from result version 5 (fair deal 4), when each
// bet root was published: not before its round's committed close, and
// before its street's beacon round existed unless the round took no bet
// (a root published later could have been written knowing the cards; the
// dealer voids such a draw ROOT_LATE instead).
func verifyRootTimes(res tote.DrawResult, bad func(string, ...any)) {
	b := res.Beacons
	if res.Version < tote.ResultVersionTerms || b == nil {
		for _, r := range res.BetRoots {
			if r.At != nil {
				bad("bet root of round %d: a version-%d result publishes no root times", r.Round, res.Version)
			}
		}
		return
	}
	for _, r := range res.BetRoots {
		if r.Round < 1 || r.Round > 4 {
			continue
		}
		if r.At == nil {
			bad("bet root of round %d: a version-%d result publishes when each root was published", r.Round, res.Version)
			continue
		}
		closes, due := b.ClosesAt[r.Round-1], b.Chain.RoundTime(b.Rounds[r.Round-1])
		if r.At.Before(closes) {
			bad("bet root of round %d: published at %s, before the round's close %s", r.Round, r.At.Format(tote.TimeLayout), closes.Format(tote.TimeLayout))
		}
		if !r.At.Before(due) && r.NumBets > 0 {
			bad("bet root of round %d: published at %s, once beacon round %d of the %s was due (%s), with %d bets: the draw should have been voided ROOT_LATE",
				r.Round, r.At.Format(tote.TimeLayout), b.Rounds[r.Round-1], tote.StreetNames[r.Round-1], due.Format(tote.TimeLayout), r.NumBets)
		}
	}
}

// CheckRecordedRoots compares a result's bet roots with the ones a player
// recorded from ROUND_CLOSED events (any subset of rounds): a result
// re-committed after the fact then fails.
func CheckRecordedRoots(res tote.DrawResult, recorded []betroot.Root) []string {
	var out []string
	for _, want := range recorded {
		found := false
		for _, got := range res.BetRoots {
			if got.Round == want.Round {
				found = true
				if !betroot.Equal(got, want) || want.At != nil && (got.At == nil || !got.At.Equal(*want.At)) {
					out = append(out, fmt.Sprintf("bet root of round %d: published %s (%d bets, %d tiyn), recorded %s (%d bets, %d tiyn)",
						want.Round, got.Root, got.NumBets, got.Stakes, want.Root, want.NumBets, want.Stakes))
				}
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("bet root of round %d: recorded %s, the result publishes none", want.Round, want.Root))
		}
	}
	return out
}
