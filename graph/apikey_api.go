package graph

import (
	"context"

	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/graph/model"
)

// AffiliatesAPI resolves the admins' API-key fields.
type AffiliatesAPI struct {
	keys *apikey.Service
	// revoked, when set, is told of each revoked key (the app broadcasts it
	// so that every replica closes the key's sockets and streams).
	revoked func(ctx context.Context, keyID string)
}

// NewAffiliatesAPI returns the API-key resolvers over keys (required);
// revoked (nil: none) is told of each key revoked.
func NewAffiliatesAPI(keys *apikey.Service, revoked func(ctx context.Context, keyID string)) *AffiliatesAPI {
	return &AffiliatesAPI{keys: keys, revoked: revoked}
}

// CreateAPIKey resolves Mutation.createApiKey.
func (a *AffiliatesAPI) CreateAPIKey(ctx context.Context, in model.CreateAPIKeyInput) (*model.CreatedAPIKey, error) {
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
	k, raw, err := a.keys.Create(ctx, v.UserID, in.Name, perMinute)
	if err != nil {
		return nil, err
	}
	return &model.CreatedAPIKey{APIKey: toModelAPIKey(k), Key: raw}, nil
}

// RevokeAPIKey resolves Mutation.revokeApiKey.
func (a *AffiliatesAPI) RevokeAPIKey(ctx context.Context, id string) (*model.APIKey, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	k, err := a.keys.Revoke(ctx, v.UserID, id)
	if err != nil {
		return nil, err
	}
	if a.revoked != nil {
		a.revoked(ctx, k.ID)
	}
	return toModelAPIKey(k), nil
}

// APIKeys resolves Query.apiKeys.
func (a *AffiliatesAPI) APIKeys(ctx context.Context) ([]model.APIKey, error) {
	keys, err := a.keys.List(ctx)
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
