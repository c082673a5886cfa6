package account_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/internal/clocktest"
)

func wantAllowed(t *testing.T, th *account.Throttle, key string, allowed bool) {
	t.Helper()
	err := th.Allow(key)
	if allowed && err != nil {
		t.Fatalf("Allow(%q) = %v, want allowed", key, err)
	}
	if !allowed && (errs.CodeOf(err) != errs.Forbidden || errs.ReasonOf(err) != account.ReasonTooManyAttempts) {
		t.Fatalf("Allow(%q) = %v, want Forbidden TOO_MANY_ATTEMPTS", key, err)
	}
}

func TestThrottleLocksAfterFiveFailures(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	th := account.NewThrottle(account.ThrottleConfig{}, clk.Now)
	for i := range 4 {
		wantAllowed(t, th, "email:a", true)
		th.Fail("email:a")
		clk.Advance(time.Minute)
		_ = i
	}
	wantAllowed(t, th, "email:a", true)
	th.Fail("email:a") // fifth failure within 15 minutes
	wantAllowed(t, th, "email:a", false)
	wantAllowed(t, th, "email:b", true) // keys are independent
	clk.Advance(59 * time.Second)
	wantAllowed(t, th, "email:a", false)
	clk.Advance(time.Second) // first lockout is one minute
	wantAllowed(t, th, "email:a", true)
}

func TestThrottleFailuresOutsideWindowDoNotCount(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	th := account.NewThrottle(account.ThrottleConfig{}, clk.Now)
	for range 20 {
		th.Fail("k")
		clk.Advance(4 * time.Minute) // at most 4 failures in any 15 minutes
		wantAllowed(t, th, "k", true)
	}
}

func TestThrottleBackoffGrows(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	th := account.NewThrottle(account.ThrottleConfig{}, clk.Now)
	for range 5 {
		th.Fail("k")
	}
	for _, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour} {
		clk.Advance(want - time.Second)
		wantAllowed(t, th, "k", false)
		clk.Advance(time.Second)
		wantAllowed(t, th, "k", true)
		th.Fail("k") // one more failure re-locks at once, for twice as long
	}
	// After a quiet window the key starts afresh: one failure does not lock.
	clk.Advance(time.Hour + 15*time.Minute)
	wantAllowed(t, th, "k", true)
	th.Fail("k")
	wantAllowed(t, th, "k", true)
}

func TestThrottleSucceedResets(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	th := account.NewThrottle(account.ThrottleConfig{}, clk.Now)
	for range 4 {
		th.Fail("k")
	}
	th.Succeed("k")
	th.Fail("k")
	wantAllowed(t, th, "k", true)
	if th.Len() != 1 {
		t.Fatalf("Len = %d, want 1", th.Len())
	}
}

func TestThrottleBoundedMemory(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	th := account.NewThrottle(account.ThrottleConfig{MaxKeys: 100}, clk.Now)
	for i := range 10_000 {
		th.Fail(fmt.Sprintf("ip:%d", i))
	}
	if th.Len() > 100 {
		t.Fatalf("Len = %d, want at most 100", th.Len())
	}
	// Idle keys are dropped as new failures come in.
	clk.Advance(time.Hour)
	for i := range 10 {
		th.Fail(fmt.Sprintf("new:%d", i))
	}
	if th.Len() > 100-10 {
		t.Fatalf("Len = %d after idle keys aged out, want fewer", th.Len())
	}
}

func TestThrottleConcurrent(t *testing.T) {
	clk := clocktest.New(time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC))
	th := account.NewThrottle(account.ThrottleConfig{MaxKeys: 50}, clk.Now)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 200 {
				key := fmt.Sprintf("k%d", (g*7+i)%80)
				_ = th.Allow(key)
				th.Fail(key)
				if i%17 == 0 {
					th.Succeed(key)
				}
			}
		})
	}
	wg.Wait()
	if th.Len() > 50 {
		t.Fatalf("Len = %d, want at most 50", th.Len())
	}
	for range 5 {
		th.Fail("victim")
	}
	wantAllowed(t, th, "victim", false)
}
