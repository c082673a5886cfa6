// Package event carries live events (cards dealt, rounds opened, pools and
// balances changed) from whichever replica produced them to every client
// watching on this replica.
//
// Producers publish through a Broker (in-process, or Redis pub/sub across
// replicas). Each process has exactly one broker subscription, which feeds a
// local Hub; the Hub fans messages out to per-client subscriptions. A client
// that cannot keep up is dropped, never waited for: its subscription is closed
// with ErrSlowConsumer, and because table events carry sequence numbers the
// client reconnects with its last number and catches up from the outbox.
package event

import (
	"context"
	"errors"
	"sync"
)

// Publisher sends a message on a topic to every replica.
type Publisher interface {
	Publish(ctx context.Context, topic string, data []byte) error
}

// ErrSlowConsumer closes a subscription whose buffer was full when a message
// arrived.
var ErrSlowConsumer = errors.New("event: subscriber too slow, dropped")

// ErrHubClosed closes subscriptions when the hub shuts down.
var ErrHubClosed = errors.New("event: hub closed")

// Hub fans broker messages (bytes) out to local subscribers by topic.
type Hub = Fanout[[]byte]

// Subscription is a Hub subscriber.
type Subscription = Sub[[]byte]

// NewHub returns an empty hub.
func NewHub() *Hub { return NewFanout[[]byte]() }

// Fanout fans messages of type T out to local subscribers by topic: the
// Hub carries broker bytes, and a process decodes each message once and
// fans the decoded value out through another Fanout. It is safe for
// concurrent use; Deliver never blocks on a subscriber.
type Fanout[T any] struct {
	mu     sync.RWMutex
	topics map[string]map[*Sub[T]]struct{}
	closed bool
}

// NewFanout returns an empty fan-out.
func NewFanout[T any]() *Fanout[T] {
	return &Fanout[T]{topics: make(map[string]map[*Sub[T]]struct{})}
}

// Sub receives the messages of one topic on C until it is closed; then Err
// tells why. A subscription made by SubscribeFunc has no C, nor one made
// by SubscribeQueue (its messages are taken with Take).
type Sub[T any] struct {
	C     <-chan T
	c     chan T
	fn    func([]T)
	hub   *Fanout[T]
	topic string
	once  sync.Once
	mu    sync.Mutex
	err   error
	done  chan struct{}

	// A queue subscription's messages (SubscribeQueue), under mu: at most
	// max, held in a slice that grows as they arrive and is let go once
	// taken, and ready, signalled when some arrive.
	queue []T
	max   int
	ready chan struct{}
}

// Subscribe registers a subscriber to topic with room for buffer messages.
func (h *Fanout[T]) Subscribe(topic string, buffer int) *Sub[T] {
	if buffer < 1 {
		buffer = 1
	}
	c := make(chan T, buffer)
	return h.add(&Sub[T]{C: c, c: c, hub: h, topic: topic, done: make(chan struct{})})
}

// SubscribeQueue registers a subscriber to topic that holds up to limit
// messages, like Subscribe's buffer, but takes memory for them only while
// they wait: a channel's buffer is allocated whole when it is made, and a
// table with 10,000 viewers keeps 10,000 of them, nearly always empty.
// The subscriber waits on Ready (or Done) and takes what arrived with
// Take; when it falls limit messages behind it is closed with
// ErrSlowConsumer, after the in-order prefix that fitted.
func (h *Fanout[T]) SubscribeQueue(topic string, limit int) *Sub[T] {
	return h.add(&Sub[T]{hub: h, topic: topic, max: max(limit, 1), ready: make(chan struct{}, 1), done: make(chan struct{})})
}

// add registers s (closed at once when the fan-out is).
func (h *Fanout[T]) add(s *Sub[T]) *Sub[T] {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		s.closeLocked(ErrHubClosed)
		return s
	}
	subs := h.topics[s.topic]
	if subs == nil {
		subs = make(map[*Sub[T]]struct{})
		h.topics[s.topic] = subs
	}
	subs[s] = struct{}{}
	return s
}

// SubscribeFunc registers fn to be called with the messages of topic, in
// the goroutine that delivers them (a batch from DeliverBatch at once,
// else one at a time), until the subscription is closed (a call may still
// follow Close by one delivery). fn must not block, nor modify or keep the
// slice: it runs in the publisher's stead. Deliveries made concurrently
// reach fn concurrently. The read model takes table events this way, so
// that an event is folded and handed to its subscribers without waiting
// for a goroutine of its own to be scheduled.
func (h *Fanout[T]) SubscribeFunc(topic string, fn func([]T)) *Sub[T] {
	return h.add(&Sub[T]{fn: fn, hub: h, topic: topic, done: make(chan struct{})})
}

// Deliver hands data to every subscriber of topic. A subscriber whose buffer
// is full is closed with ErrSlowConsumer. Subscribers by SubscribeFunc are
// called once the others have it.
func (h *Fanout[T]) Deliver(topic string, data T) {
	h.DeliverBatch(topic, []T{data})
}

// DeliverBatch hands items, in order, to every subscriber of topic: each
// subscriber's share goes into its buffer in one go, so a subscriber's
// goroutine wakes once for the batch (events committed together reach
// each subscriber together, not one whole fan-out after another). A
// subscriber without room for all of them is closed with ErrSlowConsumer
// after an in-order prefix. Subscribers by SubscribeFunc are called with
// items once the others have them.
func (h *Fanout[T]) DeliverBatch(topic string, items []T) {
	if len(items) == 0 {
		return
	}
	var slow []*Sub[T]
	var fns []func([]T)
	h.mu.RLock()
	for s := range h.topics[topic] {
		if s.fn != nil {
			fns = append(fns, s.fn)
			continue
		}
		if s.ready != nil {
			if !s.enqueue(items) {
				slow = append(slow, s)
			}
			continue
		}
	items:
		for _, it := range items {
			select {
			case s.c <- it:
			default:
				slow = append(slow, s)
				break items
			}
		}
	}
	h.mu.RUnlock()
	for _, s := range slow {
		s.close(ErrSlowConsumer)
	}
	for _, fn := range fns {
		fn(items)
	}
}

// Subscribers reports how many subscriptions topic has (for metrics and tests).
func (h *Fanout[T]) Subscribers(topic string) int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.topics[topic])
}

// Close closes every subscription with ErrHubClosed.
func (h *Fanout[T]) Close() {
	h.mu.Lock()
	h.closed = true
	var all []*Sub[T]
	for _, subs := range h.topics {
		for s := range subs {
			all = append(all, s)
		}
	}
	h.mu.Unlock()
	for _, s := range all {
		s.close(ErrHubClosed)
	}
}

// enqueue adds items to a queue subscription, as many as fit, and
// signals Ready; it reports whether all of them fitted.
func (s *Sub[T]) enqueue(items []T) bool {
	s.mu.Lock()
	n := min(len(items), s.max-len(s.queue))
	s.queue = append(s.queue, items[:n]...)
	s.mu.Unlock()
	if n > 0 {
		select {
		case s.ready <- struct{}{}:
		default: // already signalled
		}
	}
	return n == len(items)
}

// Ready is signalled when messages arrive for a SubscribeQueue
// subscription: Take them all, then wait again. (nil for other kinds.)
func (s *Sub[T]) Ready() <-chan struct{} { return s.ready }

// Take appends the messages waiting on a SubscribeQueue subscription to
// dst, in order, and returns it; they are no longer held by s. After the
// subscription is closed the messages that arrived before are still taken.
func (s *Sub[T]) Take(dst []T) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	dst = append(dst, s.queue...)
	clear(s.queue)
	s.queue = s.queue[:0]
	if cap(s.queue) > queueKeep {
		s.queue = nil // a burst's array is let go
	}
	return dst
}

// Waiting counts the messages waiting on a SubscribeQueue subscription.
func (s *Sub[T]) Waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// queueKeep is the capacity a queue subscription keeps once emptied.
const queueKeep = 8

// Close unsubscribes; C is closed and Err returns nil.
func (s *Sub[T]) Close() { s.close(nil) }

// Done is closed when the subscription ends.
func (s *Sub[T]) Done() <-chan struct{} { return s.done }

// Err reports why the subscription ended: nil after Close, ErrSlowConsumer
// or ErrHubClosed otherwise.
func (s *Sub[T]) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *Sub[T]) close(err error) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.closeLocked(err)
}

// closeLocked must be called with the hub's write lock held, so that no
// Deliver is sending on the channel while it is closed.
func (s *Sub[T]) closeLocked(err error) {
	s.once.Do(func() {
		if subs := s.hub.topics[s.topic]; subs != nil {
			delete(subs, s)
			if len(subs) == 0 {
				delete(s.hub.topics, s.topic)
			}
		}
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
		if s.c != nil {
			close(s.c)
		}
		close(s.done)
	})
}
