package service

import (
	"context"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// The service's reads: everything the API shows of tables, draws, bets,
// results and the outbox goes through these, never through the store
// itself, whose transactions and writes stay inside the service. Each is
// the store's read of the same name (see Store for what it answers).

// Table is a table by id; NotFound when there is none.
func (s *Service) Table(ctx context.Context, id int64) (tote.Table, error) {
	return s.store.Table(ctx, id)
}

// Tables lists every table.
func (s *Service) Tables(ctx context.Context) ([]tote.Table, error) { return s.store.Tables(ctx) }

// TablesByID loads many tables at once (in no particular order; missing
// ids are left out), for the API's per-request loaders.
func (s *Service) TablesByID(ctx context.Context, ids []int64) ([]tote.Table, error) {
	return s.store.TablesByID(ctx, ids)
}

// Draw is a draw by id; NotFound when there is none.
func (s *Service) Draw(ctx context.Context, id int64) (tote.Draw, error) {
	return s.store.Draw(ctx, id)
}

// DrawBets lists a draw's bets.
func (s *Service) DrawBets(ctx context.Context, drawID int64) ([]tote.Bet, error) {
	return s.store.DrawBets(ctx, drawID)
}

// DrawsByID loads many draws at once, like TablesByID.
func (s *Service) DrawsByID(ctx context.Context, ids []int64) ([]tote.Draw, error) {
	return s.store.DrawsByID(ctx, ids)
}

// LatestDraw is the table's newest draw; NotFound when it has none.
func (s *Service) LatestDraw(ctx context.Context, tableID int64) (tote.Draw, error) {
	return s.store.LatestDraw(ctx, tableID)
}

// Bet is a bet by id; NotFound when there is none.
func (s *Service) Bet(ctx context.Context, id int64) (tote.Bet, error) { return s.store.Bet(ctx, id) }

// Bets lists a player's bets newest first, filtered as q says.
func (s *Service) Bets(ctx context.Context, q tote.BetQuery) ([]tote.Bet, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	return s.store.Bets(ctx, q)
}

// Results lists finished (SETTLED or VOID) draws newest first.
func (s *Service) Results(ctx context.Context, q tote.ResultQuery) ([]tote.Draw, error) {
	return s.store.Results(ctx, q)
}

// JackpotChain reads a page of the public jackpot chain.
func (s *Service) JackpotChain(ctx context.Context, q tote.JackpotChainQuery) ([]tote.JackpotEntry, error) {
	return s.store.JackpotChain(ctx, q)
}

// EventsAfter lists a table's outbox events with Seq > after, in order, at
// most limit of them.
func (s *Service) EventsAfter(ctx context.Context, tableID, after int64, limit int) ([]tote.TableEvent, error) {
	return s.store.EventsAfter(ctx, tableID, after, limit)
}

// ResumeFrom checks that a client resuming the table's stream after
// afterSeq can be given every later event (see the function ResumeFrom).
func (s *Service) ResumeFrom(ctx context.Context, tableID, afterSeq int64) error {
	return tote.ResumeFrom(ctx, s.store, tableID, afterSeq)
}

// ProveBet returns the inclusion proof of bet b in its round's root; NotFound
// while the round is open (it has no root yet) or for a draw without roots.
func (s *Service) ProveBet(ctx context.Context, b tote.Bet) (tote.BetProof, error) {
	d, err := s.store.Draw(ctx, b.DrawID)
	if err != nil {
		return tote.BetProof{}, err
	}
	var root *betroot.Root
	for i := range d.BetRoots {
		if d.BetRoots[i].Round == int(b.Round) {
			root = &d.BetRoots[i]
		}
	}
	if root == nil {
		return tote.BetProof{}, errs.R(errs.NotFound, tote.ReasonNotFound, "round %s of %s has no bet root yet", b.Round, d.Named())
	}
	leaves, err := s.store.RoundLeaves(ctx, b.DrawID, b.Round)
	if err != nil {
		return tote.BetProof{}, err
	}
	leaves = tote.LeavesOf(&d, leaves)
	p, err := betroot.Prove(leaves, b.ID)
	if err != nil {
		return tote.BetProof{}, errs.E(errs.Internal, "bet %d: %v", b.ID, err)
	}
	leaf := tote.LeafOf(b)
	leaf.Version = tote.LeafVersion(&d)
	if err := betroot.Verify(leaf, p, root.Root); err != nil {
		return tote.BetProof{}, errs.E(errs.Internal, "bet %d does not prove against its round's published root: %v", b.ID, err)
	}
	return tote.BetProof{Leaf: leaf, Root: *root, Proof: p}, nil
}

// Leaves calls fn with every accepted bet of a finished draw (of round
// only, when not 0) as it is published (SPEC 1.8: a leaf without
// identity), round by round in the order its root commits to them, a page
// at a time. A draw still running is DRAW_NOT_FINISHED: its leaves are
// published with its result.
func (s *Service) Leaves(ctx context.Context, drawID int64, round parimutuel.Round, fn func(betroot.PublicLeaf) error) error {
	d, err := s.store.Draw(ctx, drawID)
	if err != nil {
		return err
	}
	if !d.Phase.Finished() {
		return errs.R(errs.Conflict, tote.ReasonDrawNotFinished, "%s is not over yet: its bets are published with its result", d.Named())
	}
	if round != 0 {
		if err := round.Validate(); err != nil {
			return err
		}
	}
	v := tote.LeafVersion(&d)
	return s.store.EachLeaf(ctx, drawID, round, func(l betroot.Leaf) error {
		l.Version = v
		return fn(l.Public())
	})
}
