package app

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

// TestRedisAPQSharesQueries checks the wrapper gqlgen's persisted-query
// extension sees: a query registered through one replica's cache is read
// through another's, under the "apq:" keys.
func TestRedisAPQSharesQueries(t *testing.T) {
	u, prefix := testenv.Redis(t)
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	a := (&App{redis: c, cfg: Config{RedisPrefix: prefix}}).apqCache()
	b := redisAPQ{redisbus.NewCache(c, prefix+"apq:", time.Minute), func() bool { return false }}
	if _, ok := b.Get(ctx, "h1"); ok {
		t.Fatal("empty cache has h1")
	}
	a.Add(ctx, "h1", "{ me { id } }")
	t.Cleanup(func() { c.Del(context.Background(), prefix+"apq:h1") })
	if q, ok := b.Get(ctx, "h1"); !ok || q != "{ me { id } }" {
		t.Fatalf("other replica reads %q, %v", q, ok)
	}
	if q, err := c.Get(ctx, prefix+"apq:h1").Result(); err != nil || q != "{ me { id } }" {
		t.Fatalf("stored under %q: %q, %v", prefix+"apq:h1", q, err)
	}
	if (&App{}).apqCache() != nil {
		t.Fatal("without Redis the APQ cache should be gqlgen's own (nil here)")
	}
}
