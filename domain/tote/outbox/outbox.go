// Package outbox is the plumbing shared by the dealer's steps, the
// settlement and the admin actions: a step's table events are appended to
// the outbox in its transaction and published after the commit, with the
// players' private events, by a Relay. It also holds the Stats every part
// of the totalizator counts into, since the Relay counts the draws.
package outbox

import (
	"cmp"
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// Step is what one transaction of the dealer or of an admin action
// produced: the draw as stored, the events to append (then appended, with
// their Seq), the pools they published and the players to notify.
type Step struct {
	Draw   *tote.Draw
	Table  *tote.Table
	Events []tote.TableEvent
	Pools  []tote.PoolView
	Notes  []Note
	// Settled is a draw whose bets were all settled in the step: after the
	// commit each bet's player hears BET_SETTLED, read back in pages so
	// that no step holds a note per bet.
	Settled int64
	// SettledBets are the Settled draw's bets, pool by pool, when the
	// settlement read them on its pass over the draw (the database stores):
	// the relay then announces them without reading them back. Empty: it
	// reads them back a page at a time.
	SettledBets []tote.BetOwner
}

// Note is a private event for one player, published after commit.
type Note struct {
	UserID ids.UserID
	Event  event.UserEvent
}

// Append appends st's events to the outbox in tx, replacing each with the
// stored one (Seq set).
func Append(ctx context.Context, tx tote.Tx, st *Step) error {
	for i, e := range st.Events {
		stored, err := tx.AppendEvent(ctx, e)
		if err != nil {
			return err
		}
		st.Events[i] = stored
	}
	return nil
}

// Stats counts what the totalizator's parts did, for metrics: one value
// shared by the service, its intake, the relay and the dealers.
type Stats struct {
	BetsAccepted atomic.Int64
	DrawsSettled atomic.Int64
	DrawsVoided  atomic.Int64
	StepFailures atomic.Int64
	// Voids counts DrawsVoided by kind, index of tote.VoidKinds.
	Voids [5]atomic.Int64
}

// countVoid counts a published void of kind k.
func (st *Stats) countVoid(k tote.VoidKind) {
	for i, vk := range tote.VoidKinds {
		if vk == k {
			st.Voids[i].Add(1)
		}
	}
}

// BetOwners is what the Relay reads back of a settled draw: its bets'
// players, a page at a time (tote.Store's read of the same name).
type BetOwners interface {
	PoolBetOwners(ctx context.Context, drawID int64, round parimutuel.Round, market parimutuel.Market, afterID int64, limit int) ([]tote.BetOwner, error)
}

// Relay publishes committed steps. It holds no state of its own, so any
// number of them may share a publisher.
type Relay struct {
	store BetOwners
	pub   event.Publisher
	clock tote.Clock
	log   *slog.Logger
	stats *Stats
}

// NewRelay returns the relay publishing to pub, reading settled bets from
// store and counting into stats; a nil clock is the wall clock, a nil log
// discards, nil stats are its own.
func NewRelay(store BetOwners, pub event.Publisher, clock tote.Clock, log *slog.Logger, stats *Stats) *Relay {
	if clock == nil {
		clock = tote.RealClock{}
	}
	return &Relay{store: store, pub: pub, clock: clock, log: cmp.Or(log, slog.New(slog.DiscardHandler)), stats: cmp.Or(stats, &Stats{})}
}

// Publish publishes a committed step's table events, then its players'
// events. A failed publish is logged: subscribers catch up from the outbox.
func (r *Relay) Publish(ctx context.Context, st Step) {
	r.PublishTable(ctx, st.Events)
	if st.Settled != 0 {
		r.publishSettledBets(ctx, st.Settled, st.Events, st.SettledBets)
	}
	for _, n := range st.Notes {
		if err := r.pub.Publish(ctx, event.UserTopic(n.UserID), n.Event.Encode()); err != nil {
			r.log.WarnContext(ctx, "user event not published", "user", n.UserID, "type", n.Event.Type, "err", err)
		}
	}
}

// PublishTable publishes a step's table events as one batch: in process,
// each subscriber receives the events committed together in one go.
func (r *Relay) PublishTable(ctx context.Context, evs []tote.TableEvent) {
	if len(evs) == 0 {
		return
	}
	msgs := make([]event.Message, 0, len(evs))
	for _, e := range evs {
		switch e.Type {
		case tote.EventDrawSettled:
			r.stats.DrawsSettled.Add(1)
		case tote.EventDrawVoided:
			r.stats.DrawsVoided.Add(1)
			if e.Result != nil && e.Result.VoidDetail != nil {
				r.stats.countVoid(e.Result.VoidDetail.Kind)
			}
		}
		msgs = append(msgs, event.Message{Topic: event.TableTopic(e.TableID), Data: e.Encode()})
	}
	if err := event.PublishAll(ctx, r.pub, msgs); err != nil {
		r.log.WarnContext(ctx, "table events not published", "table", evs[0].TableID, "seq", evs[0].Seq, "events", len(evs), "err", err)
	}
}

// settledPage is how many bets' BET_SETTLED go out in one batch.
const settledPage = 2000

// publishSettledBets tells every player of the settled draw drawID that
// each of their bets was settled, a page per batch (one round trip on
// Redis): the pages of known (the settlement's own read of the bets) or,
// when it is empty, the bets read back pool by pool a page at a time, the
// next page read while the one before is encoded and published (at most
// two pages in hand).
func (r *Relay) publishSettledBets(ctx context.Context, drawID int64, evs []tote.TableEvent, known []tote.BetOwner) {
	at := r.clock.Now()
	for _, e := range evs {
		if e.DrawID == drawID && (e.Type == tote.EventDrawSettled || e.Type == tote.EventDrawVoided) {
			at = e.At
		}
	}
	pages := make(chan []tote.BetOwner, 1)
	go func() {
		defer close(pages)
		if len(known) > 0 {
			for start := 0; start < len(known); start += settledPage {
				pages <- known[start:min(len(known), start+settledPage)]
			}
			return
		}
		for _, k := range tote.DrawPools() {
			var after int64
			for {
				owners, err := r.store.PoolBetOwners(ctx, drawID, k.Round, k.Market, after, settledPage)
				if err != nil {
					r.log.WarnContext(ctx, "settled bets not announced", "draw", drawID, "after", after, "err", err)
					return
				}
				if len(owners) > 0 {
					pages <- owners
					after = owners[len(owners)-1].BetID
				}
				if len(owners) < settledPage {
					break
				}
			}
		}
	}()
	msgs := make([]event.Message, 0, settledPage)
	topics := map[ids.UserID]string{} // a player has many bets in a draw
	for owners := range pages {
		msgs = msgs[:0]
		// One buffer holds the page's events; each message keeps its own
		// capacity-limited slice of it, never written again.
		buf := make([]byte, 0, len(owners)*64)
		for _, o := range owners {
			topic, ok := topics[o.UserID]
			if !ok {
				topic = event.UserTopic(o.UserID)
				topics[o.UserID] = topic
			}
			start := len(buf)
			buf = event.UserEvent{Type: event.BetSettled, At: at, BetID: o.BetID}.AppendEncoded(buf)
			msgs = append(msgs, event.Message{Topic: topic, Data: buf[start:len(buf):len(buf)]})
		}
		if err := event.PublishAll(ctx, r.pub, msgs); err != nil {
			r.log.WarnContext(ctx, "settled bets not published", "draw", drawID, "after", owners[len(owners)-1].BetID, "err", err)
		}
	}
}
