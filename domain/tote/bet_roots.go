package tote

import (
	"context"
	"fmt"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// Every bet committed before the next card (issue 26): when a betting round
// of a version-2 draw closes, the dealer computes the Merkle root of the
// round's bets (domain/betroot) in the close's transaction and publishes
// it in ROUND_CLOSED, before the next street's beacon round exists; the
// draw keeps the roots and its result publishes them (betRoots), and the
// verifier checks every pool of the round against its root's count and
// stakes. A player fetches an inclusion proof of their bet (BetProof) and
// checks it against the root they saw.

// LeafOf is a bet as its round's root commits to it: id, round, market,
// selection and stake; no player.
func LeafOf(b Bet) betroot.Leaf {
	return betroot.Leaf{ID: b.ID, Round: int(b.Round), Market: string(b.Selection.Market), Selection: b.Selection.String(), Stake: int64(b.Stake)}
}

// roundRoot commits to the bets of round r of draw dr, in tx.
func roundRoot(ctx context.Context, tx Tx, dr Draw, r parimutuel.Round) (betroot.Root, error) {
	leaves, err := tx.RoundLeaves(ctx, dr.ID, r)
	if err != nil {
		return betroot.Root{}, err
	}
	root, err := betroot.Of(int(r), leaves)
	if err != nil {
		return betroot.Root{}, errs.Wrap(err, "the round's bets cannot be committed")
	}
	return root, nil
}

// BetProof is a bet's inclusion proof against its round's published root.
type BetProof struct {
	Leaf  betroot.Leaf
	Root  betroot.Root
	Proof betroot.Proof
}

// ProveBet returns the inclusion proof of bet b in its round's root; NotFound
// while the round is open (it has no root yet) or for a draw without roots.
func (s *Service) ProveBet(ctx context.Context, b Bet) (BetProof, error) {
	d, err := s.store.Draw(ctx, b.DrawID)
	if err != nil {
		return BetProof{}, err
	}
	var root *betroot.Root
	for i := range d.BetRoots {
		if d.BetRoots[i].Round == int(b.Round) {
			root = &d.BetRoots[i]
		}
	}
	if root == nil {
		return BetProof{}, errs.R(errs.NotFound, ReasonNotFound, "round %s of draw #%d has no bet root yet", b.Round, d.Number)
	}
	leaves, err := s.store.RoundLeaves(ctx, b.DrawID, b.Round)
	if err != nil {
		return BetProof{}, err
	}
	p, err := betroot.Prove(leaves, b.ID)
	if err != nil {
		return BetProof{}, errs.E(errs.Internal, "bet %d: %v", b.ID, err)
	}
	leaf := LeafOf(b)
	if err := betroot.Verify(leaf, p, root.Root); err != nil {
		return BetProof{}, errs.E(errs.Internal, "bet %d does not prove against its round's published root: %v", b.ID, err)
	}
	return BetProof{Leaf: leaf, Root: *root, Proof: p}, nil
}

// verifyBetRoots checks a version-3 result's bet roots: one per betting
// round that closed (four for a settled draw, none for an admin void, the
// rounds up to the missing street for a beacon void), in order, each in
// canonical hex, and each round's pools holding exactly its root's number
// of bets and stakes. A phantom, dropped or inflated bet, or a pool or
// selection left out, then fails (against the roots a player recorded from
// ROUND_CLOSED: CheckRecordedRoots).
func verifyBetRoots(res DrawResult, problem func(string, ...any)) bool {
	if res.Version < ResultVersionCommitted || res.Beacons == nil {
		if len(res.BetRoots) > 0 {
			problem("bet roots: a version-%d result publishes none", res.Version)
			return false
		}
		return true
	}
	ok := true
	bad := func(format string, args ...any) {
		ok = false
		problem(format, args...)
	}
	closed := 4
	if res.Void && res.VoidDetail != nil {
		switch res.VoidDetail.Kind {
		case VoidAdminBeforeDeal:
			closed = 0
		case VoidBeaconMissing:
			closed = res.VoidDetail.Street
		case VoidBeaconEarly: // the round it names never closed
			closed = max(res.VoidDetail.Street-1, 0)
		}
	}
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
		open := res.Void && round == closed+1 && (closed == 0 || res.VoidDetail != nil && res.VoidDetail.Kind == VoidBeaconEarly)
		if round > len(res.BetRoots) && !open && (s.n > 0 || s.stakes > 0) {
			bad("bet roots: round %d's pools publish %d bets, but the round has no root", round, s.n)
		}
	}
	return ok
}

// CheckRecordedRoots compares a result's bet roots with the ones a player
// recorded from ROUND_CLOSED events (any subset of rounds): a result
// re-committed after the fact then fails.
func CheckRecordedRoots(res DrawResult, recorded []betroot.Root) []string {
	var out []string
	for _, want := range recorded {
		found := false
		for _, got := range res.BetRoots {
			if got.Round == want.Round {
				found = true
				if !betroot.Equal(got, want) {
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
