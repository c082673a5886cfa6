package graph

import (
	"context"
	"fmt"
	"reflect"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// userSubBuffer is a myEvents subscriber's buffer: a client whose buffer
// fills is dropped (its stream ends) and subscribes again.
const userSubBuffer = 64

// UserEventsAPI resolves Subscription.myEvents: the viewer's own events of
// every area (bets, wallet, Casino Hold'em, reality checks) in one stream,
// as the schema's UserEvent union has them. A user-topic message only names
// what changed; the area it belongs to (its UserEventSource) turns it into
// the API's event, so this stream knows no area's rules and a new area is
// one more source.
type UserEventsAPI struct {
	hub     *event.Hub
	log     UserEventLog
	sources map[string]UserEventSource
}

// UserEventLog is the kept stream of every user's events
// (usereventdb.Repo): what myEvents(afterSeq:) replays.
type UserEventLog interface {
	// After returns up to limit of userID's events after afterSeq, in order.
	After(ctx context.Context, userID, afterSeq int64, limit int) ([]event.UserEvent, error)
	// Bounds reports userID's oldest kept seq (0 when none) and last seq.
	Bounds(ctx context.Context, userID int64) (oldest, last int64, err error)
}

// replayPage is how many kept events one read of a replay takes.
const replayPage = 200

// A UserEventSource turns the user-topic messages of one area into the
// API's user events.
type UserEventSource interface {
	// UserEventTypes are the message types (event.BetAccepted, ...) it
	// converts.
	UserEventTypes() []string
	// UserEvent converts e, a message on userID's topic, loading what it
	// names as the user may see it now; nil when there is nothing to
	// forward.
	UserEvent(ctx context.Context, userID ids.UserID, e event.UserEvent) model.UserEvent
}

// NewUserEventsAPI returns the myEvents stream over hub's user topics,
// resumable from log (nil: live only), each message type converted by the
// one source that claims it. Two sources claiming one type is a wiring
// mistake: it panics.
func NewUserEventsAPI(hub *event.Hub, log UserEventLog, sources ...UserEventSource) *UserEventsAPI {
	a := &UserEventsAPI{hub: hub, sources: map[string]UserEventSource{}}
	if log != nil && !isNilLog(log) {
		a.log = log
	}
	for _, s := range sources {
		for _, t := range s.UserEventTypes() {
			if _, dup := a.sources[t]; dup {
				panic(fmt.Sprintf("graph: two sources of user event %s", t))
			}
			a.sources[t] = s
		}
	}
	return a
}

// MyEvents resolves Subscription.myEvents. Each message names what changed;
// its source loads the current bet or hand when it is forwarded. With
// afterSeq the kept events after it come first, then live ones: the live
// subscription is taken before the replay reads, and a live event the
// replay sent already (by seq) is skipped, so nothing falls between.
func (a *UserEventsAPI) MyEvents(ctx context.Context, afterSeq *int64) (<-chan model.UserEvent, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	userID := ids.UserID(v.UserID)
	sub := a.hub.Subscribe(event.UserTopic(userID), userSubBuffer)
	from := int64(-1) // no replay
	if afterSeq != nil {
		if from, err = a.checkResume(ctx, v.UserID, *afterSeq); err != nil {
			sub.Close()
			return nil, err
		}
	}
	out := make(chan model.UserEvent, 1)
	go func() {
		defer close(out)
		defer sub.Close()
		send := func(ue event.UserEvent) bool {
			m := a.convertEvent(ctx, userID, ue)
			if m == nil {
				return true
			}
			select {
			case out <- m:
				return true
			case <-ctx.Done():
				return false
			}
		}
		last := from
		if from >= 0 {
			for {
				page, err := a.log.After(ctx, v.UserID, last, replayPage)
				if err != nil {
					return // the client resubscribes with the last seq it has
				}
				for _, ue := range page {
					if !send(ue) {
						return
					}
					last = ue.Seq
				}
				if len(page) < replayPage {
					break
				}
			}
		}
		for {
			var msg []byte
			var ok bool
			select {
			case <-ctx.Done():
				return
			case msg, ok = <-sub.C:
				if !ok {
					return // dropped as slow, or shutting down: the client resumes with afterSeq
				}
			}
			ue, err := event.DecodeUserEvent(msg)
			if err != nil {
				continue
			}
			if ue.Seq == 0 { // not logged: live only
				if !send(ue) {
					return
				}
				continue
			}
			if last < 0 {
				last = ue.Seq - 1 // a fresh subscription counts from its first event
			}
			if ue.Seq <= last {
				continue // sent already (replayed, or filled in below)
			}
			if ue.Seq > last+1 && a.log != nil {
				// Two publishes overtook each other: the events between
				// are committed (a user's commit in seq order), so they
				// are read from the log, in order, up to this one.
				if last, ok = a.fill(ctx, v.UserID, last, ue.Seq, send); !ok {
					return
				}
				continue
			}
			if !send(ue) {
				return
			}
			last = ue.Seq
		}
	}()
	return out, nil
}

// fill sends userID's logged events after last up to upTo and returns the
// last one sent; false when the client went away.
func (a *UserEventsAPI) fill(ctx context.Context, userID, last, upTo int64, send func(event.UserEvent) bool) (int64, bool) {
	for last < upTo {
		page, err := a.log.After(ctx, userID, last, int(min(upTo-last, replayPage)))
		if err != nil || len(page) == 0 {
			return last, ctx.Err() == nil
		}
		for _, ue := range page {
			if !send(ue) {
				return last, false
			}
			last = ue.Seq
		}
	}
	return last, true
}

// checkResume checks afterSeq against userID's kept stream and returns
// where the replay starts.
func (a *UserEventsAPI) checkResume(ctx context.Context, userID, afterSeq int64) (int64, error) {
	if a.log == nil {
		return 0, errs.R(errs.Invalid, tote.ReasonEventsPruned, "this server keeps no user events to resume from: subscribe without afterSeq")
	}
	oldest, last, err := a.log.Bounds(ctx, userID)
	if err != nil {
		return 0, err
	}
	switch {
	case afterSeq < 0 || afterSeq > last:
		return 0, errs.R(errs.Invalid, ReasonInvalidSeq, "afterSeq %d is not a seq of your stream (its last is %d): subscribe without it", afterSeq, last)
	case afterSeq < last && (oldest == 0 || afterSeq < oldest-1):
		return 0, errs.R(errs.Invalid, tote.ReasonEventsPruned, "the events after seq %d are no longer kept: read your state again and subscribe without afterSeq", afterSeq)
	}
	return afterSeq, nil
}

// convertEvent hands ue to its source, nil when there is nothing to
// forward, and stamps the API event with ue's seq.
func (a *UserEventsAPI) convertEvent(ctx context.Context, userID ids.UserID, ue event.UserEvent) model.UserEvent {
	s, ok := a.sources[ue.Type]
	if !ok {
		return nil
	}
	m := s.UserEvent(ctx, userID, ue)
	if m == nil || ue.Seq == 0 {
		return m
	}
	seq := ue.Seq
	switch m := m.(type) {
	case *model.BetAccepted:
		m.Seq = &seq
	case *model.BetSettled:
		m.Seq = &seq
	case *model.BalanceChanged:
		m.Seq = &seq
	case *model.HoldemHandUpdated:
		m.Seq = &seq
	case *model.RealityCheckReminder:
		m.Seq = &seq
	}
	return m
}

// isNilLog reports whether log is a typed nil (a store not built).
func isNilLog(log UserEventLog) bool {
	v := reflect.ValueOf(log)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
