package clocktest_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/clocktest"
)

func TestSkippingRunsAndSkips(t *testing.T) {
	c := clocktest.NewSkipping()
	if d := time.Until(c.Now()); d < -time.Second || d > time.Second {
		t.Fatalf("a new clock is %v off the wall clock", d)
	}
	soon := c.After(10 * time.Millisecond)
	late := c.After(time.Hour)
	later := c.After(2 * time.Hour)
	select {
	case <-soon:
	case <-time.After(5 * time.Second):
		t.Fatal("a 10 ms sleep did not wake in real time")
	}
	target := c.Now().Add(time.Hour)
	c.SkipTo(target)
	select {
	case at := <-late:
		if at.Before(target) {
			t.Errorf("woke at %v, before the skip's %v", at, target)
		}
	default:
		t.Fatal("a skip past a sleeper's time did not wake it")
	}
	select {
	case <-later:
		t.Fatal("a skip woke a sleeper due after it")
	default:
	}
	if c.Now().Before(target) {
		t.Errorf("after SkipTo(%v) the clock reads %v", target, c.Now())
	}
	c.SkipTo(target.Add(-time.Minute)) // the past: nothing
	if c.Now().Before(target) {
		t.Error("a skip into the past moved the clock back")
	}
	if d := c.Until(target.Add(time.Hour)); d > time.Hour || d < 59*time.Minute {
		t.Errorf("Until an hour ahead = %v", d)
	}
	if at := <-c.After(0); at.Before(target) {
		t.Errorf("After(0) gave %v, before the clock's time", at)
	}
}
