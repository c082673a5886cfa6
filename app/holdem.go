package app

import (
	"context"
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/holdemdb"
)

// startHoldem builds Casino Hold'em: its store, service, the sweeper that
// folds timed-out boxes, and the GraphQL part of it. The table settings are
// the defaults overlaid by the settings table (holdemdb.HoldemSettingsKey),
// read once at start; TIME_SCALE divides the decision timeout.
func (a *App) startHoldem(ctx context.Context) error {
	repo := holdemdb.New(a.db, a.ledger)
	cfg, err := repo.HoldemSettings(ctx, holdem.DefaultConfig())
	if err != nil {
		return fmt.Errorf("casino hold'em settings: %w", err)
	}
	if s := a.cfg.TimeScale; s > 0 && s != 1 {
		cfg.DecisionTimeout = max(time.Duration(float64(cfg.DecisionTimeout)/s), time.Millisecond)
	}
	svc, err := holdem.NewService(repo, a.stakeGate, cfg, holdem.WithPublisher(a.userPub), holdem.WithLogger(a.log))
	if err != nil {
		return fmt.Errorf("casino hold'em: %w", err)
	}
	a.holdemAPI = graph.NewHoldemAPI(svc, a.log)
	interval := holdem.SweepInterval(cfg.DecisionTimeout)
	a.goBackground("holdem-sweeper", func(ctx context.Context) error { return svc.RunSweeper(ctx, interval) })
	a.log.Info("casino hold'em ready", "decision_timeout", cfg.DecisionTimeout, "sweep_every", interval)
	return nil
}
