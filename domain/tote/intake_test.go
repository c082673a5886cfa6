package tote_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// heldBroker records messages; its first Publish waits until released.
type heldBroker struct {
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	got     []event.UserEvent
}

func (b *heldBroker) Publish(_ context.Context, _ string, data []byte) error {
	b.once.Do(func() { <-b.release })
	e, err := event.DecodeUserEvent(data)
	if err != nil {
		return err
	}
	b.mu.Lock()
	b.got = append(b.got, e)
	b.mu.Unlock()
	return nil
}

func (b *heldBroker) events() []event.UserEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.got)
}

// A batch's players' events leave after its answers and behind the events
// of every batch before it: a broker that is slow to take the first batch's
// events holds up neither the answers nor the next batches, and the events
// still arrive in commit order.
func TestBatchEventsLeaveInOrderWithoutHoldingTheIntake(t *testing.T) {
	env := totetest.MemEnv(t)
	h := totetest.NewHarness(t, env, 3)
	draw := h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	broker := &heldBroker{release: make(chan struct{})}
	svc, err := tote.NewService(tote.Config{Store: env.Store, Ledger: env.Ledger, Gate: totetest.AllowAll{}, Publisher: broker, Clock: h.Clock, Beacon: h.Beacon()})
	if err != nil {
		t.Fatal(err)
	}
	const player = 42
	h.Deposit(player, 1000*money.KZT)
	var (
		betIDs []int64
		placed = make(chan error, 1)
	)
	go func() {
		for i := range 3 {
			bets, errList := svc.PlaceBets(context.Background(), []tote.PlaceBetRequest{{UserID: ids.UserID(player), DrawID: draw.ID,
				Market: parimutuel.MarketWin, Selection: fmt.Sprint(1 + i), Stake: 100 * money.KZT, IdempotencyKey: fmt.Sprintf("ordered-%d", i)}})
			if errList[0] != nil {
				placed <- errList[0]
				return
			}
			betIDs = append(betIDs, bets[0].ID)
		}
		placed <- nil
	}()
	select {
	case err := <-placed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(broker.release)
		t.Fatal("the answers waited for the broker")
	}
	// All three answered while the broker still holds the first event.
	if got := broker.events(); len(got) != 0 {
		t.Fatalf("%d events out before the broker took the first", len(got))
	}
	close(broker.release)
	deadline := time.Now().Add(10 * time.Second)
	for len(broker.events()) < 6 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := broker.events()
	if len(got) != 6 {
		t.Fatalf("%d events, want 6", len(got))
	}
	for i, id := range betIDs {
		acc, bal := got[2*i], got[2*i+1]
		if acc.Type != event.BetAccepted || acc.BetID != id || bal.Type != event.BalanceChanged || bal.Balance != int64(1000-100*(i+1))*int64(money.KZT) {
			t.Fatalf("events out of order: %+v", got)
		}
	}
}
