package graph

import (
	"context"
	"errors"
	"sync"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/graph/model"
)

// tableSubBuffer is a table subscriber's buffer: a client whose buffer
// fills is dropped (its stream ends) and reconnects with its last seq.
const tableSubBuffer = 128

// TableEvents resolves Subscription.tableEvents. The protocol: subscribe to
// the read model's decoded events first; then, without afterSeq (or with
// one more than readmodel.ReplayBound events behind), send one TableSnapshot of
// the read model's view; otherwise replay the outbox after afterSeq. Then
// forward live events, dropping any already sent (seq <= last) and filling
// a gap (a live seq beyond last+1) from the outbox, or with a fresh
// snapshot when the gap is longer than the replay bound. The client
// therefore sees every seq once, in order (a snapshot standing for the
// events it folds). When this replica drops a slow client the stream ends;
// the client reconnects with the last seq it received.
//
// Under the handler's sharedRender the stream runs in the transport's own
// goroutine (renderTap.pull); otherwise a goroutine feeds the returned
// channel.
func (a *ToteAPI) TableEvents(ctx context.Context, tableID string, afterSeq *int64) (<-chan model.TableEvent, error) {
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	sub := a.live.SubscribeQueue(n, tableSubBuffer)
	lt, err := a.live.Lookup(ctx, n)
	if err != nil {
		sub.Close()
		return nil, err
	}
	s := &tableStream{api: a, store: a.svc, live: a.live, table: n, sub: sub, start: lt}
	if afterSeq != nil {
		t, err := a.svc.Table(ctx, n)
		if err != nil {
			sub.Close()
			return nil, err
		}
		if *afterSeq < 0 || *afterSeq > t.LastSeq {
			sub.Close()
			return nil, errs.R(errs.Invalid, ReasonInvalidSeq, "afterSeq %d is not in the table's stream (its last event is %d)", *afterSeq, t.LastSeq)
		}
		s.last = *afterSeq
		s.replay = t.LastSeq-*afterSeq <= readmodel.ReplayBound
		if s.replay {
			// Events pruned from the outbox (EVENT_RETENTION) cannot be
			// replayed: the snapshot stands for them.
			switch err := a.svc.ResumeFrom(ctx, n, *afterSeq); {
			case errs.ReasonOf(err) == tote.ReasonEventsPruned:
				s.replay = false
			case err != nil:
				sub.Close()
				return nil, err
			}
		}
	}
	if tap := tapFrom(ctx); tap != nil {
		context.AfterFunc(ctx, sub.Close)
		tap.table = n
		tap.pull = func(ctx context.Context) (tapItem, bool) {
			it, err := s.next(ctx)
			if err != nil {
				s.ended(ctx, err)
				return tapItem{}, false
			}
			return it, true
		}
		tap.pullNow = func(ctx context.Context) (tapItem, bool, bool) {
			it, err := s.nextNow(ctx)
			if errors.Is(err, errWouldWait) {
				return tapItem{}, true, false
			}
			if err != nil {
				s.ended(ctx, err)
				return tapItem{}, false, true
			}
			return it, true, true
		}
		return tap.forward, nil
	}
	out := make(chan model.TableEvent, 1)
	go func() {
		defer close(out)
		for {
			it, err := s.next(ctx)
			if err != nil {
				s.ended(ctx, err)
				return
			}
			select {
			case out <- it.model():
			case <-ctx.Done():
				s.ended(ctx, ctx.Err())
				return
			}
		}
	}()
	return out, nil
}

// tableStream is one client's table subscription: next yields its events.
type tableStream struct {
	api    *ToteAPI
	store  *service.Service
	live   *readmodel.Model
	table  int64
	sub    *event.Sub[*tote.TableEvent]
	start  *readmodel.LiveTable // the read model's state at subscription
	last   int64                // the seq last queued (a snapshot's seq counts)
	replay bool                 // start by replaying the outbox after last
	begun  bool
	queue  []tapItem // from head on: what is still to send
	head   int
	// arrived is where the live events taken from sub go before they are
	// queued (kept small between bursts).
	arrived []*tote.TableEvent
}

// queueKeep is the capacity of a stream's queue kept once it is empty: a
// replay's (up to readmodel.ReplayBound items) is let go.
const queueKeep = 8

// errWouldWait is nextNow's answer when next would wait for an event.
var errWouldWait = errors.New("no event ready")

// next returns the next event to send, or why the stream ended.
func (s *tableStream) next(ctx context.Context) (tapItem, error) {
	return s.nextOf(ctx, true)
}

// nextNow is next without waiting: errWouldWait when nothing is ready
// (the stream goes on; nothing was lost).
func (s *tableStream) nextNow(ctx context.Context) (tapItem, error) {
	return s.nextOf(ctx, false)
}

func (s *tableStream) nextOf(ctx context.Context, wait bool) (tapItem, error) {
	for s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
		if cap(s.queue) > queueKeep {
			s.queue = nil
		}
		if !s.begun {
			s.begun = true
			var err error
			if s.replay {
				err = s.catchUp(ctx, 0)
			} else {
				err = s.snapshot(ctx, s.start.View)
			}
			s.start = nil // the join's state: not kept for the stream's life
			if err != nil {
				return tapItem{}, err
			}
			continue
		}
		if err := s.takeLive(ctx, wait); err != nil {
			return tapItem{}, err
		}
	}
	// The slot is cleared so that the queue's array does not keep the
	// event (or the join's snapshot) alive after it was sent.
	it := s.queue[s.head]
	s.queue[s.head] = tapItem{}
	s.head++
	return it, nil
}

// takeLive queues the live events that arrived, waiting for some if wait
// (else errWouldWait when none have). Events that arrived before the
// subscription ended are queued before its end is told.
func (s *tableStream) takeLive(ctx context.Context, wait bool) error {
	for {
		s.arrived = s.sub.Take(s.arrived[:0])
		if len(s.arrived) > 0 {
			for i, e := range s.arrived {
				s.arrived[i] = nil // not kept alive by the array
				if err := s.live1(ctx, e); err != nil {
					return err
				}
			}
			if cap(s.arrived) > queueKeep {
				s.arrived = nil
			}
			return nil
		}
		if !wait && ctx.Err() == nil {
			return errWouldWait
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.sub.Ready():
		case <-s.sub.Done():
			if s.sub.Waiting() > 0 {
				continue
			}
			if err := s.sub.Err(); err != nil {
				return err
			}
			return errors.New("subscription closed")
		}
	}
}

// live1 queues live event e after what it reveals was missed.
func (s *tableStream) live1(ctx context.Context, e *tote.TableEvent) error {
	if e.Seq <= s.last {
		return nil
	}
	if e.Seq > s.last+1 {
		if e.Seq-s.last > readmodel.ReplayBound {
			// Too far behind to replay: the read model has applied e, so
			// its view is at e.Seq or later.
			cur, err := s.live.Lookup(ctx, s.table)
			if err != nil {
				return err
			}
			return s.snapshot(ctx, cur.View)
		}
		if err := s.catchUp(ctx, e.Seq-1); err != nil {
			return err
		}
	}
	s.send(e)
	return nil
}

// ended closes the subscription and logs why, unless the client left.
func (s *tableStream) ended(ctx context.Context, err error) {
	s.sub.Close()
	if ctx.Err() == nil {
		s.api.log.InfoContext(ctx, "table stream ended", "table", s.table, "last", s.last, "err", err)
	}
}

// catchUp queues the outbox's events after s.last, up to seq upTo (0: up
// to the latest), at most readmodel.ReplayBound of them: the callers check that
// the distance is within the bound. When the retained outbox starts after
// s.last+1 (pruned), it queues a snapshot instead.
func (s *tableStream) catchUp(ctx context.Context, upTo int64) error {
	evs, err := s.store.EventsAfter(ctx, s.table, s.last, readmodel.ReplayBound)
	if err != nil {
		return err
	}
	if len(evs) > 0 && evs[0].Seq > s.last+1 {
		// The outbox no longer holds the events after s.last (pruned):
		// the read model's view stands for them.
		cur, err := s.live.Lookup(ctx, s.table)
		if err != nil {
			return err
		}
		return s.snapshot(ctx, cur.View)
	}
	for i := range evs {
		if upTo > 0 && evs[i].Seq > upTo {
			return nil
		}
		s.send(&evs[i])
	}
	return nil
}

// snapshot queues v as a TableSnapshot.
func (s *tableStream) snapshot(ctx context.Context, v readmodel.TableView) error {
	jp, err := s.api.currentJackpot(ctx)
	if err != nil {
		return err
	}
	s.queue = append(s.queue, tapItem{seq: v.Seq, snapshot: true, event: toModelSnapshot(v, &jp)})
	s.last = v.Seq
	return nil
}

// send queues e unless it was queued already. e is not converted to the
// schema's type here: with sharedRender only the subscriber that renders
// it for its document does that.
func (s *tableStream) send(e *tote.TableEvent) {
	if e.Seq <= s.last {
		return
	}
	if modelled(e.Type) {
		s.queue = append(s.queue, tapItem{seq: e.Seq, live: e})
	}
	s.last = e.Seq
}

// modelledTypes caches modelled's answers.
var modelledTypes sync.Map // tote.EventType → bool

// modelled reports whether events of type t have a schema type
// (toModelTableEvent gives one); those without are not sent.
func modelled(t tote.EventType) bool {
	if v, ok := modelledTypes.Load(t); ok {
		return v.(bool)
	}
	ok := toModelTableEvent(tote.TableEvent{Type: t}) != nil
	modelledTypes.Store(t, ok)
	return ok
}
