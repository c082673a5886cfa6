package app

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
)

// startRealityChecks sends each player a REALITY_CHECK on myEvents every
// REALITY_CHECK_INTERVAL of a session of play. Every replica sweeps; the
// store's claim makes sure each reminder goes out once.
func (a *App) startRealityChecks() {
	interval := a.cfg.RealityCheck
	if interval <= 0 {
		return
	}
	tick := min(max(interval/4, 50*time.Millisecond), 15*time.Second)
	a.goEvery("reality-checks", tick, nil, func(ctx context.Context) {
		reminders, err := a.protection.DueRealityChecks(ctx, interval)
		if err != nil && ctx.Err() == nil {
			a.log.Warn("reality checks", "err", err)
		}
		for _, r := range reminders {
			ev := event.UserEvent{Type: event.RealityCheck, At: r.At, Reality: &event.RealityCheckData{
				SessionStartedAt: r.StartedAt, ElapsedSeconds: int64(r.Elapsed / time.Second),
				Stakes: int64(r.Stakes), Returns: int64(r.Returns), Net: int64(r.Net()),
			}}
			if err := a.userPub.Publish(ctx, event.UserTopic(ids.UserID(r.UserID)), ev.Encode()); err != nil {
				a.log.Warn("reality check not sent", "user", r.UserID, "err", err)
			}
		}
	})
}
