package graph

import (
	"context"
	"errors"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// Subscription buffers: a client whose buffer fills is dropped (its stream
// ends) and reconnects with its last seq.
const (
	tableSubBuffer = 256
	userSubBuffer  = 64
)

// TableEvents resolves Subscription.tableEvents. The protocol: subscribe to
// the read model's decoded events first; then, without afterSeq (or with
// one more than tote.ReplayBound events behind), send one TableSnapshot of
// the read model's view; otherwise replay the outbox after afterSeq. Then
// forward live events, dropping any already sent (seq <= last) and filling
// a gap (a live seq beyond last+1) from the outbox, or with a fresh
// snapshot when the gap is longer than the replay bound. The client
// therefore sees every seq once, in order (a snapshot standing for the
// events it folds). When this replica drops a slow client the stream ends;
// the client reconnects with the last seq it received.
func (a *ToteAPI) TableEvents(ctx context.Context, tableID string, afterSeq *int64) (<-chan model.TableEvent, error) {
	svc, err := a.service()
	if err != nil {
		return nil, err
	}
	if a.Live == nil {
		return nil, errs.E(errs.Internal, "the table read model is not configured")
	}
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	sub := a.Live.Subscribe(n, tableSubBuffer)
	lt, err := a.Live.Lookup(ctx, n)
	if err != nil {
		sub.Close()
		return nil, err
	}
	s := &tableStream{api: a, store: svc.Store(), live: a.Live, table: n, tap: tapFrom(ctx)}
	if afterSeq != nil {
		t, err := svc.Store().Table(ctx, n)
		if err != nil {
			sub.Close()
			return nil, err
		}
		if *afterSeq < 0 || *afterSeq > t.LastSeq {
			sub.Close()
			return nil, errs.R(errs.Invalid, "INVALID_SEQ", "afterSeq %d is not in the table's stream (its last event is %d)", *afterSeq, t.LastSeq)
		}
		s.last = *afterSeq
		s.replay = t.LastSeq-*afterSeq <= tote.ReplayBound
	}
	out := make(chan model.TableEvent, 1)
	if s.tap != nil {
		out = s.tap.forward
	}
	s.out = out
	go func() {
		if s.tap != nil {
			defer close(s.tap.items)
		} else {
			defer close(out)
		}
		defer sub.Close()
		if err := s.run(ctx, sub, lt); err != nil && ctx.Err() == nil && a.Log != nil {
			a.Log.InfoContext(ctx, "table stream ended", "table", n, "last", s.last, "err", err)
		}
	}()
	return out, nil
}

// tableStream is one client's table subscription.
type tableStream struct {
	api    *ToteAPI
	store  tote.Store
	live   *tote.ReadModel
	table  int64
	last   int64 // the seq last sent (a snapshot's seq counts)
	replay bool  // start by replaying the outbox after last
	out    chan<- model.TableEvent
	tap    *renderTap // non-nil: responses are rendered once per document
}

// run sends the snapshot or the replay, then forwards live events until ctx
// ends or the read model drops the subscription.
func (s *tableStream) run(ctx context.Context, sub *event.Sub[*tote.TableEvent], lt *tote.LiveTable) error {
	if s.replay {
		if err := s.catchUp(ctx, 0); err != nil {
			return err
		}
	} else if err := s.snapshot(ctx, lt.View); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-sub.C:
			if !ok {
				if err := sub.Err(); err != nil {
					return err
				}
				return errors.New("subscription closed")
			}
			if e.Seq <= s.last {
				continue
			}
			if e.Seq > s.last+1 {
				if e.Seq-s.last > tote.ReplayBound {
					// Too far behind to replay: the read model has applied
					// e, so its view is at e.Seq or later.
					cur, err := s.live.Lookup(ctx, s.table)
					if err != nil {
						return err
					}
					if err := s.snapshot(ctx, cur.View); err != nil {
						return err
					}
					continue
				}
				if err := s.catchUp(ctx, e.Seq-1); err != nil {
					return err
				}
			}
			if err := s.send(ctx, *e); err != nil {
				return err
			}
		}
	}
}

// catchUp sends the outbox's events after s.last, up to seq upTo (0: up to
// the latest), at most tote.ReplayBound of them: the callers check that the
// distance is within the bound.
func (s *tableStream) catchUp(ctx context.Context, upTo int64) error {
	evs, err := s.store.EventsAfter(ctx, s.table, s.last, tote.ReplayBound)
	if err != nil {
		return err
	}
	for _, e := range evs {
		if upTo > 0 && e.Seq > upTo {
			return nil
		}
		if err := s.send(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

// snapshot sends v as a TableSnapshot.
func (s *tableStream) snapshot(ctx context.Context, v tote.TableView) error {
	jp, err := s.api.Jackpot(ctx)
	if err != nil {
		return err
	}
	if err := s.emit(ctx, v.Seq, true, toModelSnapshot(v, jp)); err != nil {
		return err
	}
	s.last = v.Seq
	return nil
}

// send forwards e unless it was sent already.
func (s *tableStream) send(ctx context.Context, e tote.TableEvent) error {
	if e.Seq <= s.last {
		return nil
	}
	m := toModelTableEvent(e)
	if m != nil {
		if err := s.emit(ctx, e.Seq, false, m); err != nil {
			return err
		}
	}
	s.last = e.Seq
	return nil
}

// emit hands one event to gqlgen, or, with a render tap, to the tap, which
// renders it once per document and seq for every subscriber.
func (s *tableStream) emit(ctx context.Context, seq int64, snapshot bool, m model.TableEvent) error {
	if s.tap != nil {
		select {
		case s.tap.items <- tapItem{seq: seq, snapshot: snapshot, event: m}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	select {
	case s.out <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// MyEvents resolves Subscription.myEvents: the viewer's bets accepted and
// settled, balance changes, and Casino Hold'em hand updates. Each message
// names what changed; the current bet or hand is loaded when forwarded.
func (a *ToteAPI) MyEvents(ctx context.Context) (<-chan model.UserEvent, error) {
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
	out := make(chan model.UserEvent, 1)
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
func (a *ToteAPI) userEvent(ctx context.Context, svc *tote.Service, userID int64, msg []byte) model.UserEvent {
	ue, err := event.DecodeUserEvent(msg)
	if err != nil {
		return nil
	}
	switch ue.Type {
	case event.BetAccepted, event.BetSettled:
		b, err := svc.Store().Bet(ctx, ue.BetID)
		if err != nil || b.UserID != userID {
			return nil
		}
		if ue.Type == event.BetAccepted {
			return &model.BetAccepted{At: ue.At, Bet: toModelBet(b)}
		}
		return &model.BetSettled{At: ue.At, Bet: toModelBet(b)}
	case event.BalanceChanged:
		return &model.BalanceChanged{At: ue.At, Balance: model.Money(ue.Balance)}
	case event.HoldemUpdated:
		if a.HoldemHand == nil {
			return nil
		}
		h, err := a.HoldemHand(ctx, userID, ue.HoldemHandID)
		if err != nil || h == nil {
			if err != nil && a.Log != nil && ctx.Err() == nil {
				a.Log.WarnContext(ctx, "holdem hand not loaded for an event", "hand", ue.HoldemHandID, "err", err)
			}
			return nil
		}
		return &model.HoldemHandUpdated{At: ue.At, Hand: h}
	}
	return nil
}
