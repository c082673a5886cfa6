package app

import (
	"context"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/apikey"
)

// While the probes say Redis does not answer, what is kept there is kept
// in this replica instead, so that a request does not wait for a Redis
// that is gone (a black-holed one answers nothing until the client's
// timeout): the sign-in throttle and the API keys' rates count per
// replica, and persisted queries are missed (the client sends the text).

// loginFallback is the sign-in throttle: Redis's, or this replica's while
// Redis is down.
type loginFallback struct {
	shared, local account.LoginLimiter
	down          func() bool
}

func (l loginFallback) pick() account.LoginLimiter {
	if l.down() {
		return l.local
	}
	return l.shared
}

func (l loginFallback) Allow(key string) error { return l.pick().Allow(key) }
func (l loginFallback) Fail(key string)        { l.pick().Fail(key) }
func (l loginFallback) Succeed(key string)     { l.pick().Succeed(key) }

// keyRateFallback is the API keys' rate limit: Redis's, or this replica's
// while Redis is down.
type keyRateFallback struct {
	shared, local apikey.Limiter
	down          func() bool
}

func (l keyRateFallback) Allow(ctx context.Context, keyID string, perMinute, cost int) (apikey.Decision, error) {
	if l.down() {
		return l.local.Allow(ctx, keyID, perMinute, cost)
	}
	return l.shared.Allow(ctx, keyID, perMinute, cost)
}
