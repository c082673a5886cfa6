package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/graph/model"
)

// BettingStopAPI resolves the emergency stop's fields.
type BettingStopAPI struct {
	svc *bettingstop.Service
}

// NewBettingStopAPI returns the stop's resolvers over svc.
func NewBettingStopAPI(svc *bettingstop.Service) *BettingStopAPI { return &BettingStopAPI{svc: svc} }

// State resolves Query.bettingStop.
func (a *BettingStopAPI) State(ctx context.Context) (*model.BettingStop, error) {
	st, err := a.svc.State(ctx)
	if err != nil {
		return nil, err
	}
	return toModelStop(st), nil
}

// Stop resolves Mutation.stopAllBetting.
func (a *BettingStopAPI) Stop(ctx context.Context, reason string) (*model.BettingStop, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	st, err := a.svc.Stop(ctx, v.UserID, reason)
	if err != nil {
		return nil, err
	}
	return toModelStop(st), nil
}

// Resume resolves Mutation.resumeAllBetting.
func (a *BettingStopAPI) Resume(ctx context.Context) (*model.BettingStop, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	st, err := a.svc.Resume(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	return toModelStop(st), nil
}

func toModelStop(st bettingstop.State) *model.BettingStop {
	m := &model.BettingStop{Stopped: st.Stopped}
	if !st.At.IsZero() {
		at := st.At
		m.Since = &at
	}
	if st.Reason != "" {
		r := st.Reason
		m.Reason = &r
	}
	return m
}
