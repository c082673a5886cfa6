package app

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/persistence/usereventdb"
)

// userEventLog is the publisher every area's user events go out through:
// a message on a user's topic is appended to the user's stream first
// (usereventdb: its seq given, kept EVENT_RETENTION) and published with
// its seq, so myEvents(afterSeq:) resumes with nothing missed. Other
// topics pass through untouched. If the log cannot record an event it is
// still published live (without a seq) and the failure is logged: a
// client that was online sees it, one that was not reads the state again.
type userEventLog struct {
	next  event.Publisher
	store *usereventdb.Repo
	warn  func(msg string, args ...any)
}

var _ event.BatchPublisher = (*userEventLog)(nil)

// Publish implements event.Publisher.
func (l *userEventLog) Publish(ctx context.Context, topic string, data []byte) error {
	msgs := l.record(ctx, []event.Message{{Topic: topic, Data: data}})
	return l.next.Publish(ctx, msgs[0].Topic, msgs[0].Data)
}

// PublishBatch implements event.BatchPublisher: one append for the
// batch's user events, then the batch as one.
func (l *userEventLog) PublishBatch(ctx context.Context, msgs []event.Message) error {
	return event.PublishAll(ctx, l.next, l.record(ctx, msgs))
}

// loggedPrefix starts the encoding of an event that has its seq
// (event.UserEvent.Encode writes the seq first, and only when it is set).
var loggedPrefix = []byte(`{"seq":`)

// record appends msgs' user events that have no seq yet and returns msgs
// with each one's seq set.
func (l *userEventLog) record(ctx context.Context, msgs []event.Message) []event.Message {
	var pending []usereventdb.Pending
	var at []int
	for i, m := range msgs {
		id, ok := strings.CutPrefix(m.Topic, "user:")
		if !ok {
			continue
		}
		userID, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			continue
		}
		if bytes.HasPrefix(m.Data, loggedPrefix) {
			// Appended already, with its seq, in the transaction that
			// made it (the bet batch: totedb's LogUserEvents).
			continue
		}
		ue, err := event.DecodeUserEvent(m.Data)
		if err != nil {
			continue
		}
		pending = append(pending, usereventdb.Pending{UserID: userID, Event: ue})
		at = append(at, i)
	}
	if len(pending) == 0 {
		return msgs
	}
	done, err := l.store.Append(ctx, pending)
	if err != nil {
		l.warn("user events not logged: published live only", "events", len(pending), "err", err)
		return msgs
	}
	out := make([]event.Message, len(msgs))
	copy(out, msgs)
	for j, i := range at {
		out[i].Data = done[j].Event.Encode()
	}
	return out
}

// startUserEventLog wraps the broker in the user event log and prunes the
// log after EVENT_RETENTION.
func (a *App) startUserEventLog() {
	store := usereventdb.New(a.db)
	log := a.log.With("component", "user-events")
	a.userEvents = store
	a.userPub = &userEventLog{next: a.broker, store: store, warn: log.Warn}
	a.goEvery("user-events-pruner", a.cfg.EventPruneInterval, nil, func(ctx context.Context) {
		if _, err := store.Prune(ctx, time.Now().Add(-a.cfg.EventRetention)); err != nil && ctx.Err() == nil {
			log.Warn("user events not pruned", "err", err)
		}
	})
}
