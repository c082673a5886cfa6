package tote

import (
	"sync"
	"time"
)

// FakeClock is a Clock that moves only when told: tests drive the dealer
// through a whole draw in microseconds. It is safe for concurrent use.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	changed chan struct{} // closed and replaced whenever a waiter is added
}

type fakeWaiter struct {
	at time.Time
	c  chan time.Time
}

// NewFakeClock returns a clock standing at t.
func NewFakeClock(t time.Time) *FakeClock {
	return &FakeClock{now: t, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives when the clock has been advanced by
// at least d.
func (c *FakeClock) After(d time.Duration) <-chan time.Time {
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
func (c *FakeClock) Advance(d time.Duration) {
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
func (c *FakeClock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// Changed returns a channel closed the next time a waiter is added, so a
// test can wait for a goroutine to go to sleep on the clock.
func (c *FakeClock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}
