package protection

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// SessionIdle is how long without a stake ends a session of play: the next
// stake starts a new one.
const SessionIdle = 30 * time.Minute

// Session is a player's current run of play, kept by the ledger's guard in
// the money's transaction: it starts at the first stake after SessionIdle
// without one and adds up the stakes and the returns within it.
type Session struct {
	UserID int64
	// No numbers the player's sessions; it changes when a new one starts.
	No         int64
	StartedAt  time.Time
	LastPlayAt time.Time
	Stakes     money.Amount
	Returns    money.Amount
	// Checks counts the reality checks already sent for this session.
	Checks int
}

// ActiveAt reports whether the session is still going at now.
func (s Session) ActiveAt(now time.Time) bool {
	return s.No > 0 && now.Sub(s.LastPlayAt) <= SessionIdle
}

// Play applies flow f at now: a stake extends the session (or starts a new
// one after SessionIdle), a return counts within a session still going. ok
// is false when nothing changes.
func (s Session) Play(f Flow, now time.Time) (next Session, ok bool) {
	switch f.Kind {
	case FlowStake:
		if !s.ActiveAt(now) {
			s = Session{UserID: f.UserID, No: s.No + 1, StartedAt: now}
		}
		s.Stakes += f.Amount
		s.LastPlayAt = now
		return s, true
	case FlowReturn:
		if !s.ActiveAt(now) {
			return s, false
		}
		s.Returns += f.Amount
		return s, true
	}
	return s, false
}

// Due reports whether a reality check is owed at now: one per full
// interval of a session still going.
func (s Session) Due(now time.Time, interval time.Duration) bool {
	return interval > 0 && s.ActiveAt(now) && !now.Before(s.StartedAt.Add(time.Duration(s.Checks+1)*interval))
}

// Reminder is a reality check: how long the session has lasted and how it
// stands.
type Reminder struct {
	UserID    int64
	StartedAt time.Time
	At        time.Time
	Elapsed   time.Duration
	Stakes    money.Amount
	Returns   money.Amount
}

// Net is returns minus stakes: the session's result for the player.
func (r Reminder) Net() money.Amount { return r.Returns - r.Stakes }

// SessionStore is what reality checks need of a store.
type SessionStore interface {
	// ActiveSessions lists the sessions with a stake since since.
	ActiveSessions(ctx context.Context, since time.Time) ([]Session, error)
	// ClaimCheck raises the session's Checks from s.Checks to s.Checks+1
	// if it is still session s.No at that count, and reports whether this
	// caller won (so one replica sends each check).
	ClaimCheck(ctx context.Context, s Session) (bool, error)
}

// DueRealityChecks claims and returns the reality checks owed at now for
// sessions of play, one per interval (the REALITY_CHECK_INTERVAL setting).
func (s *Service) DueRealityChecks(ctx context.Context, interval time.Duration) ([]Reminder, error) {
	store, ok := s.store.(SessionStore)
	if !ok {
		return nil, errs.E(errs.Internal, "the protection store keeps no sessions")
	}
	now := s.now()
	sessions, err := store.ActiveSessions(ctx, now.Add(-SessionIdle))
	if err != nil {
		return nil, err
	}
	var out []Reminder
	for _, ses := range sessions {
		if !ses.Due(now, interval) {
			continue
		}
		won, err := store.ClaimCheck(ctx, ses)
		if err != nil {
			return out, err
		}
		if won {
			out = append(out, Reminder{UserID: ses.UserID, StartedAt: ses.StartedAt, At: now,
				Elapsed: now.Sub(ses.StartedAt), Stakes: ses.Stakes, Returns: ses.Returns})
		}
	}
	return out, nil
}
