package graph

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph/model"
)

// errToteNotYet marks resolvers still to be written; clients see only INTERNAL.
var errToteNotYet = errs.E(errs.Internal, "not implemented yet")

// ToteAPI resolves the tote part of the schema.
type ToteAPI struct{}

// BetDraw is not implemented yet.
func (a *ToteAPI) BetDraw(ctx context.Context, obj *model.Bet) (*model.Draw, error) {
	return nil, errToteNotYet
}

// DrawTable is not implemented yet.
func (a *ToteAPI) DrawTable(ctx context.Context, obj *model.Draw) (*model.Table, error) {
	return nil, errToteNotYet
}

// DrawOdds is not implemented yet.
func (a *ToteAPI) DrawOdds(ctx context.Context, obj *model.Draw) (*model.Odds, error) {
	return nil, errToteNotYet
}

// DrawPools is not implemented yet.
func (a *ToteAPI) DrawPools(ctx context.Context, obj *model.Draw, round *model.BettingRound, market *model.Market) ([]model.Pool, error) {
	return nil, errToteNotYet
}

// DrawResult is not implemented yet.
func (a *ToteAPI) DrawResult(ctx context.Context, obj *model.Draw) (*model.DrawResult, error) {
	return nil, errToteNotYet
}

// DrawVerificationDraw is not implemented yet.
func (a *ToteAPI) DrawVerificationDraw(ctx context.Context, obj *model.DrawVerification) (*model.Draw, error) {
	return nil, errToteNotYet
}

// PlaceBet is not implemented yet.
func (a *ToteAPI) PlaceBet(ctx context.Context, input model.PlaceBetInput) (*model.Bet, error) {
	return nil, errToteNotYet
}

// CreateTable is not implemented yet.
func (a *ToteAPI) CreateTable(ctx context.Context, input model.TableInput) (*model.Table, error) {
	return nil, errToteNotYet
}

// UpdateTableSettings is not implemented yet.
func (a *ToteAPI) UpdateTableSettings(ctx context.Context, tableID string, input model.TableSettingsInput) (*model.Table, error) {
	return nil, errToteNotYet
}

// SetMinStake is not implemented yet.
func (a *ToteAPI) SetMinStake(ctx context.Context, tableID string, amount model.Money) (*model.Table, error) {
	return nil, errToteNotYet
}

// SetCommission is not implemented yet.
func (a *ToteAPI) SetCommission(ctx context.Context, tableID string, percent string) (*model.Table, error) {
	return nil, errToteNotYet
}

// PauseTable is not implemented yet.
func (a *ToteAPI) PauseTable(ctx context.Context, tableID string) (*model.Table, error) {
	return nil, errToteNotYet
}

// ResumeTable is not implemented yet.
func (a *ToteAPI) ResumeTable(ctx context.Context, tableID string) (*model.Table, error) {
	return nil, errToteNotYet
}

// VoidDraw is not implemented yet.
func (a *ToteAPI) VoidDraw(ctx context.Context, drawID string, reason string) (*model.Draw, error) {
	return nil, errToteNotYet
}

// JackpotTopUp is not implemented yet.
func (a *ToteAPI) JackpotTopUp(ctx context.Context, amount model.Money, idempotencyKey string) (*model.Jackpot, error) {
	return nil, errToteNotYet
}

// SetJackpotEnabled is not implemented yet.
func (a *ToteAPI) SetJackpotEnabled(ctx context.Context, enabled bool) (*model.Jackpot, error) {
	return nil, errToteNotYet
}

// Tables is not implemented yet.
func (a *ToteAPI) Tables(ctx context.Context) ([]model.Table, error) {
	return nil, errToteNotYet
}

// Table is not implemented yet.
func (a *ToteAPI) Table(ctx context.Context, id string) (*model.Table, error) {
	return nil, errToteNotYet
}

// Draw is not implemented yet.
func (a *ToteAPI) Draw(ctx context.Context, id string) (*model.Draw, error) {
	return nil, errToteNotYet
}

// MyBets is not implemented yet.
func (a *ToteAPI) MyBets(ctx context.Context, first *int, after *string, drawID *string) (*model.BetPage, error) {
	return nil, errToteNotYet
}

// Results is not implemented yet.
func (a *ToteAPI) Results(ctx context.Context, tableID *string, from *time.Time, to *time.Time, first *int, after *string) (*model.DrawPage, error) {
	return nil, errToteNotYet
}

// Jackpot is not implemented yet.
func (a *ToteAPI) Jackpot(ctx context.Context) (*model.Jackpot, error) {
	return nil, errToteNotYet
}

// VerifyDraw is not implemented yet.
func (a *ToteAPI) VerifyDraw(ctx context.Context, id string) (*model.DrawVerification, error) {
	return nil, errToteNotYet
}

// TableEvents is not implemented yet.
func (a *ToteAPI) TableEvents(ctx context.Context, tableID string, afterSeq *int64) (<-chan *model.TableEvent, error) {
	return nil, errToteNotYet
}

// MyEvents is not implemented yet.
func (a *ToteAPI) MyEvents(ctx context.Context) (<-chan *model.UserEvent, error) {
	return nil, errToteNotYet
}

// TableCurrentDraw is not implemented yet.
func (a *ToteAPI) TableCurrentDraw(ctx context.Context, obj *model.Table) (*model.Draw, error) {
	return nil, errToteNotYet
}

// TableEventDraw is not implemented yet.
func (a *ToteAPI) TableEventDraw(ctx context.Context, obj *model.TableEvent) (*model.Draw, error) {
	return nil, errToteNotYet
}
