package redisbus_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

// TestRedisBrokerCrossesProcesses stands two "replicas" (two clients, two
// hubs) on one Redis: what one publishes, the other's subscribers receive,
// in order.
func TestRedisBrokerCrossesProcesses(t *testing.T) {
	u, prefix := testenv.Redis(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	newReplica := func() (*redisbus.Broker, *event.Hub) {
		opt, _ := redis.ParseURL(u)
		c := redis.NewClient(opt)
		t.Cleanup(func() { c.Close() })
		hub := event.NewHub()
		b := redisbus.NewBroker(c, hub, prefix, nil)
		go b.Run(ctx)
		select {
		case <-b.Ready():
		case <-ctx.Done():
			t.Fatal("redis subscription not ready")
		}
		return b, hub
	}
	a, _ := newReplica()
	_, hubB := newReplica()
	sub := hubB.Subscribe("table:7", 200)
	defer sub.Close()
	for i := 0; i < 100; i++ {
		if err := a.Publish(ctx, "table:7", []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 100; i++ {
		select {
		case m := <-sub.C:
			if string(m) != fmt.Sprint(i) {
				t.Fatalf("message %d = %q", i, m)
			}
		case <-ctx.Done():
			t.Fatalf("only %d of 100 messages arrived", i)
		}
	}
}

func TestMemoryBrokerDeliversLocally(t *testing.T) {
	hub := event.NewHub()
	b := redisbus.NewMemoryBroker(hub)
	sub := hub.Subscribe("x", 1)
	if err := b.Publish(context.Background(), "x", []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if got := string(<-sub.C); got != "hi" {
		t.Fatalf("got %q", got)
	}
}

// TestMemoryBrokerDeliversABatchPerTopic: a batch reaches each topic's
// func subscribers as one delivery per run of that topic, in order.
func TestMemoryBrokerDeliversABatchPerTopic(t *testing.T) {
	hub := event.NewHub()
	b := redisbus.NewMemoryBroker(hub)
	var got []string
	for _, topic := range []string{"a", "b"} {
		hub.SubscribeFunc(topic, func(ms [][]byte) {
			call := topic + ":"
			for _, m := range ms {
				call += string(m)
			}
			got = append(got, call)
		})
	}
	msgs := []event.Message{{Topic: "a", Data: []byte("1")}, {Topic: "a", Data: []byte("2")}, {Topic: "b", Data: []byte("3")}, {Topic: "a", Data: []byte("4")}}
	if err := event.PublishAll(context.Background(), b, msgs); err != nil {
		t.Fatal(err)
	}
	if want := "[a:12 b:3 a:4]"; fmt.Sprint(got) != want {
		t.Fatalf("deliveries %v, want %s", got, want)
	}
}
