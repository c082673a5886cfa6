package persistence_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/persistence"
)

// TestRecentWritersAcrossReplicas records a write through one replica's
// set and finds the writer recent through another's sharing the Redis;
// a player who wrote nothing is not recent, and the key expires with the
// window. The in-process set knows only its own writes.
func TestRecentWritersAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	c, prefix := redisClient(t)
	a := persistence.NewRedisRecentWriters(c, prefix, time.Minute, nil)
	b := persistence.NewRedisRecentWriters(c, prefix, time.Minute, nil)
	a.Wrote(ctx, 7)
	if !b.Recent(ctx, 7) {
		t.Fatal("a write through replica a is not seen by replica b")
	}
	if b.Recent(ctx, 8) {
		t.Fatal("a player who wrote nothing is recent")
	}
	ttl, err := c.PTTL(ctx, prefix+"recent:7").Result()
	if err != nil || ttl <= 0 || ttl > time.Minute {
		t.Fatalf("the writer's key lives %v (%v), want up to the window", ttl, err)
	}
	local := persistence.NewRecentWriters(time.Minute)
	local.Wrote(ctx, 9)
	if !local.Recent(ctx, 9) || local.Recent(ctx, 7) {
		t.Fatal("the in-process set does not hold its own writes only")
	}
}

// TestRecentWritersWindowEnds: once the window has passed, the writer is
// no longer recent (its reads may use the replica again).
func TestRecentWritersWindowEnds(t *testing.T) {
	ctx := context.Background()
	w := persistence.NewRecentWriters(50 * time.Millisecond)
	w.Wrote(ctx, 1)
	if !w.Recent(ctx, 1) {
		t.Fatal("not recent right after the write")
	}
	time.Sleep(60 * time.Millisecond)
	if w.Recent(ctx, 1) {
		t.Fatal("still recent after the window")
	}
}
