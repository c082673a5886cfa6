package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/graph/model"
)

// toModelTableEvent converts an outbox event into its typed API event. Every
// field comes from the event itself (immutable facts): nothing is loaded.
// nil for an event type the API does not know.
func toModelTableEvent(e tote.TableEvent) model.TableEvent {
	tid, did, at := id(e.TableID), id(e.DrawID), e.At
	switch e.Type {
	case tote.EventDrawOpened:
		return &model.DrawOpened{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Number: int(e.Number), PositionCount: e.Seats, Seats: e.Seats,
			MinStake: model.Money(e.MinStake), Commitment: e.Commitment, Beacons: toModelBeacons(e.Beacons), Odds: toModelOdds(e.Odds)}
	case tote.EventRoundOpened:
		out := &model.RoundOpened{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Round: model.BettingRound(e.Round.String())}
		if e.ClosesAt != nil {
			out.ClosesAt = *e.ClosesAt
		}
		out.Chances = toModelOpenChances(e.Chances, e.SuspendAt)
		return out
	case tote.EventRoundClosed:
		out := &model.RoundClosed{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Round: model.BettingRound(e.Round.String()),
			PublicSeed: optionalString(e.PublicSeed)}
		if e.BetRoot != nil {
			out.BetRoot = toModelBetRoot(*e.BetRoot)
		}
		return out
	case tote.EventCardsDealt:
		out := &model.CardsDealt{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Street: model.Street(e.Street),
			Cards: orEmpty(e.Cards), Board: orEmpty(e.Board), Positions: toModelPositions(e.Hands)}
		if e.Position != 0 {
			out.Position = ptrTo(e.Position)
		}
		return out
	case tote.EventOddsUpdated:
		return &model.OddsUpdated{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Odds: toModelOdds(e.Odds)}
	case tote.EventPoolUpdated:
		out := &model.PoolUpdated{Seq: e.Seq, TableID: tid, At: at, DrawID: did}
		if e.Pool != nil {
			out.Pool = ptrTo(toModelPool(*e.Pool))
		}
		return out
	case tote.EventDrawSettled:
		out := &model.DrawSettled{Seq: e.Seq, TableID: tid, At: at, DrawID: did, ServerSeed: e.ServerSeed, Positions: toModelPositions(e.Hands)}
		if e.Result != nil {
			out.Result = toModelResult(*e.Result)
		}
		return out
	case tote.EventDrawVoided:
		out := &model.DrawVoided{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Reason: e.Reason, ServerSeed: e.ServerSeed, VoidKind: model.VoidKind(voidKindOf(e.Result))}
		if e.Result != nil {
			out.Result = toModelResult(*e.Result)
		}
		return out
	case tote.EventBeaconDelayed:
		out := &model.BeaconDelayed{Seq: e.Seq, TableID: tid, At: at, DrawID: did, Street: model.Street(e.Street), Round: int64(e.BeaconRound)}
		if e.Deadline != nil {
			out.Deadline = *e.Deadline
		}
		if e.DueAt != nil {
			out.Since = *e.DueAt
		}
		return out
	case tote.EventTablePaused:
		return &model.TablePaused{Seq: e.Seq, TableID: tid, At: at}
	case tote.EventTableResumed:
		return &model.TableResumed{Seq: e.Seq, TableID: tid, At: at}
	}
	return nil
}

// toModelPositions converts the positions frozen in an event or a view.
func toModelPositions(ps []tote.PositionState) []model.Position {
	out := make([]model.Position, len(ps))
	for i, p := range ps {
		mp := model.Position{Number: p.Number, Cards: orEmpty(p.Cards), Status: model.PositionStatus(p.Status)}
		if p.Best != nil {
			mp.BestHand = &model.HandInfo{Category: model.HandCategory(p.Best.Category.String()), Description: p.Best.Description, Cards: p.Best.Cards}
		}
		out[i] = mp
	}
	return out
}

// toModelSnapshot converts a read-model view into the join snapshot.
func toModelSnapshot(v readmodel.TableView, jackpot *model.Jackpot) *model.TableSnapshot {
	out := &model.TableSnapshot{Seq: v.Seq, TableID: id(v.TableID), At: v.At, Status: model.TableStatus(v.Status), Jackpot: jackpot}
	if d := v.Draw; d != nil {
		ds := &model.DrawSnapshot{
			DrawID: id(d.ID), Number: int(d.Number), Phase: model.DrawPhase(d.Phase), OpenRound: roundPtr(d.OpenRound()),
			MinStake: model.Money(d.MinStake), Commitment: d.Commitment, PublicSeed: optionalString(d.PublicSeed),
			ServerSeed: optionalString(d.ServerSeed), Board: orEmpty(d.Board), Positions: toModelPositions(d.Hands),
			Odds: toModelOdds(d.Odds), Pools: make([]model.Pool, len(d.Pools)), VoidReason: optionalString(d.VoidReason),
			Chances: toModelOpenChances(d.Chances, d.SuspendAt), Beacons: toModelBeacons(d.Beacons),
		}
		if !d.RoundClosesAt.IsZero() {
			ds.RoundClosesAt = ptrTo(d.RoundClosesAt)
		}
		for i, p := range d.Pools {
			ds.Pools[i] = toModelPool(p)
		}
		if d.Result != nil {
			ds.Result = toModelResult(*d.Result)
		}
		out.Draw = ds
	}
	return out
}

// voidKindOf is a void result's kind; LEGACY for a result from before
// kinds were recorded.
func voidKindOf(r *tote.DrawResult) tote.VoidKind {
	if r == nil || r.VoidDetail == nil {
		return tote.VoidLegacy
	}
	return r.VoidDetail.Kind
}

// EventDraw resolves the draw field of the table events that change a
// draw (and of the join snapshot's draw): the draw as it stands when the
// event is rendered. The read model applies an event before it hands it
// on, so its copy of the table's current draw is never older than the
// event; an earlier draw (an event replayed after the table moved on) is
// read from the store. Nothing in it depends on the viewer: the rendering
// is shared by every subscriber of the document.
func (a *ToteAPI) EventDraw(ctx context.Context, drawID string) (*model.Draw, error) {
	n, err := parseID(drawID, "draw")
	if err != nil {
		return nil, err
	}
	if a.live != nil {
		for _, lt := range a.live.Tables() {
			if lt.Draw != nil && lt.Draw.ID == n {
				primeDraw(ctx, *lt.Draw)
				return toModelDraw(*lt.Draw, lt.Table), nil
			}
		}
	}
	return a.drawByID(ctx, drawID)
}
