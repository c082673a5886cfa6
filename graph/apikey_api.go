package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph/model"
)

// AffiliatesAPI resolves the admins' API-key fields.
type AffiliatesAPI struct {
	// Keys makes, lists and revokes keys; nil answers with an internal error.
	Keys *apikey.Service
	// Revoked, when set, is told of each revoked key (the app broadcasts it
	// so that every replica closes the key's sockets and streams).
	Revoked func(ctx context.Context, keyID string)
}

func (a *AffiliatesAPI) keys() (*apikey.Service, error) {
	if a == nil || a.Keys == nil {
		return nil, errs.E(errs.Internal, "API keys are not configured")
	}
	return a.Keys, nil
}

// CreateAPIKey resolves Mutation.createApiKey.
func (a *AffiliatesAPI) CreateAPIKey(ctx context.Context, in model.CreateAPIKeyInput) (*model.CreatedAPIKey, error) {
	svc, err := a.keys()
	if err != nil {
		return nil, err
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	perMinute := 0
	if in.RequestsPerMinute != nil {
		if perMinute = *in.RequestsPerMinute; perMinute == 0 {
			perMinute = -1 // an explicit 0 is invalid, not the default
		}
	}
	k, raw, err := svc.Create(ctx, v.UserID, in.Name, perMinute)
	if err != nil {
		return nil, err
	}
	return &model.CreatedAPIKey{APIKey: toModelAPIKey(k), Key: raw}, nil
}

// RevokeAPIKey resolves Mutation.revokeApiKey.
func (a *AffiliatesAPI) RevokeAPIKey(ctx context.Context, id string) (*model.APIKey, error) {
	svc, err := a.keys()
	if err != nil {
		return nil, err
	}
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	k, err := svc.Revoke(ctx, v.UserID, id)
	if err != nil {
		return nil, err
	}
	if a.Revoked != nil {
		a.Revoked(ctx, k.ID)
	}
	return toModelAPIKey(k), nil
}

// APIKeys resolves Query.apiKeys.
func (a *AffiliatesAPI) APIKeys(ctx context.Context) ([]model.APIKey, error) {
	svc, err := a.keys()
	if err != nil {
		return nil, err
	}
	keys, err := svc.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]model.APIKey, len(keys))
	for i, k := range keys {
		out[i] = *toModelAPIKey(k)
	}
	return out, nil
}

func toModelAPIKey(k apikey.Key) *model.APIKey {
	return &model.APIKey{ID: k.ID, Name: k.Name, RequestsPerMinute: k.PerMinute, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt}
}
