package clocktest

import (
	"sync"
	"time"
)

// Skipping is a clock that runs in real time but that a test can move
// forward at once (SkipTo): everything sleeping on it until then wakes.
// The end-to-end tests give it to a whole server (app.Config.ToteClock)
// and close each betting round as soon as their players' bets are in, so
// a round can be long enough that a loaded machine never closes it on the
// players, yet lasts only as long as the betting does. It never goes
// back. Safe for concurrent use.
type Skipping struct {
	mu      sync.Mutex
	skipped time.Duration
	waiters map[*skipWaiter]struct{}
}

type skipWaiter struct {
	at    time.Time
	c     chan time.Time
	timer *time.Timer
}

// NewSkipping returns a clock standing at the wall clock's time.
func NewSkipping() *Skipping {
	return &Skipping{waiters: map[*skipWaiter]struct{}{}}
}

// Now returns the wall clock's time plus every skip so far.
func (c *Skipping) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now()
}

func (c *Skipping) now() time.Time { return time.Now().Add(c.skipped) }

// Until is the time from now to t on this clock.
func (c *Skipping) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

// After returns a channel that receives once d has passed on this clock:
// in real time, or sooner when a skip passes it.
func (c *Skipping) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now()
		return ch
	}
	w := &skipWaiter{at: c.now().Add(d), c: ch}
	c.waiters[w] = struct{}{}
	// Skips only move the clock forward, so in d of real time the clock
	// has passed w.at.
	w.timer = time.AfterFunc(d, func() { c.fire(w) })
	return ch
}

func (c *Skipping) fire(w *skipWaiter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.waiters[w]; ok {
		delete(c.waiters, w)
		w.c <- c.now()
	}
}

// SkipTo moves the clock forward to t (nothing when t is not ahead of it)
// and wakes every sleeper due by then.
func (c *Skipping) SkipTo(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d := t.Sub(c.now()); d > 0 {
		c.skipped += d
	}
	now := c.now()
	for w := range c.waiters {
		if !w.at.After(now) {
			w.timer.Stop()
			delete(c.waiters, w)
			w.c <- now
		}
	}
}
