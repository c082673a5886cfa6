package redisbus_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/redisbus"
)

// TestRedisThrottleIsSharedAcrossReplicas locks a key through one replica's
// limiter and finds it locked through another's.
func TestRedisThrottleIsSharedAcrossReplicas(t *testing.T) {
	c, prefix := testenv.RedisClient(t)
	cfg := account.ThrottleConfig{MaxFailures: 3, Window: time.Minute, BaseLockout: 10 * time.Second, MaxLockout: 25 * time.Second}
	a := redisbus.NewThrottle(c, prefix, cfg, nil)
	b := redisbus.NewThrottle(c, prefix, cfg, nil)
	key := "email:x@example.kz"
	for i := 0; i < 2; i++ {
		if err := a.Allow(key); err != nil {
			t.Fatalf("attempt %d refused: %v", i+1, err)
		}
		a.Fail(key)
	}
	if err := b.Allow(key); err != nil {
		t.Fatalf("two failures lock already: %v", err)
	}
	b.Fail(key) // the third failure, on the other replica
	err := a.Allow(key)
	if !errs.Is(err, errs.Forbidden) || errs.ReasonOf(err) != account.ReasonTooManyAttempts {
		t.Fatalf("after 3 failures Allow = %v, want FORBIDDEN TOO_MANY_ATTEMPTS", err)
	}
	lockTTL := func() time.Duration {
		d, err := c.PTTL(context.Background(), prefix+"throttle:lock:"+key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := lockTTL(); d <= 0 || d > 10*time.Second {
		t.Fatalf("first lock lasts %v, want up to 10s", d)
	}
	a.Fail(key)
	if d := lockTTL(); d <= 10*time.Second || d > 20*time.Second {
		t.Fatalf("second lock lasts %v, want the doubled 20s", d)
	}
	a.Fail(key)
	if d := lockTTL(); d <= 20*time.Second || d > 25*time.Second {
		t.Fatalf("third lock lasts %v, want the 25s cap", d)
	}
	b.Succeed(key)
	if err := a.Allow(key); err != nil {
		t.Fatalf("after a success Allow = %v", err)
	}
	if other := b.Allow("email:y@example.kz"); other != nil {
		t.Fatalf("an unrelated key is locked: %v", other)
	}
}

func TestRedisCache(t *testing.T) {
	c, prefix := testenv.RedisClient(t)
	ctx := context.Background()
	a := redisbus.NewCache(c, prefix+"apq:", time.Minute)
	b := redisbus.NewCache(c, prefix+"apq:", time.Minute)
	if _, ok := b.Get(ctx, "h1"); ok {
		t.Fatal("empty cache has h1")
	}
	a.Set(ctx, "h1", "{ me { id } }")
	if q, ok := b.Get(ctx, "h1"); !ok || q != "{ me { id } }" {
		t.Fatalf("other replica reads %q, %v", q, ok)
	}
}
