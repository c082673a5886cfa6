package intake_test

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
	"github.com/pokertote/pokertote/domain/tote/intake"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

// heldBroker records messages; its first Publish waits until released.
type heldBroker struct {
	release chan struct{}
	once    sync.Once
	lockedList[event.UserEvent]
}

// lockedList is a list that goroutines append to and a test reads.
type lockedList[T any] struct {
	mu  sync.Mutex
	got []T
}

func (l *lockedList[T]) add(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, v)
}

func (l *lockedList[T]) all() []T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.got)
}

func (b *heldBroker) Publish(_ context.Context, _ string, data []byte) error {
	b.once.Do(func() { <-b.release })
	e, err := event.DecodeUserEvent(data)
	if err != nil {
		return err
	}
	b.add(e)
	return nil
}

// preDealDraw deals an in-memory table's draw up to its first betting round.
func preDealDraw(t *testing.T) (totetest.Env, *totetest.Harness, tote.Draw) {
	env := totetest.MemEnv(t)
	h := totetest.NewHarness(t, env, 3)
	return env, h, h.RunUntil(h.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
}

// A batch's players' events leave after its answers and behind the events
// of every batch before it: a broker that is slow to take the first batch's
// events holds up neither the answers nor the next batches, and the events
// still arrive in commit order.
func TestBatchEventsLeaveInOrderWithoutHoldingTheIntake(t *testing.T) {
	env, h, draw := preDealDraw(t)
	broker := &heldBroker{release: make(chan struct{})}
	in := intake.New(intake.Config{Store: env.Store, Gate: totetest.AllowAll{}, Publisher: broker, Clock: h.Clock})
	const player = 42
	h.Deposit(player, 1000*money.KZT)
	var (
		betIDs []int64
		placed = make(chan error, 1)
	)
	go func() {
		for i := range 3 {
			bets, errList := in.PlaceBets(context.Background(), []tote.PlaceBetRequest{{UserID: ids.UserID(player), DrawID: draw.ID,
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
	if got := broker.all(); len(got) != 0 {
		t.Fatalf("%d events out before the broker took the first", len(got))
	}
	close(broker.release)
	deadline := time.Now().Add(10 * time.Second)
	for len(broker.all()) < 6 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	got := broker.all()
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

// batchWatch records what the intake tells its observer.
type batchWatch struct{ lockedList[watchedBatch] }

type watchedBatch struct {
	bets         int
	waited, took time.Duration
	failed       bool
}

func (w *batchWatch) BetBatch(bets int, waited, took time.Duration, failed bool) {
	w.add(watchedBatch{bets, waited, took, failed})
}

// The intake's observer hears of every batch once: its size counting the
// refused bets too, its wait and its time, and whether the store failed the
// whole batch.
func TestIntakeObserverHearsOfEveryBatch(t *testing.T) {
	env, h, draw := preDealDraw(t)
	watch := &batchWatch{}
	in := intake.New(intake.Config{Store: env.Store, Gate: totetest.AllowAll{}, Publisher: &totetest.Recorder{}, Clock: h.Clock, Observer: watch})
	const player = 43
	h.Deposit(player, 250*money.KZT)
	bet := func(drawID int64, sel string, stake money.Amount, key string) tote.PlaceBetRequest {
		return tote.PlaceBetRequest{UserID: ids.UserID(player), DrawID: drawID, Market: parimutuel.MarketWin, Selection: sel, Stake: stake, IdempotencyKey: key}
	}
	// One batch of three: two placed, the third short of funds.
	_, errList := in.PlaceBets(context.Background(), []tote.PlaceBetRequest{
		bet(draw.ID, "1", 100*money.KZT, "w-1"), bet(draw.ID, "2", 100*money.KZT, "w-2"), bet(draw.ID, "3", 100*money.KZT, "w-3"),
	})
	if errList[0] != nil || errList[1] != nil || errList[2] == nil {
		t.Fatalf("want two placed and one refused, got %v", errList)
	}
	// A batch on a draw that does not exist fails whole.
	if _, errList := in.PlaceBets(context.Background(), []tote.PlaceBetRequest{bet(draw.ID+1000, "1", 100*money.KZT, "w-4")}); errList[0] == nil {
		t.Fatal("a bet on a missing draw was placed")
	}
	got := watch.all()
	if len(got) != 2 {
		t.Fatalf("observer heard of %d batches, want 2: %+v", len(got), got)
	}
	if b := got[0]; b.bets != 3 || b.failed || b.took <= 0 || b.waited < 0 {
		t.Fatalf("first batch %+v, want 3 bets, not failed, a positive time", b)
	}
	if b := got[1]; b.bets != 1 || !b.failed {
		t.Fatalf("second batch %+v, want 1 bet, failed", b)
	}
}

// heldBatchBroker is a heldBroker that takes batches: it records how many
// events each PublishBatch carried.
// The first send closes entered before it waits.
type heldBatchBroker struct {
	heldBroker
	entered chan struct{}
	sends   lockedList[int]
}

func (b *heldBatchBroker) PublishBatch(ctx context.Context, msgs []event.Message) error {
	b.once.Do(func() {
		close(b.entered)
		<-b.release
	})
	b.sends.add(len(msgs))
	for _, m := range msgs {
		e, err := event.DecodeUserEvent(m.Data)
		if err != nil {
			return err
		}
		b.add(e)
	}
	return nil
}

// The events of the batches that commit while a send is under way leave
// together in the next send, in commit order: one append to the user event
// log and one round trip to the broker for all of them.
func TestBatchEventsWaitingForASendLeaveTogether(t *testing.T) {
	env, h, draw := preDealDraw(t)
	broker := &heldBatchBroker{heldBroker: heldBroker{release: make(chan struct{})}, entered: make(chan struct{})}
	in := intake.New(intake.Config{Store: env.Store, Gate: totetest.AllowAll{}, Publisher: broker, Clock: h.Clock})
	const player = 43
	h.Deposit(player, 1000*money.KZT)
	var betIDs []int64
	for i := range 3 {
		bets, errList := in.PlaceBets(context.Background(), []tote.PlaceBetRequest{{UserID: ids.UserID(player), DrawID: draw.ID,
			Market: parimutuel.MarketWin, Selection: fmt.Sprint(1 + i), Stake: 100 * money.KZT, IdempotencyKey: fmt.Sprintf("together-%d", i)}})
		if errList[0] != nil {
			t.Fatal(errList[0])
		}
		betIDs = append(betIDs, bets[0].ID)
		if i == 0 {
			<-broker.entered // the first batch's events are being sent
		}
	}
	close(broker.release)
	deadline := time.Now().Add(10 * time.Second)
	for len(broker.all()) < 6 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if sends := broker.sends.all(); !slices.Equal(sends, []int{2, 4}) {
		t.Fatalf("sends of %v events, want [2 4] (the first batch's, then the two that waited for it together)", sends)
	}
	got := broker.all()
	for i, id := range betIDs {
		if acc := got[2*i]; acc.Type != event.BetAccepted || acc.BetID != id {
			t.Fatalf("events out of order: %+v", got)
		}
	}
}
