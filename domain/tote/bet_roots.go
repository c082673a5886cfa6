package tote

import (
	"context"

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
// selection and stake; no player.
func LeafOf(b Bet) betroot.Leaf {
	return betroot.Leaf{ID: b.ID, Round: int(b.Round), Market: string(b.Selection.Market), Selection: b.Selection.String(), Stake: int64(b.Stake)}
}

// RoundRoot commits to the bets of round r of draw dr, in tx.
func RoundRoot(ctx context.Context, tx Tx, dr Draw, r parimutuel.Round) (betroot.Root, error) {
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
