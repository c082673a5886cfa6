package totetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// testJackpotWatched checks the store's tote.JackpotWatch (what the
// lobby's cached jackpot relies on): while the jackpot is topped up, paid
// out and contributed to by a settlement, and turned off, a reader reads it
// over and over; every read made while the watch said, before and after
// it, that no change was under way and the same count of changes had
// ended must find the same jackpot for that count. A change committed
// without Begin before its commit, or counted before its commit, would
// show one count with two jackpots.
func testJackpotWatched(t *testing.T, env Env) {
	if env.WatchJackpot == nil {
		t.Skip("the store has no jackpot watch")
	}
	var w event.Changes
	env.WatchJackpot(&w)
	h := NewHarness(t, env, 3)
	h.Deposit(1, money.Tenge(100_000))
	if n, ok := w.Stable(); !ok || n != 0 {
		t.Fatalf("a table and a deposit: watch at %d, %v; want 0 changes, none under way", n, ok)
	}

	type jackpot struct {
		bal money.Amount
		on  bool
	}
	seen := map[uint64]jackpot{}
	var (
		mu      sync.Mutex
		clean   int
		wrong   []string
		stop    = make(chan struct{})
		stopped = make(chan struct{})
	)
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
			}
			n0, ok0 := w.Stable()
			bal, on, err := h.Svc.Jackpot(context.Background())
			n1, ok1 := w.Stable()
			if err != nil || !ok0 || !ok1 || n0 != n1 {
				continue
			}
			mu.Lock()
			clean++
			got := jackpot{bal, on}
			if first, ok := seen[n0]; !ok {
				seen[n0] = got
			} else if first != got && len(wrong) < 5 {
				wrong = append(wrong, fmt.Sprintf("after %d changes the jackpot read %s (on %v), then %s (on %v)", n0, first.bal, first.on, got.bal, got.on))
			}
			mu.Unlock()
		}
	}()

	// readAt waits until the reader has read the jackpot at the watch's
	// current count, so each change below has a read before it to be
	// compared with.
	readAt := func() {
		t.Helper()
		for range 5000 {
			n, ok := w.Stable()
			mu.Lock()
			_, done := seen[n]
			mu.Unlock()
			if ok && done {
				return
			}
			time.Sleep(time.Millisecond)
		}
		t.Fatal("the reader read nothing at the current count")
	}
	readAt()
	top := money.Tenge(1000)
	if err := h.Svc.JackpotTopUp(h.Ctx, 7, top, "w1"); err != nil {
		t.Fatal(err)
	}
	readAt()
	d := h.RunUntil(h.Dealer, "PRE_DEAL", InPhase(tote.PhasePreDeal))
	for f := 1; f <= 3; f++ { // every coupon: someone takes the jackpot
		for tu := 1; tu <= 3; tu++ {
			h.MustBet(1, d, parimutuel.MarketExpress, itoa(f)+"-"+itoa(tu)+"-1", money.Tenge(100))
		}
	}
	d = h.RunUntil(h.Dealer, "SETTLED", InPhase(tote.PhaseSettled))
	if d.Result.JackpotAfter == top {
		t.Fatalf("the settlement did not move the jackpot (%s)", d.Result.JackpotAfter)
	}
	readAt()
	if err := h.Svc.SetJackpotEnabled(h.Ctx, 7, false); err != nil {
		t.Fatal(err)
	}
	readAt()
	close(stop)
	<-stopped

	n, ok := w.Stable()
	if !ok {
		t.Fatal("a change still under way after every call returned")
	}
	if n < 3 {
		t.Errorf("%d changes counted; want at least 3 (top-up, settlement, jackpot off)", n)
	}
	bal, on, err := h.Svc.Jackpot(h.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if last, ok := seen[n]; ok && last != (jackpot{bal, on}) {
		t.Errorf("after the last change the reader saw %s %v, the store holds %s %v", last.bal, last.on, bal, on)
	}
	for _, s := range wrong {
		t.Error(s)
	}
	t.Logf("%d clean reads over %d counts", clean, len(seen))
}
