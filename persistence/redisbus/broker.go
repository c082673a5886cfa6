package redisbus

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/domain/event"
)

// MemoryBroker is the in-process broker of the embedded default: a publish
// is delivered straight to the local hub.
type MemoryBroker struct {
	hub *event.Hub
}

var _ event.Publisher = (*MemoryBroker)(nil)

// NewMemoryBroker returns a broker that delivers to hub.
func NewMemoryBroker(hub *event.Hub) *MemoryBroker { return &MemoryBroker{hub: hub} }

// Publish delivers data to the hub's subscribers of topic.
func (b *MemoryBroker) Publish(_ context.Context, topic string, data []byte) error {
	b.hub.Deliver(topic, data)
	return nil
}

var _ event.BatchPublisher = (*MemoryBroker)(nil)

// PublishBatch delivers msgs in order, each run of one topic as one batch
// (DeliverBatch: a dealer's step's events reach each subscriber together).
func (b *MemoryBroker) PublishBatch(_ context.Context, msgs []event.Message) error {
	for i := 0; i < len(msgs); {
		j := i + 1
		for j < len(msgs) && msgs[j].Topic == msgs[i].Topic {
			j++
		}
		batch := make([][]byte, 0, j-i)
		for _, m := range msgs[i:j] {
			batch = append(batch, m.Data)
		}
		b.hub.DeliverBatch(msgs[i].Topic, batch)
		i = j
	}
	return nil
}

// Broker publishes through Redis pub/sub so that every replica sees every
// event. Each process holds one pattern subscription that feeds its hub.
type Broker struct {
	client redis.UniversalClient
	hub    *event.Hub
	prefix string
	log    *slog.Logger

	ready     chan struct{}
	readyOnce sync.Once
	// up is true while the subscription is confirmed and reading: messages
	// published elsewhere reach this replica.
	up atomic.Bool
}

var _ event.Publisher = (*Broker)(nil)

// NewBroker returns a broker over client; prefix namespaces the channels
// (several deployments, or test packages, can share one Redis).
func NewBroker(client redis.UniversalClient, hub *event.Hub, prefix string, log *slog.Logger) *Broker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Broker{client: client, hub: hub, prefix: prefix, log: log, ready: make(chan struct{})}
}

// Publish sends data on the topic's Redis channel.
func (b *Broker) Publish(ctx context.Context, topic string, data []byte) error {
	if err := b.client.Publish(ctx, b.prefix+topic, data).Err(); err != nil {
		return fmt.Errorf("redis publish %s: %w", topic, err)
	}
	return nil
}

// Ready is closed once the first subscription is confirmed by Redis.
func (b *Broker) Ready() <-chan struct{} { return b.ready }

// Up reports whether the subscription is held: while it is false, messages
// published by other replicas (revocations among them) are lost to this
// one, and Redis does not replay them.
func (b *Broker) Up() bool { return b.up.Load() }

// Run holds the process's one Redis subscription and feeds the hub until ctx
// ends, resubscribing after a connection loss. Messages published while the
// connection was down are not replayed by Redis; table subscribers detect
// the gap by sequence number and fill it from the outbox.
func (b *Broker) Run(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := b.subscribeOnce(ctx, func() { backoff = 100 * time.Millisecond })
		if ctx.Err() != nil {
			return nil
		}
		b.log.Warn("redis subscription lost; resubscribing", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
	return nil
}

// subscribeOnce holds one subscription; confirmed runs once Redis has
// confirmed it (the next loss starts the backoff afresh: a Sentinel
// failover is a loss each time, and the events must flow again quickly).
func (b *Broker) subscribeOnce(ctx context.Context, confirmed func()) error {
	ps := b.client.PSubscribe(ctx, b.prefix+"*")
	defer ps.Close()
	// A blocked read does not watch ctx; closing the subscription ends it.
	stop := context.AfterFunc(ctx, func() { _ = ps.Close() })
	defer stop()
	if _, err := ps.Receive(ctx); err != nil {
		return err
	}
	confirmed()
	b.up.Store(true)
	defer b.up.Store(false)
	b.readyOnce.Do(func() { close(b.ready) })
	for {
		msg, err := ps.ReceiveMessage(ctx)
		if err != nil {
			return err
		}
		b.hub.Deliver(strings.TrimPrefix(msg.Channel, b.prefix), []byte(msg.Payload))
	}
}
