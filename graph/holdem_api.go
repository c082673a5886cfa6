package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph/model"
)

// errHoldemNotYet marks resolvers still to be written; clients see only INTERNAL.
var errHoldemNotYet = errs.E(errs.Internal, "not implemented yet")

// HoldemAPI resolves the holdem part of the schema.
type HoldemAPI struct{}

// HoldemStart is not implemented yet.
func (a *HoldemAPI) HoldemStart(ctx context.Context, input model.HoldemStartInput) (*model.HoldemHand, error) {
	return nil, errHoldemNotYet
}

// HoldemDecide is not implemented yet.
func (a *HoldemAPI) HoldemDecide(ctx context.Context, input model.HoldemDecideInput) (*model.HoldemHand, error) {
	return nil, errHoldemNotYet
}

// HoldemSettings is not implemented yet.
func (a *HoldemAPI) HoldemSettings(ctx context.Context) (*model.HoldemSettings, error) {
	return nil, errHoldemNotYet
}

// HoldemHand is not implemented yet.
func (a *HoldemAPI) HoldemHand(ctx context.Context, id string) (*model.HoldemHand, error) {
	return nil, errHoldemNotYet
}

// HoldemHands is not implemented yet.
func (a *HoldemAPI) HoldemHands(ctx context.Context, first *int, after *string) (*model.HoldemHandPage, error) {
	return nil, errHoldemNotYet
}
