package graph

import (
	"context"
	"strconv"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/graph/model"
)

// WebhooksAPI resolves the admins' webhook fields.
type WebhooksAPI struct {
	svc *webhook.Service
}

// NewWebhooksAPI returns the webhook resolvers over svc.
func NewWebhooksAPI(svc *webhook.Service) *WebhooksAPI { return &WebhooksAPI{svc: svc} }

// webhookTypeOf is the API's name of an event type: "draw.settled" is
// DRAW_SETTLED. The rule, not a table, so that a type added to
// webhook.Types needs only its enum value (TestWebhookTypesMatchSchema).
func webhookTypeOf(t webhook.Type) model.WebhookEventType {
	return model.WebhookEventType(strings.ToUpper(strings.ReplaceAll(string(t), ".", "_")))
}

// webhookTypeFrom is webhookTypeOf's inverse, refusing what the domain
// does not know.
func webhookTypeFrom(t model.WebhookEventType) (webhook.Type, error) {
	for _, wt := range webhook.Types {
		if webhookTypeOf(wt) == t {
			return wt, nil
		}
	}
	return "", errs.R(errs.Invalid, webhook.ReasonInvalidTypes, "unknown event type %s", t)
}

// CreateEndpoint resolves Mutation.createWebhookEndpoint.
func (a *WebhooksAPI) CreateEndpoint(ctx context.Context, in model.CreateWebhookEndpointInput) (*model.CreatedWebhookEndpoint, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	ne := webhook.NewEndpoint{URL: in.URL}
	if in.Description != nil {
		ne.Description = *in.Description
	}
	for _, t := range in.EventTypes {
		wt, err := webhookTypeFrom(t)
		if err != nil {
			return nil, err
		}
		ne.Types = append(ne.Types, wt)
	}
	e, err := a.svc.Create(ctx, v.UserID, ne)
	if err != nil {
		return nil, err
	}
	return &model.CreatedWebhookEndpoint{Endpoint: toModelWebhook(e), Secret: e.Secret}, nil
}

// DeleteEndpoint resolves Mutation.deleteWebhookEndpoint.
func (a *WebhooksAPI) DeleteEndpoint(ctx context.Context, id string) (bool, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return false, err
	}
	n, err := webhookID(id)
	if err != nil {
		return false, err
	}
	if err := a.svc.Delete(ctx, v.UserID, n); err != nil {
		return false, err
	}
	return true, nil
}

// ReplayEndpoint resolves Mutation.replayWebhookEndpoint.
func (a *WebhooksAPI) ReplayEndpoint(ctx context.Context, id string, from *string) (*model.WebhookEndpoint, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	n, err := webhookID(id)
	if err != nil {
		return nil, err
	}
	eventID := ""
	if from != nil {
		eventID = *from
	}
	e, err := a.svc.Replay(ctx, v.UserID, n, eventID)
	if err != nil {
		return nil, err
	}
	return toModelWebhook(e), nil
}

// Endpoints resolves Query.webhookEndpoints.
func (a *WebhooksAPI) Endpoints(ctx context.Context) ([]model.WebhookEndpoint, error) {
	eps, err := a.svc.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]model.WebhookEndpoint, len(eps))
	for i, e := range eps {
		out[i] = *toModelWebhook(e)
	}
	return out, nil
}

func webhookID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.R(errs.NotFound, webhook.ReasonEndpointNotFound, "webhook endpoint not found")
	}
	return n, nil
}

func toModelWebhook(e webhook.Endpoint) *model.WebhookEndpoint {
	m := &model.WebhookEndpoint{
		ID: strconv.FormatInt(e.ID, 10), URL: e.URL, Description: e.Description, CreatedAt: e.CreatedAt,
		Delivered: e.Delivered, LastDeliveredAt: e.LastDelivered, Attempts: e.Attempts, FailingSince: e.FailingSince,
		NextAttemptAt: e.NextAttempt, ParkedAt: e.Parked,
	}
	for _, t := range e.Types {
		m.EventTypes = append(m.EventTypes, webhookTypeOf(t))
	}
	if e.LastError != "" {
		m.LastError = &e.LastError
	}
	return m
}
