package event_test

import (
	"sync"
	"testing"

	"github.com/pokertote/pokertote/domain/event"
)

func TestChangesStableOnlyWithNoneUnderWay(t *testing.T) {
	var c event.Changes
	if n, ok := c.Stable(); !ok || n != 0 {
		t.Fatalf("new: Stable() = %d, %v; want 0, true", n, ok)
	}
	c.Begin()
	if _, ok := c.Stable(); ok {
		t.Fatal("Stable while a change is under way")
	}
	c.Begin()
	c.End()
	if _, ok := c.Stable(); ok {
		t.Fatal("Stable while the second of two changes is under way")
	}
	c.End()
	if n, ok := c.Stable(); !ok || n != 2 {
		t.Fatalf("after two changes: Stable() = %d, %v; want 2, true", n, ok)
	}
}

func TestChangesCountsConcurrentChanges(t *testing.T) {
	var c event.Changes
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				c.Begin()
				c.End()
			}
		}()
	}
	wg.Wait()
	if n, ok := c.Stable(); !ok || n != 8000 {
		t.Fatalf("Stable() = %d, %v; want 8000, true", n, ok)
	}
}
