package graph

import (
	"context"
	"fmt"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
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
	sources map[string]UserEventSource
}

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

// NewUserEventsAPI returns the myEvents stream over hub's user topics, each
// message type converted by the one source that claims it. Two sources
// claiming one type is a wiring mistake: it panics.
func NewUserEventsAPI(hub *event.Hub, sources ...UserEventSource) *UserEventsAPI {
	a := &UserEventsAPI{hub: hub, sources: map[string]UserEventSource{}}
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
// its source loads the current bet or hand when it is forwarded.
func (a *UserEventsAPI) MyEvents(ctx context.Context) (<-chan model.UserEvent, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	userID := ids.UserID(v.UserID)
	sub := a.hub.Subscribe(event.UserTopic(userID), userSubBuffer)
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
			m := a.convert(ctx, userID, msg)
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

// convert decodes one user-topic message and hands it to its source; nil
// when there is nothing to forward.
func (a *UserEventsAPI) convert(ctx context.Context, userID ids.UserID, msg []byte) model.UserEvent {
	ue, err := event.DecodeUserEvent(msg)
	if err != nil {
		return nil
	}
	s, ok := a.sources[ue.Type]
	if !ok {
		return nil
	}
	return s.UserEvent(ctx, userID, ue)
}
