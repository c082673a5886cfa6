package event

import "context"

// Message is one message for a topic.
type Message struct {
	Topic string
	Data  []byte
}

// BatchPublisher is a Publisher that can send many messages in one round
// trip (the Redis broker pipelines them). The bet intake publishes the
// events of a whole batch of bets this way.
type BatchPublisher interface {
	PublishBatch(ctx context.Context, msgs []Message) error
}

// PublishAll sends msgs in order through p: as one batch when p is a
// BatchPublisher, one Publish after another otherwise (stopping at the
// first error).
func PublishAll(ctx context.Context, p Publisher, msgs []Message) error {
	if bp, ok := p.(BatchPublisher); ok {
		return bp.PublishBatch(ctx, msgs)
	}
	for _, m := range msgs {
		if err := p.Publish(ctx, m.Topic, m.Data); err != nil {
			return err
		}
	}
	return nil
}
