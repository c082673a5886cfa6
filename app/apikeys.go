package app

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

// apiKeyRevokedTopic is the broker topic on which a revoked key's id goes
// to every replica.
const apiKeyRevokedTopic = "apikey:revoked"

// startAffiliates builds the API-key service, its rate limiter (shared
// through Redis when there is one, else in-process) and the per-key usage
// metrics. The key label is the key's public id: admins make keys one by
// one, so its cardinality stays small; unknown keys are counted by reason
// only.
func (a *App) startAffiliates() {
	svc := apikey.NewService(accountdb.NewAPIKeyRepo(a.db), nil)
	var limiter apikey.Limiter = apikey.NewMemLimiter(nil)
	if a.redis != nil {
		limiter = keyRateFallback{shared: redisbus.NewRateLimiter(a.redis, a.cfg.RedisPrefix), local: limiter, down: a.health.redisDown}
	}
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "pokertote", Subsystem: "api_key", Name: "requests_total",
		Help: "Requests made with a valid API key, by key id and outcome (served, rate_limited, out_of_scope).",
	}, []string{"key", "outcome"})
	rejected := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "pokertote", Subsystem: "api_key", Name: "rejected_total",
		Help: "Requests whose API key was refused, by reason (INVALID_API_KEY, API_KEY_REVOKED, ERROR).",
	}, []string{"reason"})
	a.metrics = append(a.metrics, requests, rejected)
	a.affiliatesAPI = graph.NewAffiliatesAPI(svc, func(ctx context.Context, id string) {
		// Every replica (this one too) closes the key's sockets on hearing
		// it; a lost message leaves them to the per-operation check.
		ctx, cancel := context.WithTimeout(ctx, publishBudget)
		defer cancel()
		if err := a.broker.Publish(ctx, apiKeyRevokedTopic, []byte(id)); err != nil {
			a.log.WarnContext(ctx, "API key revocation not broadcast", "key", id, "err", err)
		}
	})
	a.follow("api-key-revocations", apiKeyRevokedTopic, 256, func(msg []byte) { a.conns.CloseKey(string(msg)) })
	a.keyAuth = graph.APIKeyAuth{
		Authenticate: svc.Authenticate,
		Limiter:      limiter,
		Count:        func(id, outcome string) { requests.WithLabelValues(id, outcome).Inc() },
		Rejected:     func(reason string) { rejected.WithLabelValues(reason).Inc() },
		Log:          a.log.With("component", "api-keys"),
	}
}
