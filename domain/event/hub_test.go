package event_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pokertote/pokertote/domain/event"
)

func TestHubFansOutByTopic(t *testing.T) {
	h := event.NewHub()
	a := h.Subscribe("table:1", 4)
	b := h.Subscribe("table:1", 4)
	other := h.Subscribe("table:2", 4)
	h.Deliver("table:1", []byte("x"))
	for _, s := range []*event.Subscription{a, b} {
		if got := string(<-s.C); got != "x" {
			t.Fatalf("got %q, want x", got)
		}
	}
	select {
	case m := <-other.C:
		t.Fatalf("table:2 subscriber got %q", m)
	default:
	}
}

func TestHubDropsSlowSubscriberWithoutBlockingOthers(t *testing.T) {
	h := event.NewHub()
	slow := h.Subscribe("t", 1)
	fast := h.Subscribe("t", 100)
	for i := 0; i < 10; i++ {
		h.Deliver("t", []byte(fmt.Sprint(i)))
	}
	<-slow.Done()
	if !errors.Is(slow.Err(), event.ErrSlowConsumer) {
		t.Fatalf("slow subscriber error = %v, want ErrSlowConsumer", slow.Err())
	}
	if got := len(fast.C); got != 10 {
		t.Fatalf("fast subscriber has %d messages, want 10", got)
	}
	if n := h.Subscribers("t"); n != 1 {
		t.Fatalf("%d subscribers left, want 1", n)
	}
}

func TestHubConcurrentDeliverAndClose(t *testing.T) {
	h := event.NewHub()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				s := h.Subscribe("t", 2)
				if j%2 == 0 {
					s.Close()
				}
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				h.Deliver("t", []byte("m"))
			}
		}()
	}
	wg.Wait()
	h.Close()
	s := h.Subscribe("t", 1)
	<-s.Done()
	if !errors.Is(s.Err(), event.ErrHubClosed) {
		t.Fatalf("subscribe after close: err = %v", s.Err())
	}
}

// BenchmarkHubDeliver1000 measures one event fanned out to 1,000 local
// subscribers (each drained by its own goroutine, as subscriptions are).
func BenchmarkHubDeliver1000(b *testing.B) {
	h := event.NewHub()
	var wg sync.WaitGroup
	for i := 0; i < 1000; i++ {
		s := h.Subscribe("t", 1024)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range s.C {
			}
		}()
	}
	msg := []byte(`{"seq":1}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.Deliver("t", msg)
	}
	b.StopTimer()
	h.Close()
	wg.Wait()
}

func TestSubscribeFuncRunsInTheDeliveringGoroutine(t *testing.T) {
	h := event.NewHub()
	var got []string
	calls := 0
	fs := h.SubscribeFunc("t", func(ms [][]byte) { // no lock: called in Deliver
		calls++
		for _, m := range ms {
			got = append(got, string(m))
		}
	})
	cs := h.Subscribe("t", 4)
	other := h.SubscribeFunc("u", func([][]byte) { t.Error("a message of another topic") })
	h.Deliver("t", []byte("a"))
	h.DeliverBatch("t", [][]byte{[]byte("b"), []byte("c")})
	if calls != 2 || len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "c" {
		t.Fatalf("the func subscriber got %q in %d calls when Deliver returned, want a, b, c in 2", got, calls)
	}
	if len(cs.C) != 3 {
		t.Errorf("the channel subscriber holds %d messages, want 3", len(cs.C))
	}
	if n := h.Subscribers("t"); n != 2 {
		t.Errorf("Subscribers = %d, want 2", n)
	}
	fs.Close()
	<-fs.Done()
	h.Deliver("t", []byte("d"))
	if len(got) != 3 {
		t.Errorf("called after Close: %q", got)
	}
	h.Close()
	<-other.Done()
	if !errors.Is(other.Err(), event.ErrHubClosed) {
		t.Errorf("func subscription after hub close: err = %v", other.Err())
	}
}

func TestDeliverBatchDropsASubscriberWithoutRoomAfterAPrefix(t *testing.T) {
	h := event.NewHub()
	roomy, tight := h.Subscribe("t", 3), h.Subscribe("t", 2)
	h.DeliverBatch("t", [][]byte{[]byte("1"), []byte("2"), []byte("3")})
	<-tight.Done()
	if !errors.Is(tight.Err(), event.ErrSlowConsumer) {
		t.Fatalf("tight: err = %v, want ErrSlowConsumer", tight.Err())
	}
	var prefix []string
	for m := range tight.C {
		prefix = append(prefix, string(m))
	}
	if len(prefix) != 2 || prefix[0] != "1" || prefix[1] != "2" {
		t.Errorf("tight got %q before it was dropped, want 1, 2", prefix)
	}
	if len(roomy.C) != 3 || roomy.Err() != nil {
		t.Errorf("roomy holds %d (err %v), want all 3", len(roomy.C), roomy.Err())
	}
}
