package wstransport

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestDrainSpreadsClosesInOrder: n connections close in the order they were
// registered, one batch per step, the steps adding up to the window less
// half a step: the i-th at (i+½)·window/n. A connection with an operation
// in flight closes only once it has answered, and refuses new operations
// from its turn on; a connection registered once draining has begun is
// refused.
func TestDrainSpreadsClosesInOrder(t *testing.T) {
	var mu sync.Mutex
	var closed []int
	var steps []time.Duration
	d := NewDrain()
	step := make(chan struct{})
	d.Pace = func(ctx context.Context, s time.Duration) bool {
		mu.Lock()
		steps = append(steps, s)
		mu.Unlock()
		<-step
		return true
	}
	const n = 4
	hs := make([]*drainHandle, n)
	for i := range n {
		h, ok := d.register(func(code int, reason string) {
			if code != CloseServiceRestart || reason != ReasonDraining {
				t.Errorf("closed with %d %q", code, reason)
			}
			mu.Lock()
			closed = append(closed, i)
			mu.Unlock()
		})
		if !ok {
			t.Fatal("refused before draining")
		}
		hs[i] = h
	}
	if !hs[1].opStart() { // connection 1 has a mutation in flight
		t.Fatal("an operation was refused before draining")
	}
	done := make(chan DrainReport)
	go func() { done <- d.Drain(context.Background(), 800*time.Millisecond) }()
	closedNow := func() []int {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(closed)
	}
	waitFor := func(want []int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !slices.Equal(closedNow(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("closed %v, want %v", closedNow(), want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for !d.Draining() {
		time.Sleep(time.Millisecond)
	}
	if _, ok := d.register(func(int, string) {}); ok {
		t.Error("a connection was registered while draining")
	}
	if len(closedNow()) != 0 {
		t.Fatalf("closed %v before the first step", closedNow())
	}
	step <- struct{}{} // connection 0's turn
	waitFor([]int{0})
	step <- struct{}{} // connection 1's turn: it waits for its operation
	step <- struct{}{} // connection 2 closes meanwhile
	waitFor([]int{0, 2})
	for closing := false; !closing; {
		hs[1].mu.Lock()
		closing = hs[1].closing
		hs[1].mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	if hs[1].opStart() {
		t.Error("a new operation ran on a connection whose turn has come")
	}
	hs[1].opDone() // the mutation answered: now it closes
	waitFor([]int{0, 2, 1})
	step <- struct{}{}
	rep := <-done
	waitFor([]int{0, 2, 1, 3})
	if rep.Closed != n || rep.Waited != 1 {
		t.Errorf("report %+v, want %d closed, 1 waited for", rep, n)
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 200 * time.Millisecond, 200 * time.Millisecond}
	if !slices.Equal(steps, want) {
		t.Errorf("steps %v, want %v", steps, want)
	}
	if d.Len() != 0 {
		t.Errorf("%d connections still registered", d.Len())
	}
}

// TestDrainBatchesManyConnections: with more connections than the window
// has minimum steps, each step closes several and every one is closed.
func TestDrainBatchesManyConnections(t *testing.T) {
	d := NewDrain()
	var steps int
	d.Pace = func(context.Context, time.Duration) bool { steps++; return true }
	var mu sync.Mutex
	closed := 0
	const n = 1000
	for range n {
		d.register(func(int, string) { mu.Lock(); closed++; mu.Unlock() })
	}
	rep := d.Drain(context.Background(), time.Second) // 1 ms apart: below the 5 ms step
	if closed != n || rep.Closed != n {
		t.Errorf("closed %d (report %d) of %d", closed, rep.Closed, n)
	}
	if want := int(time.Second / minDrainStep); steps > want || steps < want-1 {
		t.Errorf("%d steps, want about %d", steps, want)
	}
}
