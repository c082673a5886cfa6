package persistence

import (
	"context"
	"log/slog"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/domain/account"
)

// RedisThrottle is the login limiter shared by every replica: failures are
// counted in Redis, so spreading attempts over replicas gains nothing. It
// follows account.Throttle's rules: MaxFailures failures, with no quiet
// Window between them, lock the key for BaseLockout, each further failure
// doubles the lock up to MaxLockout; a success clears the key.
//
// When Redis does not answer, it lets the attempt through and logs: the
// password check still stands, and an outage of the cache must not lock
// every player out.
type RedisThrottle struct {
	client *redis.Client
	prefix string
	cfg    account.ThrottleConfig
	log    *slog.Logger
}

var _ account.LoginLimiter = (*RedisThrottle)(nil)

// NewRedisThrottle returns a limiter keeping its counters under prefix.
func NewRedisThrottle(client *redis.Client, prefix string, cfg account.ThrottleConfig, log *slog.Logger) *RedisThrottle {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &RedisThrottle{client: client, prefix: prefix + "throttle:", cfg: cfg.WithDefaults(), log: log}
}

// failScript counts a failure and, at the threshold, sets the lock with a
// doubling lifetime. KEYS: fails, lock. ARGV: window ms, max failures,
// base lock ms, max lock ms.
var failScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
local window = tonumber(ARGV[1])
local maxf = tonumber(ARGV[2])
if n >= maxf then
  local d = tonumber(ARGV[3]) * (2 ^ (n - maxf))
  if d > tonumber(ARGV[4]) then d = tonumber(ARGV[4]) end
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(d))
  window = window + math.floor(d)
end
redis.call('PEXPIRE', KEYS[1], window)
return n`)

func (t *RedisThrottle) keys(key string) []string {
	return []string{t.prefix + "fails:" + key, t.prefix + "lock:" + key}
}

func timeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 2*time.Second)
}

// Allow refuses a locked key with Forbidden TOO_MANY_ATTEMPTS.
func (t *RedisThrottle) Allow(key string) error {
	ctx, cancel := timeout()
	defer cancel()
	ttl, err := t.client.PTTL(ctx, t.keys(key)[1]).Result()
	if err != nil {
		t.log.Warn("login throttle: redis does not answer; allowing the attempt", "err", err)
		return nil
	}
	if ttl > 0 {
		return account.TooManyAttempts(ttl)
	}
	return nil
}

// Fail records a failed attempt.
func (t *RedisThrottle) Fail(key string) {
	ctx, cancel := timeout()
	defer cancel()
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	if err := failScript.Run(ctx, t.client, t.keys(key),
		ms(t.cfg.Window), t.cfg.MaxFailures, ms(t.cfg.BaseLockout), ms(t.cfg.MaxLockout)).Err(); err != nil {
		t.log.Warn("login throttle: could not record a failure", "err", err)
	}
}

// Succeed clears the key.
func (t *RedisThrottle) Succeed(key string) {
	ctx, cancel := timeout()
	defer cancel()
	if err := t.client.Del(ctx, t.keys(key)...).Err(); err != nil {
		t.log.Warn("login throttle: could not clear a key", "err", err)
	}
}

// RedisAPQCache keeps automatic persisted queries in Redis, so a client that
// registered a query hash on one replica can use it on any other.
type RedisAPQCache struct {
	client *redis.Client
	prefix string
	ttl    time.Duration
}

var _ graphql.Cache[string] = (*RedisAPQCache)(nil)

// NewRedisAPQCache returns an APQ cache whose entries live for ttl.
func NewRedisAPQCache(client *redis.Client, prefix string, ttl time.Duration) *RedisAPQCache {
	return &RedisAPQCache{client: client, prefix: prefix + "apq:", ttl: ttl}
}

// Get returns the query registered under hash.
func (c *RedisAPQCache) Get(ctx context.Context, hash string) (string, bool) {
	s, err := c.client.Get(ctx, c.prefix+hash).Result()
	return s, err == nil
}

// Add registers query under hash.
func (c *RedisAPQCache) Add(ctx context.Context, hash, query string) {
	c.client.Set(ctx, c.prefix+hash, query, c.ttl)
}
