package event_test

import (
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/pokertote/pokertote/domain/event"
)

// TestSubscribeQueueDeliversInOrderAndDropsAfterAPrefix: a queue
// subscription gets its topic's messages in order, signalled on Ready and
// taken with Take; one that falls its limit behind is closed with
// ErrSlowConsumer and still hands over the in-order prefix that fitted,
// while a roomier subscriber of the same topic keeps everything.
func TestSubscribeQueueDeliversInOrderAndDropsAfterAPrefix(t *testing.T) {
	h := event.NewFanout[int]()
	tight, roomy := h.SubscribeQueue("t", 3), h.SubscribeQueue("t", 100)
	other := h.SubscribeQueue("u", 100)
	h.DeliverBatch("t", []int{1, 2})
	<-tight.Ready()
	if got := tight.Take(nil); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("took %v, want [1 2]", got)
	}
	h.DeliverBatch("t", []int{3, 4})
	h.Deliver("t", 5)
	h.DeliverBatch("t", []int{6, 7})
	<-tight.Done()
	if !errors.Is(tight.Err(), event.ErrSlowConsumer) {
		t.Fatalf("tight: err %v, want ErrSlowConsumer", tight.Err())
	}
	if got := tight.Take(nil); len(got) != 3 || got[0] != 3 || got[2] != 5 {
		t.Fatalf("tight's prefix %v, want [3 4 5]", got)
	}
	if got := roomy.Take(nil); len(got) != 7 || got[0] != 1 || got[6] != 7 || roomy.Err() != nil {
		t.Fatalf("roomy took %v (err %v), want 1..7", got, roomy.Err())
	}
	if n := other.Waiting(); n != 0 {
		t.Fatalf("another topic's subscriber holds %d", n)
	}
	select {
	case <-other.Ready():
		t.Fatal("another topic's subscriber was signalled")
	default:
	}
	if n := h.Subscribers("t"); n != 1 {
		t.Fatalf("%d subscribers of t left, want 1 (roomy)", n)
	}
}

// TestSubscribeQueueHoldsNoBufferAtRest: 10,000 idle queue subscriptions
// take far less memory than 10,000 channel subscriptions of the same
// limit (whose buffers are allocated when they are made), and a burst's
// array is let go once taken.
func TestSubscribeQueueHoldsNoBufferAtRest(t *testing.T) {
	const n, limit = 10000, 128
	heap := func(subscribe func(h *event.Fanout[*int], topic string) *event.Sub[*int]) uint64 {
		h := event.NewFanout[*int]()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		subs := make([]*event.Sub[*int], n)
		for i := range subs {
			subs[i] = subscribe(h, "t")
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(subs)
		return (after.HeapAlloc - before.HeapAlloc) / n
	}
	queued := heap(func(h *event.Fanout[*int], topic string) *event.Sub[*int] { return h.SubscribeQueue(topic, limit) })
	buffered := heap(func(h *event.Fanout[*int], topic string) *event.Sub[*int] { return h.Subscribe(topic, limit) })
	t.Logf("bytes per idle subscription: queue %d, channel of %d %d", queued, limit, buffered)
	if queued+limit*8/2 > buffered {
		t.Fatalf("an idle queue subscription takes %d bytes, a channel one %d: want at least half the channel's buffer (%d bytes) less", queued, buffered, limit*8)
	}

	h := event.NewFanout[int]()
	s := h.SubscribeQueue("t", limit)
	burst := make([]int, 100)
	h.DeliverBatch("t", burst)
	if got := s.Take(nil); len(got) != len(burst) {
		t.Fatalf("took %d of the burst's %d", len(got), len(burst))
	}
	if w := s.Waiting(); w != 0 {
		t.Fatalf("%d still waiting after Take", w)
	}
}

// TestSubscribeQueueConcurrentDeliverTakeClose: deliveries from several
// goroutines, a taker and a close race (run with -race); every message a
// delivery handed over is taken once, in each deliverer's order.
func TestSubscribeQueueConcurrentDeliverTakeClose(t *testing.T) {
	h := event.NewFanout[[2]int]()
	s := h.SubscribeQueue("t", 1<<20)
	const writers, each = 4, 2000
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				h.Deliver("t", [2]int{w, i})
			}
		}()
	}
	next := make([]int, writers)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var buf [][2]int
		for {
			buf = s.Take(buf[:0])
			for _, m := range buf {
				if m[1] != next[m[0]] {
					t.Errorf("writer %d: got %d, want %d", m[0], m[1], next[m[0]])
					return
				}
				next[m[0]]++
			}
			select {
			case <-s.Ready():
			case <-s.Done():
				if s.Waiting() == 0 {
					return
				}
			}
		}
	}()
	wg.Wait()
	s.Close()
	<-done
	for w, n := range next {
		if n != each {
			t.Errorf("writer %d: %d of %d taken", w, n, each)
		}
	}
}
