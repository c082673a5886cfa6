package account

import (
	"container/list"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// LoginLimiter refuses sign-in attempts for a key (an email, an address)
// after too many recent failures. Throttle is the in-process one; a
// deployment with several replicas shares one through Redis, so an attacker
// gains nothing by spreading attempts across replicas.
type LoginLimiter interface {
	// Allow returns nil when key may try, or Forbidden TOO_MANY_ATTEMPTS.
	Allow(key string) error
	// Fail records a failed attempt.
	Fail(key string)
	// Succeed forgets the key's failures.
	Succeed(key string)
}

var _ LoginLimiter = (*Throttle)(nil)

// ThrottleConfig tunes a Throttle; zero fields take the defaults.
type ThrottleConfig struct {
	// MaxFailures within Window lock the key (default 5).
	MaxFailures int
	// Window is how long a failure counts (default 15 minutes).
	Window time.Duration
	// BaseLockout is the first lockout (default 1 minute); each further
	// failure before the key has gone quiet locks it for twice the previous
	// lockout, up to MaxLockout (default 1 hour).
	BaseLockout time.Duration
	MaxLockout  time.Duration
	// MaxKeys bounds memory (default 100,000 keys); when full, the least
	// recently failed key is forgotten.
	MaxKeys int
}

// A sign-in failure counts against three keys, each throttled its own way
// so that no one can be locked out by someone else:
//   - the pair of address and account: a guesser at one account from one
//     address is locked hard (5 failures, then a minute doubling to an hour);
//   - the account, from anywhere: only a progressive delay (5 failures, then
//     5 s doubling to 30 s), so that failures spread over many addresses slow
//     the guessing to a couple of tries a minute without keeping the owner,
//     on a fresh device, out for more than half a minute;
//   - the address, against any account: locked after a flood (20 failures,
//     then a minute doubling to an hour), which locks that address only.
//
// A success clears the account's and the pair's failures, not the
// address's (one good password of the attacker's own must not reset a
// flood). The address is the client's as seen through the trusted proxies.
var (
	PairThrottle    = ThrottleConfig{}
	AccountThrottle = ThrottleConfig{BaseLockout: 5 * time.Second, MaxLockout: 30 * time.Second}
	AddressThrottle = ThrottleConfig{MaxFailures: 20}
)

// LoginThrottles are the limiters of the three keys a sign-in is throttled
// by (see PairThrottle); a nil one is an in-process Throttle with its
// default.
type LoginThrottles struct {
	Pair, Account, Address LoginLimiter
}

// WithDefaults returns c with every zero field set to its default.
func (c ThrottleConfig) WithDefaults() ThrottleConfig { return c.withDefaults() }

// TooManyAttempts is the error for a key locked for wait.
func TooManyAttempts(wait time.Duration) error {
	mins := int((wait + time.Minute - 1) / time.Minute)
	return errs.R(errs.Forbidden, ReasonTooManyAttempts, "too many failed sign-in attempts; try again in %d minute(s)", mins)
}

func (c ThrottleConfig) withDefaults() ThrottleConfig {
	if c.MaxFailures <= 0 {
		c.MaxFailures = 5
	}
	if c.Window <= 0 {
		c.Window = 15 * time.Minute
	}
	if c.BaseLockout <= 0 {
		c.BaseLockout = time.Minute
	}
	if c.MaxLockout < c.BaseLockout {
		c.MaxLockout = max(time.Hour, c.BaseLockout)
	}
	if c.MaxKeys <= 0 {
		c.MaxKeys = 100_000
	}
	return c
}

// Throttle refuses login attempts for a key (an email, an IP address) after
// too many recent failures: MaxFailures failures within Window lock the key
// for BaseLockout; after that, every further failure locks it again at once
// for twice as long as the last lockout, up to MaxLockout, until the key has
// been quiet (no failure, no lockout) for a whole Window, when it starts
// afresh. Attempts refused while locked are not counted.
//
// It lives in memory, is safe for concurrent use and never holds more than
// MaxKeys keys. It protects one process: a deployment with several replicas
// should back it with a shared store (Redis INCR/EXPIRE) behind the same
// three methods.
type Throttle struct {
	mu   sync.Mutex
	cfg  ThrottleConfig
	now  func() time.Time
	keys map[string]*list.Element // of *throttleEntry
	lru  list.List                // front = most recently failed
}

type throttleEntry struct {
	key         string
	failures    []time.Time // within the window, oldest first, at most MaxFailures
	lockedUntil time.Time
	strikes     int
}

// NewThrottle returns an empty throttle; now is its clock (nil: time.Now).
func NewThrottle(cfg ThrottleConfig, now func() time.Time) *Throttle {
	if now == nil {
		now = time.Now
	}
	return &Throttle{cfg: cfg.withDefaults(), now: now, keys: make(map[string]*list.Element)}
}

// Allow returns nil when key may try again, or a Forbidden error with reason
// TOO_MANY_ATTEMPTS saying how long to wait.
func (t *Throttle) Allow(key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.keys[key]
	if !ok {
		return nil
	}
	now := t.now()
	until := el.Value.(*throttleEntry).lockedUntil
	if !now.Before(until) {
		return nil
	}
	return TooManyAttempts(until.Sub(now))
}

// Fail records a failed attempt for key.
func (t *Throttle) Fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var e *throttleEntry
	if el, ok := t.keys[key]; ok {
		e = el.Value.(*throttleEntry)
		t.lru.MoveToFront(el)
	} else {
		for len(t.keys) >= t.cfg.MaxKeys {
			t.evictOldest()
		}
		e = &throttleEntry{key: key}
		t.keys[key] = t.lru.PushFront(e)
	}
	if e.strikes > 0 && now.Sub(e.quietSince()) >= t.cfg.Window {
		e.strikes, e.failures = 0, e.failures[:0]
	}
	e.prune(now, t.cfg.Window)
	if len(e.failures) == t.cfg.MaxFailures {
		e.failures = append(e.failures[:0], e.failures[1:]...)
	}
	e.failures = append(e.failures, now)
	if e.strikes > 0 || len(e.failures) >= t.cfg.MaxFailures {
		e.strikes++
		e.lockedUntil = now.Add(t.lockout(e.strikes))
	}
	// Forget a couple of idle keys on the way, so memory follows activity.
	for range 2 {
		back := t.lru.Back()
		if back == nil || back == t.keys[key] || !back.Value.(*throttleEntry).idle(now, t.cfg.Window) {
			break
		}
		t.evictOldest()
	}
}

// Succeed forgets key's failures: called after a successful login for the
// account's email (not for the IP, which may be shared with an attacker).
func (t *Throttle) Succeed(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.keys[key]; ok {
		t.lru.Remove(el)
		delete(t.keys, key)
	}
}

// Len is the number of keys remembered.
func (t *Throttle) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.keys)
}

func (t *Throttle) evictOldest() {
	back := t.lru.Back()
	if back == nil {
		return
	}
	t.lru.Remove(back)
	delete(t.keys, back.Value.(*throttleEntry).key)
}

func (t *Throttle) lockout(strikes int) time.Duration {
	d := t.cfg.BaseLockout
	for i := 1; i < strikes && d < t.cfg.MaxLockout; i++ {
		d *= 2
	}
	return min(d, t.cfg.MaxLockout)
}

func (e *throttleEntry) prune(now time.Time, window time.Duration) {
	cut := 0
	for cut < len(e.failures) && now.Sub(e.failures[cut]) >= window {
		cut++
	}
	e.failures = append(e.failures[:0], e.failures[cut:]...)
}

// quietSince is when the key last failed or its lockout ended, whichever
// is later.
func (e *throttleEntry) quietSince() time.Time {
	var last time.Time
	if n := len(e.failures); n > 0 {
		last = e.failures[n-1]
	}
	if e.lockedUntil.After(last) {
		return e.lockedUntil
	}
	return last
}

// idle reports whether the entry no longer affects anything: unlocked and
// quiet for a whole window.
func (e *throttleEntry) idle(now time.Time, window time.Duration) bool {
	return !now.Before(e.lockedUntil) && now.Sub(e.quietSince()) >= window
}
