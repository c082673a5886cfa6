// Package clocktest holds the settable clocks of tests. Clock stands still
// until Advance moves it: code that takes a `now func() time.Time` gets
// clock.Now; code that sleeps on a clock (tote.Clock: Now and After) gets
// the clock itself, and the test drives it through a whole draw in
// microseconds. Skipping (skipping.go) runs in real time until the test
// skips it forward, for whole servers. Both are safe for concurrent use.
package clocktest

import (
	"sync"
	"time"
)

// Clock moves only when told.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	changed chan struct{} // closed and replaced whenever a waiter is added
}

type fakeWaiter struct {
	at time.Time
	c  chan time.Time
}

// New returns a clock standing at t.
func New(t time.Time) *Clock {
	return &Clock{now: t, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives when the clock has been advanced by
// at least d.
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{at: c.now.Add(d), c: ch})
	close(c.changed)
	c.changed = make(chan struct{})
	return ch
}

// Advance moves the clock forward by d and fires every waiter due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(c.now) {
			w.c <- c.now
			continue
		}
		kept = append(kept, w)
	}
	c.waiters = kept
}

// Waiters reports how many After channels have not fired yet.
func (c *Clock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// Changed returns a channel closed the next time a waiter is added, so a
// test can wait for a goroutine to go to sleep on the clock.
func (c *Clock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}
