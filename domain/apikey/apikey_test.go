package apikey_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/internal/clocktest"
)

func TestParse(t *testing.T) {
	good := "ptk_0123456789ab_" + strings.Repeat("A", 43)
	tests := []struct {
		name, raw string
		ok        bool
	}{
		{"good", good, true},
		{"no prefix", strings.TrimPrefix(good, "ptk_"), false},
		{"short id", "ptk_0123_" + strings.Repeat("A", 43), false},
		{"upper-case id", "ptk_0123456789AB_" + strings.Repeat("A", 43), false},
		{"short secret", "ptk_0123456789ab_" + strings.Repeat("A", 42), false},
		{"padded secret", good + "=", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, secret, ok := apikey.Parse(tt.raw)
			if ok != tt.ok {
				t.Fatalf("Parse(%q) ok = %v, want %v", tt.raw, ok, tt.ok)
			}
			if ok && apikey.Prefix+id+"_"+secret != tt.raw {
				t.Fatalf("Parse(%q) = %q, %q: does not rebuild the key", tt.raw, id, secret)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("ptk_0123456789ab_" + strings.Repeat("A", 43))
	f.Add("ptk__")
	f.Fuzz(func(t *testing.T, raw string) {
		id, secret, ok := apikey.Parse(raw)
		if ok && apikey.Prefix+id+"_"+secret != raw {
			t.Fatalf("Parse(%q) accepted a key it does not rebuild", raw)
		}
	})
}

func TestMemLimiterAllowsPerMinuteThenOnePerInterval(t *testing.T) {
	clock := clocktest.New(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	l := apikey.NewMemLimiter(clock.Now)
	ctx := context.Background()
	for i := range 6 {
		if d, _ := l.Allow(ctx, "k", 6, 1); !d.OK {
			t.Fatalf("request %d of a burst of 6 refused", i+1)
		}
	}
	d, _ := l.Allow(ctx, "k", 6, 1)
	if d.OK || d.RetryAfter != 10*time.Second || d.Remaining != 0 || d.Reset != time.Minute {
		t.Fatalf("7th request: %+v, want refused for 10s, none remaining, whole again in a minute", d)
	}
	if d, _ := l.Allow(ctx, "other", 6, 1); !d.OK {
		t.Fatal("another key shares the first key's allowance")
	}
	clock.Advance(10 * time.Second)
	if d, _ := l.Allow(ctx, "k", 6, 1); !d.OK {
		t.Fatal("refused after waiting the retry time")
	}
	if d, _ := l.Allow(ctx, "k", 6, 1); d.OK {
		t.Fatal("a second request passed in one interval")
	}
}

// A request of cost n spends n requests: 300 aliases are not one request.
func TestMemLimiterCountsCost(t *testing.T) {
	clock := clocktest.New(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	l := apikey.NewMemLimiter(clock.Now)
	ctx := context.Background()
	if d, _ := l.Allow(ctx, "k", 6, 4); !d.OK || d.Remaining != 2 {
		t.Fatalf("a request of cost 4 on a fresh allowance of 6: %+v, want passed with 2 remaining", d)
	}
	d, _ := l.Allow(ctx, "k", 6, 3)
	if d.OK || d.RetryAfter != 10*time.Second || d.Remaining != 2 || d.Reset != 40*time.Second {
		t.Fatalf("cost 3 after 4 of 6: %+v, want refused for 10s, 2 remaining, whole in 40s", d)
	}
	if d, _ := l.Allow(ctx, "k", 6, 2); !d.OK {
		t.Fatal("cost 2 after 4 of 6 refused")
	}
	if d, _ := l.Allow(ctx, "other", 6, 7); d.OK {
		t.Fatal("a cost above the whole allowance passed")
	}
}
