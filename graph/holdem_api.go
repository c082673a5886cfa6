package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/graph/model"
)

// HoldemAPI resolves the Casino Hold'em part of the schema. Boxes are
// 0-based in the domain and numbered 1 and 2 in the API.
type HoldemAPI struct {
	// Service plays the hands; nil answers every field with an internal error.
	Service *holdem.Service
}

func (a *HoldemAPI) service() (*holdem.Service, error) {
	if a == nil || a.Service == nil {
		return nil, errs.E(errs.Internal, "casino hold'em is not configured")
	}
	return a.Service, nil
}

// HoldemCommit resolves Mutation.holdemCommit.
func (a *HoldemAPI) HoldemCommit(ctx context.Context) (*model.HoldemCommitment, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	pc, err := svc.Commit(ctx, ids.UserID(v.UserID))
	if err != nil {
		return nil, err
	}
	return &model.HoldemCommitment{Commitment: cards.FormatCommitment(pc.Commitment), CreatedAt: pc.CreatedAt}, nil
}

// HoldemStart resolves Mutation.holdemStart.
func (a *HoldemAPI) HoldemStart(ctx context.Context, input model.HoldemStartInput) (*model.HoldemHand, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	req := holdem.StartRequest{UserID: ids.UserID(v.UserID), IdempotencyKey: input.IdempotencyKey}
	for _, b := range input.Boxes {
		s := holdem.Stake{Ante: moneyOf(b.Ante)}
		if b.Bonus != nil {
			s.Bonus = moneyOf(*b.Bonus)
		}
		req.Stakes = append(req.Stakes, s)
	}
	if input.Cut != nil {
		req.Cut = *input.Cut
	}
	if input.Commitment != nil {
		req.Commitment = *input.Commitment
	}
	sn, err := svc.Start(ctx, req)
	if err != nil {
		return nil, err
	}
	return toModelHoldemHand(sn), nil
}

// HoldemDecide resolves Mutation.holdemDecide.
func (a *HoldemAPI) HoldemDecide(ctx context.Context, input model.HoldemDecideInput) (*model.HoldemHand, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	handID, err := parseID(input.HandID, "hand")
	if err != nil {
		return nil, err
	}
	sn, err := svc.Decide(ctx, holdem.DecideRequest{
		UserID: ids.UserID(v.UserID), HandID: handID, Box: input.Box - 1,
		Decision: holdem.Decision(input.Decision), IdempotencyKey: input.IdempotencyKey,
	})
	if err != nil {
		return nil, err
	}
	return toModelHoldemHand(sn), nil
}

// HoldemSettings resolves Query.holdemSettings.
func (a *HoldemAPI) HoldemSettings(ctx context.Context) (*model.HoldemSettings, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	return toModelHoldemSettings(svc.Config()), nil
}

// HoldemHand resolves Query.holdemHand: null when the viewer has no such hand.
func (a *HoldemAPI) HoldemHand(ctx context.Context, id string) (*model.HoldemHand, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	handID, err := parseID(id, "hand")
	if err != nil {
		return nil, err
	}
	return a.EventHand(ctx, ids.UserID(v.UserID), handID)
}

// EventHand is the hand a HOLDEM_UPDATED user event names, as the user may
// see it now; nil when it is not theirs. The myEvents subscription uses it
// to fill UserEvent.holdemHand.
func (a *HoldemAPI) EventHand(ctx context.Context, userID ids.UserID, handID int64) (*model.HoldemHand, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	sn, err := svc.Hand(ctx, userID, handID)
	return nullIfNotFound(sn, err, func(sn holdem.Snapshot) (*model.HoldemHand, error) { return toModelHoldemHand(sn), nil })
}

// HoldemHands resolves Query.holdemHands.
func (a *HoldemAPI) HoldemHands(ctx context.Context, first *int, after *string) (*model.HoldemHandConnection, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	pr, err := readPage(first, after)
	if err != nil {
		return nil, err
	}
	p, err := svc.Hands(ctx, ids.UserID(v.UserID), pr.after, pr.size)
	if err != nil {
		return nil, err
	}
	out := &model.HoldemHandConnection{Edges: make([]model.HoldemHandEdge, 0, len(p.Items))}
	for _, sn := range p.Items {
		out.Edges = append(out.Edges, model.HoldemHandEdge{Cursor: encodeCursor(holdem.HandCursor(sn.ID)), Node: toModelHoldemHand(sn)})
	}
	out.PageInfo = pageInfo(lastCursor(out.Edges, func(e model.HoldemHandEdge) string { return e.Cursor }), p.Next != "")
	return out, nil
}
