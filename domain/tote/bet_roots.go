package tote

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// Every bet committed before the next card: when a betting round
// of a version-2 draw closes, the dealer computes the Merkle root of the
// round's bets (domain/betroot) in the close's transaction and publishes
// it in ROUND_CLOSED, before the next street's beacon round exists; the
// draw keeps the roots and its result publishes them (betRoots), and the
// verifier checks every pool of the round against its root's count and
// stakes. A player fetches an inclusion proof of their bet (BetProof) and
// checks it against the root they saw.

// LeafOf is a bet as its round's root commits to it: id, round, market,
// selection, stake and when it was placed; no player. Its version is the
// draw's (LeafVersion).
func LeafOf(b Bet) betroot.Leaf {
	return betroot.Leaf{Version: 1, ID: b.ID, Round: int(b.Round), Market: string(b.Selection.Market), Selection: b.Selection.String(), Stake: int64(b.Stake),
		PlacedAt: b.PlacedAt.Truncate(time.Millisecond).UTC()}
}

// LeafVersion is the leaf version of d's bet roots: 2 (a reference for
// the id, and the time placed) from fair deal 4, 1 before.
func LeafVersion(d *Draw) int {
	if FairnessOf(d) >= FairnessTerms {
		return 2
	}
	return 1
}

// LeavesOf sets the version of d's leaves on leaves, and returns them.
func LeavesOf(d *Draw, leaves []betroot.Leaf) []betroot.Leaf {
	v := LeafVersion(d)
	for i := range leaves {
		leaves[i].Version = v
	}
	return leaves
}

// RoundRoot commits to the bets of round r of draw dr, in tx.
func RoundRoot(ctx context.Context, tx Tx, dr Draw, r parimutuel.Round) (betroot.Root, error) {
	leaves, err := tx.RoundLeaves(ctx, dr.ID, r)
	if err != nil {
		return betroot.Root{}, err
	}
	leaves = LeavesOf(&dr, leaves)
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
