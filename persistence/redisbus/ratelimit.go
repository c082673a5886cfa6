package redisbus

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/domain/apikey"
)

// gcraScript is apikey.GCRA run atomically in Redis, on Redis's own clock so
// that replicas with skewed clocks share one allowance. KEYS[1] holds the
// key's theoretical arrival time in microseconds; ARGV[1] is the window in
// microseconds, ARGV[2] the requests allowed per window, ARGV[3] the
// request's cost (in requests). It returns {1, 0, reset} when the request
// passes, {0, microseconds to wait, reset} when not, reset being the
// microseconds until the allowance is whole again.
var gcraScript = redis.NewScript(`
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local new_tat = tat + (window / limit) * tonumber(ARGV[3])
local allow_at = new_tat - window
if now < allow_at then
  return {0, math.ceil(allow_at - now), math.ceil(tat - now)}
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {1, 0, math.ceil(new_tat - now)}
`)

// RateLimiter is the apikey.Limiter shared by every replica using one
// Redis: one small key per API key, expiring when its allowance is whole.
type RateLimiter struct {
	rdb    redis.UniversalClient
	prefix string
}

var _ apikey.Limiter = (*RateLimiter)(nil)

// NewRateLimiter returns the shared limiter; its keys are named
// prefix + "ratelimit:apikey:" + the key's id.
func NewRateLimiter(rdb redis.UniversalClient, prefix string) *RateLimiter {
	return &RateLimiter{rdb: rdb, prefix: prefix}
}

// Allow implements apikey.Limiter.
func (l *RateLimiter) Allow(ctx context.Context, keyID string, perMinute, cost int) (apikey.Decision, error) {
	res, err := gcraScript.Run(ctx, l.rdb, []string{l.prefix + "ratelimit:apikey:" + keyID},
		apikey.Window.Microseconds(), perMinute, max(cost, 1)).Int64Slice()
	if err != nil {
		return apikey.Decision{}, fmt.Errorf("rate limit of API key %s: %w", keyID, err)
	}
	if len(res) != 3 {
		return apikey.Decision{}, fmt.Errorf("rate limit script answered %v", res)
	}
	return apikey.DecisionAt(res[0] == 1, time.Duration(res[1])*time.Microsecond, time.Duration(res[2])*time.Microsecond, perMinute), nil
}
