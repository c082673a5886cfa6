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
	// Allow takes cost requests (one request's root fields, so that
	// aliases do not multiply the allowance; at least 1) from the key's
	// allowance of perMinute per Window. When refused, retryAfter says when
	// that cost will pass. A cost above perMinute never passes.
	Allow(ctx context.Context, keyID string, perMinute, cost int) (ok bool, retryAfter time.Duration, err error)
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
func (l *MemLimiter) Allow(_ context.Context, keyID string, perMinute, cost int) (bool, time.Duration, error) {
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
	return ok, retry, nil
}
