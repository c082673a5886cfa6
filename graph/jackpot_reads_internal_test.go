package graph

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/graph/model"
)

// Callers asking while a read is in flight share it, each gets its own
// copy, and a caller after it finished starts a new read.
func TestJackpotReadsShareTheReadInFlight(t *testing.T) {
	var r jackpotReads
	var loads atomic.Int32
	release, began := make(chan struct{}), make(chan struct{}, 100)
	load := func(context.Context) (*model.Jackpot, error) {
		loads.Add(1)
		began <- struct{}{}
		<-release
		return &model.Jackpot{Enabled: true}, nil
	}
	const n = 20
	got := make([]*model.Jackpot, n)
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started.Done()
			jp, err := r.read(context.Background(), load)
			if err != nil {
				t.Error(err)
			}
			got[i] = jp
		}()
	}
	started.Wait()
	<-began
	time.Sleep(20 * time.Millisecond) // the others join the read in flight
	close(release)
	wg.Wait()
	if l := loads.Load(); l >= n {
		t.Fatalf("%d loads for %d callers: none shared", l, n)
	}
	for i := 1; i < n; i++ {
		if got[i] == got[0] {
			t.Fatal("two callers share one jackpot value")
		}
	}
	before := loads.Load()
	if _, err := r.read(context.Background(), load); err != nil {
		t.Fatal(err)
	}
	if loads.Load() != before+1 {
		t.Fatal("a read after the shared one finished did not load again")
	}
}

// A caller that asks while a read is in flight never gets that read's
// answer: it gets one read that began after it asked.
func TestJackpotReadsNeverAnswerFromBeforeTheCall(t *testing.T) {
	var r jackpotReads
	var loads atomic.Int64
	began := make(chan int64, 10)
	release := make(chan struct{})
	load := func(context.Context) (*model.Jackpot, error) {
		n := loads.Add(1)
		began <- n
		<-release
		return &model.Jackpot{Balance: model.Money(n)}, nil
	}
	first := make(chan *model.Jackpot, 1)
	go func() {
		jp, err := r.read(context.Background(), load)
		if err != nil {
			t.Error(err)
		}
		first <- jp
	}()
	if n := <-began; n != 1 {
		t.Fatalf("first load is number %d", n)
	}
	// Read 1 is in flight: these callers ask now, after it began.
	const n = 10
	got := make(chan *model.Jackpot, n)
	for range n {
		go func() {
			jp, err := r.read(context.Background(), load)
			if err != nil {
				t.Error(err)
			}
			got <- jp
		}()
	}
	time.Sleep(20 * time.Millisecond) // they wait for the next read
	close(release)
	if jp := <-first; jp.Balance != 1 {
		t.Fatalf("the first caller got read %v", jp.Balance)
	}
	for range n {
		if jp := <-got; jp.Balance != 2 {
			t.Fatalf("a caller that asked during read 1 got read %v, want 2 (begun after it asked)", jp.Balance)
		}
	}
	if l := loads.Load(); l != 2 {
		t.Fatalf("%d loads, want 2 (the one in flight and one shared by the %d callers after it)", l, n)
	}
}

// A caller that leaves does not fail the read for the others.
func TestJackpotReadsCallerLeaving(t *testing.T) {
	var r jackpotReads
	release := make(chan struct{})
	load := func(ctx context.Context) (*model.Jackpot, error) {
		<-release
		return &model.Jackpot{Enabled: true}, ctx.Err()
	}
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() {
		_, err := r.read(ctx, load)
		left <- err
	}()
	time.Sleep(10 * time.Millisecond)
	other := make(chan error, 1)
	go func() {
		_, err := r.read(context.Background(), load)
		other <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-left; err == nil {
		t.Fatal("the caller that left got no error")
	}
	close(release)
	if err := <-other; err != nil {
		t.Fatalf("the other caller failed: %v", err)
	}
}
