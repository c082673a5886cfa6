package redisbus

import (
	"context"
	"fmt"

	"github.com/pokertote/pokertote/domain/event"
)

var _ event.BatchPublisher = (*Broker)(nil)

// PublishBatch implements event.BatchPublisher: every message in one Redis
// pipeline (one round trip), in order.
func (b *Broker) PublishBatch(ctx context.Context, msgs []event.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	pipe := b.client.Pipeline()
	for _, m := range msgs {
		pipe.Publish(ctx, b.prefix+m.Topic, m.Data)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("redis publish of %d messages: %w", len(msgs), err)
	}
	return nil
}
