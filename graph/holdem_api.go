package graph

import (
	"context"
	"log/slog"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/graph/model"
)

// HoldemAPI resolves the Casino Hold'em part of the schema. Boxes are
// 0-based in the domain and numbered 1 and 2 in the API.
type HoldemAPI struct {
	svc *holdem.Service
	log *slog.Logger
}

// NewHoldemAPI returns Casino Hold'em's resolvers over svc (required); log
// (nil: none) records a hand its user event could not load.
func NewHoldemAPI(svc *holdem.Service, log *slog.Logger) *HoldemAPI {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &HoldemAPI{svc: svc, log: log}
}

// HoldemCommit resolves Mutation.holdemCommit.
func (a *HoldemAPI) HoldemCommit(ctx context.Context) (*model.HoldemCommitment, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	pc, err := a.svc.Commit(ctx, ids.UserID(v.UserID))
	if err != nil {
		return nil, err
	}
	return &model.HoldemCommitment{Commitment: cards.FormatCommitment(pc.Commitment), CreatedAt: pc.CreatedAt}, nil
}

// HoldemStart resolves Mutation.holdemStart.
func (a *HoldemAPI) HoldemStart(ctx context.Context, input model.HoldemStartInput) (*model.HoldemHand, error) {
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
	sn, err := a.svc.Start(ctx, req)
	if err != nil {
		return nil, err
	}
	return toModelHoldemHand(sn), nil
}

// HoldemDecide resolves Mutation.holdemDecide.
func (a *HoldemAPI) HoldemDecide(ctx context.Context, input model.HoldemDecideInput) (*model.HoldemHand, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	handID, err := parseID(input.HandID, "hand")
	if err != nil {
		return nil, err
	}
	sn, err := a.svc.Decide(ctx, holdem.DecideRequest{
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
	return toModelHoldemSettings(a.svc.Config()), nil
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
	return a.userHand(ctx, ids.UserID(v.UserID), handID)
}

// UserEventTypes implements UserEventSource: a hand changed.
func (a *HoldemAPI) UserEventTypes() []string { return []string{event.HoldemUpdated} }

// UserEvent implements UserEventSource: the hand as its player may see it
// now.
func (a *HoldemAPI) UserEvent(ctx context.Context, userID ids.UserID, ue event.UserEvent) model.UserEvent {
	h, err := a.userHand(ctx, userID, ue.HoldemHandID)
	if err != nil || h == nil {
		if err != nil && ctx.Err() == nil {
			a.log.WarnContext(ctx, "holdem hand not loaded for an event", "hand", ue.HoldemHandID, "err", err)
		}
		return nil
	}
	return &model.HoldemHandUpdated{At: ue.At, Hand: h}
}

// userHand is the user's hand as they may see it now; nil when it is not
// theirs.
func (a *HoldemAPI) userHand(ctx context.Context, userID ids.UserID, handID int64) (*model.HoldemHand, error) {
	sn, err := a.svc.Hand(ctx, userID, handID)
	return nullIfNotFound(sn, err, func(sn holdem.Snapshot) (*model.HoldemHand, error) { return toModelHoldemHand(sn), nil })
}

// HoldemHands resolves Query.holdemHands.
func (a *HoldemAPI) HoldemHands(ctx context.Context, first *int, after *string, last *int, before *string) (*model.HoldemHandConnection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	pr, err := readPageArgs(first, after, last, before)
	if err != nil {
		return nil, err
	}
	hands := a.svc.Hands
	if pr.backward {
		hands = a.svc.HandsBefore
	}
	p, err := hands(ctx, ids.UserID(v.UserID), pr.cursor(), pr.size)
	if err != nil {
		return nil, err
	}
	out := &model.HoldemHandConnection{Edges: make([]model.HoldemHandEdge, 0, len(p.Items))}
	for _, sn := range p.Items {
		out.Edges = append(out.Edges, model.HoldemHandEdge{Cursor: encodeCursor(holdem.HandCursor(sn.ID)), Node: toModelHoldemHand(sn)})
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.HoldemHandEdge) string { return e.Cursor }, p.Next != "")
	return out, nil
}
