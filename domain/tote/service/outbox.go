package service

import (
	"github.com/pokertote/pokertote/domain/tote"

	"context"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
)

// The outbox plumbing shared by the dealer's steps and the admin actions:
// a step's table events are appended to the outbox in its transaction and
// published after the commit, with the players' private events.

// stepResult is what one transaction of the dealer or of an admin action
// produced: the draw as stored, the events to append (then appended, with
// their Seq), the pools they published and the players to notify.
type stepResult struct {
	draw   *tote.Draw
	table  *tote.Table
	events []tote.TableEvent
	pools  []tote.PoolView
	notes  []userNote
	// settled is a draw whose bets were all settled in the step: after the
	// commit each bet's player hears BET_SETTLED, read back in pages so
	// that no step holds a note per bet.
	settled int64
}

// userNote is a private event for one player, published after commit.
type userNote struct {
	userID ids.UserID
	ev     event.UserEvent
}

// appendEvents appends res's events to the outbox, replacing each with the
// stored one (Seq set).
func appendEvents(ctx context.Context, tx tote.Tx, res *stepResult) error {
	for i, e := range res.events {
		stored, err := tx.AppendEvent(ctx, e)
		if err != nil {
			return err
		}
		res.events[i] = stored
	}
	return nil
}

// publishStep publishes a committed step's table events, then its players'
// events. A failed publish is logged: subscribers catch up from the outbox.
func (s *Service) publishStep(ctx context.Context, res stepResult) {
	s.publishTable(ctx, res.events)
	if res.settled != 0 {
		s.publishSettledBets(ctx, res.settled, res.events)
	}
	for _, n := range res.notes {
		if err := s.pub.Publish(ctx, event.UserTopic(n.userID), n.ev.Encode()); err != nil {
			s.log.WarnContext(ctx, "user event not published", "user", n.userID, "type", n.ev.Type, "err", err)
		}
	}
}

// publishTable publishes a step's table events as one batch: in process,
// each subscriber receives the events committed together in one go.
func (s *Service) publishTable(ctx context.Context, evs []tote.TableEvent) {
	if len(evs) == 0 {
		return
	}
	msgs := make([]event.Message, 0, len(evs))
	for _, e := range evs {
		switch e.Type {
		case tote.EventDrawSettled:
			s.stats.DrawsSettled.Add(1)
		case tote.EventDrawVoided:
			s.stats.DrawsVoided.Add(1)
			if e.Result != nil && e.Result.VoidDetail != nil {
				s.stats.countVoid(e.Result.VoidDetail.Kind)
			}
		}
		msgs = append(msgs, event.Message{Topic: event.TableTopic(e.TableID), Data: e.Encode()})
	}
	if err := event.PublishAll(ctx, s.pub, msgs); err != nil {
		s.log.WarnContext(ctx, "table events not published", "table", evs[0].TableID, "seq", evs[0].Seq, "events", len(evs), "err", err)
	}
}

// settledPage is how many bets' BET_SETTLED go out in one batch.
const settledPage = 2000

// publishSettledBets tells every player of the settled draw drawID that
// each of their bets was settled, reading the bets back pool by pool a
// page at a time and publishing a page per batch (one round trip on
// Redis).
func (s *Service) publishSettledBets(ctx context.Context, drawID int64, evs []tote.TableEvent) {
	at := s.clock.Now()
	for _, e := range evs {
		if e.DrawID == drawID && (e.Type == tote.EventDrawSettled || e.Type == tote.EventDrawVoided) {
			at = e.At
		}
	}
	msgs := make([]event.Message, 0, settledPage)
	for _, k := range tote.DrawPools() {
		var after int64
		for {
			owners, err := s.store.PoolBetOwners(ctx, drawID, k.Round, k.Market, after, settledPage)
			if err != nil {
				s.log.WarnContext(ctx, "settled bets not announced", "draw", drawID, "after", after, "err", err)
				return
			}
			msgs = msgs[:0]
			for _, o := range owners {
				msgs = append(msgs, event.Message{Topic: event.UserTopic(o.UserID), Data: event.UserEvent{Type: event.BetSettled, At: at, BetID: o.BetID}.Encode()})
				after = o.BetID
			}
			if err := event.PublishAll(ctx, s.pub, msgs); err != nil {
				s.log.WarnContext(ctx, "settled bets not published", "draw", drawID, "after", after, "err", err)
			}
			if len(owners) < settledPage {
				break
			}
		}
	}
}
