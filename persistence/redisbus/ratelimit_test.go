package redisbus_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

// The shared limiter decides as the in-process one does and tells the
// quota the same way: a burst of the whole allowance passes, with one
// less remaining each time and the reset growing by one interval; the
// next is refused with the interval to wait; two replicas share it.
func TestRedisRateLimiterQuota(t *testing.T) {
	c, prefix := testenv.RedisClient(t)
	a, b := redisbus.NewRateLimiter(c, prefix), redisbus.NewRateLimiter(c, prefix)
	ctx := context.Background()
	const perMinute = 6 // one every 10 s
	for i := range perMinute {
		l := a
		if i%2 == 1 {
			l = b
		}
		d, err := l.Allow(ctx, "k", perMinute, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !d.OK || d.Remaining != perMinute-1-i {
			t.Fatalf("request %d: %+v, want passed with %d remaining", i+1, d, perMinute-1-i)
		}
		if want := time.Duration(i+1) * 10 * time.Second; d.Reset > want || d.Reset < want-time.Second {
			t.Fatalf("request %d: reset %v, want about %v", i+1, d.Reset, want)
		}
	}
	d, err := b.Allow(ctx, "k", perMinute, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d.OK || d.Remaining != 0 || d.RetryAfter <= 9*time.Second || d.RetryAfter > 10*time.Second {
		t.Fatalf("the 7th request: %+v, want refused for about 10 s with none remaining", d)
	}
	if d, _ := a.Allow(ctx, "other", perMinute, 4); !d.OK || d.Remaining != 2 {
		t.Fatalf("another key, cost 4: %+v, want passed with 2 remaining", d)
	}
}
