package graph

import (
	"context"
	"errors"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// Subscription buffers: a client whose hub buffer fills is dropped (its
// stream ends) and reconnects with its last seq.
const (
	tableSubBuffer = 256
	userSubBuffer  = 64
	replayPage     = 200
)

// TableEvents resolves Subscription.tableEvents. The protocol: subscribe to
// the hub first, then replay the outbox after afterSeq (or start from the
// table's current sequence when afterSeq is null), then forward live
// events, dropping any already sent (seq <= last) and filling a gap (a live
// seq beyond last+1) from the outbox first. The client therefore sees every
// seq once, in order. When this replica drops a slow client the stream
// ends; the client reconnects with the last seq it received.
func (a *ToteAPI) TableEvents(ctx context.Context, tableID string, afterSeq *int64) (<-chan *model.TableEvent, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	if a.Hub == nil {
		return nil, errs.E(errs.Internal, "the event hub is not configured")
	}
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	sub := a.Hub.Subscribe(event.TableTopic(n), tableSubBuffer)
	t, err := svc.Store().Table(ctx, n)
	if err != nil {
		sub.Close()
		return nil, err
	}
	last := t.LastSeq
	if afterSeq != nil {
		if *afterSeq < 0 || *afterSeq > t.LastSeq {
			sub.Close()
			return nil, errs.R(errs.Invalid, "INVALID_SEQ", "afterSeq %d is not in the table's stream (its last event is %d)", *afterSeq, t.LastSeq)
		}
		// Events before the outbox's retention are gone (issue 13); issue 9's
		// join snapshot replaces this refusal.
		if err := tote.ResumeFrom(ctx, svc.Store(), n, *afterSeq); err != nil {
			sub.Close()
			return nil, err
		}
		last = *afterSeq
	}
	out := make(chan *model.TableEvent, 1)
	s := &tableStream{store: svc.Store(), table: n, last: last, out: out}
	go func() {
		defer close(out)
		defer sub.Close()
		if err := s.run(ctx, sub); err != nil && ctx.Err() == nil && a.Log != nil {
			a.Log.InfoContext(ctx, "table stream ended", "table", n, "last", s.last, "err", err)
		}
	}()
	return out, nil
}

// tableStream is one client's table subscription.
type tableStream struct {
	store tote.Store
	table int64
	last  int64 // the seq last sent
	out   chan<- *model.TableEvent
}

// run replays, then forwards live events until ctx ends or the hub drops
// the subscription.
func (s *tableStream) run(ctx context.Context, sub *event.Subscription) error {
	if err := s.catchUp(ctx, 0); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case msg, ok := <-sub.C:
			if !ok {
				if err := sub.Err(); err != nil {
					return err
				}
				return errors.New("subscription closed")
			}
			e, err := tote.DecodeTableEvent(msg)
			if err != nil || e.Seq <= s.last {
				continue
			}
			if e.Seq > s.last+1 {
				if err := s.catchUp(ctx, e.Seq-1); err != nil {
					return err
				}
			}
			if err := s.send(ctx, e); err != nil {
				return err
			}
		}
	}
}

// catchUp sends the outbox's events after s.last, up to seq upTo (0: all).
func (s *tableStream) catchUp(ctx context.Context, upTo int64) error {
	for {
		evs, err := s.store.EventsAfter(ctx, s.table, s.last, replayPage)
		if err != nil {
			return err
		}
		if len(evs) > 0 && evs[0].Seq > s.last+1 { // pruned meanwhile: never skip silently
			return errs.R(errs.Invalid, tote.ReasonEventsPruned, "events after %d of this table are no longer kept", s.last)
		}
		for _, e := range evs {
			if upTo > 0 && e.Seq > upTo {
				return nil
			}
			if err := s.send(ctx, e); err != nil {
				return err
			}
		}
		if len(evs) < replayPage {
			return nil
		}
	}
}

// send forwards e unless it was sent already.
func (s *tableStream) send(ctx context.Context, e tote.TableEvent) error {
	if e.Seq <= s.last {
		return nil
	}
	select {
	case s.out <- toModelTableEvent(e):
		s.last = e.Seq
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// MyEvents resolves Subscription.myEvents: the viewer's bets accepted and
// settled, balance changes, and Casino Hold'em hand updates. Each message
// names what changed; the current bet or hand is loaded when forwarded.
func (a *ToteAPI) MyEvents(ctx context.Context) (<-chan *model.UserEvent, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	if a.Hub == nil {
		return nil, errs.E(errs.Internal, "the event hub is not configured")
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	sub := a.Hub.Subscribe(event.UserTopic(v.UserID), userSubBuffer)
	out := make(chan *model.UserEvent, 1)
	go func() {
		defer close(out)
		defer sub.Close()
		for {
			var msg []byte
			var ok bool
			select {
			case <-ctx.Done():
				return
			case msg, ok = <-sub.C:
				if !ok {
					return // dropped as slow, or shutting down: the client reconnects
				}
			}
			m := a.userEvent(ctx, svc, v.UserID, msg)
			if m == nil {
				continue
			}
			select {
			case out <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// userEvent converts one user-topic message, loading what it names; nil
// when there is nothing to forward.
func (a *ToteAPI) userEvent(ctx context.Context, svc *tote.Service, userID int64, msg []byte) *model.UserEvent {
	ue, err := event.DecodeUserEvent(msg)
	if err != nil {
		return nil
	}
	m := &model.UserEvent{Type: model.UserEventType(ue.Type), At: ue.At}
	switch ue.Type {
	case event.BetAccepted, event.BetSettled:
		b, err := svc.Store().Bet(ctx, ue.BetID)
		if err != nil || b.UserID != userID {
			return nil
		}
		m.Bet = toModelBet(b)
	case event.BalanceChanged:
		m.Balance = ptrTo(model.Money(ue.Balance))
	case event.HoldemUpdated:
		if a.HoldemHand != nil {
			h, err := a.HoldemHand(ctx, userID, ue.HoldemHandID)
			if err != nil && a.Log != nil {
				a.Log.WarnContext(ctx, "holdem hand not loaded for an event", "hand", ue.HoldemHandID, "err", err)
			}
			m.HoldemHand = h
		}
	default:
		return nil
	}
	return m
}
