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
