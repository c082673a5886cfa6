package app

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/bettingstopdb"
)

// The emergency stop's timings: every replica looks at the stop this
// often (and at once on the broker's notice), and refuses stakes when its
// last look is older than the limit, so a stop reaches every replica
// within a second even with the broker down.
const (
	bettingStopPoll   = 250 * time.Millisecond
	bettingStopMaxAge = time.Second
	bettingStopTopic  = "betting:stop"
)

// startStakeGate builds the gate every stake of both games passes: the
// account's checks (verified, 21+, not disabled) behind the emergency
// stop.
func (a *App) startStakeGate(ctx context.Context) {
	a.stopStore = bettingstopdb.New(a.db)
	a.stakeGate = bettingstop.NewGate(a.accounts, a.stopStore, bettingStopMaxAge, nil)
	if err := a.stakeGate.Refresh(ctx); err != nil {
		a.log.Warn("betting stop not read at start: stakes wait for it", "err", err)
	}
	changed := make(chan struct{}, 1)
	a.follow("betting-stop", bettingStopTopic, 16, func([]byte) {
		select {
		case changed <- struct{}{}:
		default: // a reload is pending already
		}
	})
	a.goBackground("betting-stop", func(ctx context.Context) error { return a.stakeGate.Run(ctx, bettingStopPoll, changed) })
}

// startBettingStop builds the admins' stop over the totalizator's tables.
func (a *App) startBettingStop(svc *service.Service) {
	stop := bettingstop.NewService(a.stopStore, stopTables{svc}, nil)
	stop.Changed = func(ctx context.Context) {
		// This replica's gate reloads before the mutation answers, so the
		// admin's own replica refuses the next stake (the others hear the
		// broker or their poll).
		if err := a.stakeGate.Refresh(ctx); err != nil {
			a.log.WarnContext(ctx, "betting stop not reloaded here: this replica sees it within its poll", "err", err)
		}
		if err := a.broker.Publish(ctx, bettingStopTopic, []byte("changed")); err != nil {
			a.log.WarnContext(ctx, "betting stop not broadcast: replicas see it within their poll", "err", err)
		}
	}
	a.bettingStopAPI = graph.NewBettingStopAPI(stop)
}

// stopTables is bettingstop.Tables over the totalizator's service.
type stopTables struct{ svc *service.Service }

func (s stopTables) Running(ctx context.Context) ([]int64, error) {
	ts, err := s.svc.Tables(ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, t := range ts {
		if t.Status == tote.TableRunning {
			out = append(out, t.ID)
		}
	}
	return out, nil
}

func (s stopTables) Pause(ctx context.Context, actor, id int64) error {
	_, err := s.svc.PauseTable(ctx, actor, id)
	return err
}

func (s stopTables) ResumeIfPaused(ctx context.Context, actor, id int64) error {
	t, err := s.svc.Table(ctx, id)
	if err != nil || t.Status != tote.TablePaused {
		return err
	}
	_, err = s.svc.ResumeTable(ctx, actor, id)
	return err
}
