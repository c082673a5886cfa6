package redisbus

import (
	"context"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/domain/account"
)

// Throttle is the login limiter shared by every replica: failures are
// counted in Redis, so spreading attempts over replicas gains nothing. It
// follows account.Throttle's rules: MaxFailures failures, with no quiet
// Window between them, lock the key for BaseLockout, each further failure
// doubles the lock up to MaxLockout; a success clears the key.
//
// When Redis does not answer, it lets the attempt through and logs: the
// password check still stands, and an outage of the cache must not lock
// every player out.
type Throttle struct {
	client redis.UniversalClient
	prefix string
	cfg    account.ThrottleConfig
	log    *slog.Logger
}

var _ account.LoginLimiter = (*Throttle)(nil)

// NewThrottle returns a limiter keeping its counters under prefix.
func NewThrottle(client redis.UniversalClient, prefix string, cfg account.ThrottleConfig, log *slog.Logger) *Throttle {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Throttle{client: client, prefix: prefix + "throttle:", cfg: cfg.WithDefaults(), log: log}
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

func (t *Throttle) keys(key string) []string {
	return []string{t.prefix + "fails:" + key, t.prefix + "lock:" + key}
}

func timeout() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 2*time.Second)
}

// Allow refuses a locked key with Forbidden TOO_MANY_ATTEMPTS.
func (t *Throttle) Allow(key string) error {
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
func (t *Throttle) Fail(key string) {
	ctx, cancel := timeout()
	defer cancel()
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	if err := failScript.Run(ctx, t.client, t.keys(key),
		ms(t.cfg.Window), t.cfg.MaxFailures, ms(t.cfg.BaseLockout), ms(t.cfg.MaxLockout)).Err(); err != nil {
		t.log.Warn("login throttle: could not record a failure", "err", err)
	}
}

// Succeed clears the key.
func (t *Throttle) Succeed(key string) {
	ctx, cancel := timeout()
	defer cancel()
	if err := t.client.Del(ctx, t.keys(key)...).Err(); err != nil {
		t.log.Warn("login throttle: could not clear a key", "err", err)
	}
}

// Cache is a plain string cache in Redis shared by every replica:
// values live under prefix+key for ttl. It knows nothing of GraphQL; the
// app wraps it into gqlgen's persisted-query cache.
type Cache struct {
	client redis.UniversalClient
	prefix string
	ttl    time.Duration
}

// NewCache returns a cache keeping its entries under prefix for ttl.
func NewCache(client redis.UniversalClient, prefix string, ttl time.Duration) *Cache {
	return &Cache{client: client, prefix: prefix, ttl: ttl}
}

// Get returns the value stored under key, and whether there is one (a
// Redis that does not answer reads as a miss).
func (c *Cache) Get(ctx context.Context, key string) (string, bool) {
	s, err := c.client.Get(ctx, c.prefix+key).Result()
	return s, err == nil
}

// Set stores value under key, best effort: a cache that cannot be written
// only costs a later miss.
func (c *Cache) Set(ctx context.Context, key, value string) {
	c.client.Set(ctx, c.prefix+key, value, c.ttl)
}
