package service

import (
	"context"

	"github.com/pokertote/pokertote/domain/tote"
)

// PlaceBet accepts a bet on the open round of a draw (SPEC 1.1, 1.4)
// through the draw's intake, which commits the bets arriving together in
// one transaction, each with its own result: see intake.Queue.PlaceBet for
// the checks, the round-close race and idempotency.
func (s *Service) PlaceBet(ctx context.Context, r tote.PlaceBetRequest) (tote.Bet, error) {
	return s.intake.PlaceBet(ctx, r)
}

// PlaceBets places several bets at once, each with its own result exactly
// as PlaceBet would give it (intake.Queue.PlaceBets).
func (s *Service) PlaceBets(ctx context.Context, reqs []tote.PlaceBetRequest) ([]tote.Bet, []error) {
	return s.intake.PlaceBets(ctx, reqs)
}
