package apikey

import (
	"context"
	"sync"
	"time"
)

// Window is the period a key's PerMinute counts over.
const Window = time.Minute

// Limiter decides whether a key may make one more request. Replicas behind
// one load balancer must share it (the Redis one), else each replica would
// allow the whole rate.
type Limiter interface {
	// Allow takes cost (an operation's requested cost, at least 1) from
	// the key's allowance of perMinute per Window. A cost above perMinute
	// never passes.
	Allow(ctx context.Context, keyID string, perMinute, cost int) (Decision, error)
}

// Decision is a Limiter's answer, with what the quota headers say.
type Decision struct {
	OK bool
	// RetryAfter, when refused, is when the cost will pass.
	RetryAfter time.Duration
	// Remaining is the cost the key may still spend now (after this
	// request, when it passed).
	Remaining int
	// Reset is how long until the whole allowance is back.
	Reset time.Duration
}

// decide is the Decision of a request with the key's theoretical arrival
// time tat (after the request) at now.
func decide(ok bool, retry time.Duration, now, tat time.Time, perMinute int) Decision {
	return DecisionAt(ok, retry, tat.Sub(now), perMinute)
}

// DecisionAt is the Decision of a request whose key's allowance is whole
// again in reset (its theoretical arrival time less now).
func DecisionAt(ok bool, retry, reset time.Duration, perMinute int) Decision {
	reset = max(reset, 0)
	interval := Window / time.Duration(perMinute)
	return Decision{OK: ok, RetryAfter: retry, Reset: reset, Remaining: max(int((Window-reset)/interval), 0)}
}

// GCRA is the generic cell rate algorithm shared by both limiters: each
// request moves the key's theoretical arrival time (tat) on by
// Window/perMinute; a request passes while tat stays within one Window of
// now, so a quiet key may spend its whole minute's allowance in a burst and
// then gets one request every Window/perMinute. A request of cost n counts
// as n requests.
func GCRA(now, tat time.Time, perMinute, cost int) (newTAT time.Time, ok bool, retryAfter time.Duration) {
	interval := Window / time.Duration(perMinute)
	if tat.Before(now) {
		tat = now
	}
	newTAT = tat.Add(interval * time.Duration(max(cost, 1)))
	if allowAt := newTAT.Add(-Window); now.Before(allowAt) {
		return tat, false, allowAt.Sub(now)
	}
	return newTAT, true, 0
}

// MemLimiter is the in-process Limiter of a single replica (the embedded
// default, without Redis).
type MemLimiter struct {
	mu  sync.Mutex
	now func() time.Time
	tat map[string]time.Time
}

// NewMemLimiter returns an in-process limiter on the clock now (nil:
// time.Now).
func NewMemLimiter(now func() time.Time) *MemLimiter {
	if now == nil {
		now = time.Now
	}
	return &MemLimiter{now: now, tat: map[string]time.Time{}}
}

// Allow implements Limiter.
func (l *MemLimiter) Allow(_ context.Context, keyID string, perMinute, cost int) (Decision, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	tat, ok, retry := GCRA(now, l.tat[keyID], perMinute, cost)
	l.tat[keyID] = tat
	if len(l.tat) > 10000 { // forget keys whose allowance is whole again
		for id, t := range l.tat {
			if !t.After(now) {
				delete(l.tat, id)
			}
		}
	}
	return decide(ok, retry, now, tat, perMinute), nil
}
