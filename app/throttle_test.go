package app_test

import (
	"fmt"
	"testing"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
)

const loginMutation = `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }`

// TestThrottleBehindTrustedProxy: behind a load balancer (127.0.0.1, a
// trusted proxy) a flood of failed sign-ins from one client address, as
// X-Forwarded-For names it, locks that address only: another account signs
// in from another address, while the flooding address is refused even the
// right password. A client that is not a trusted proxy cannot pick its
// address by the header.
func TestThrottleBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.TrustedProxies = []string{"127.0.0.1", "::1"} })
			victim := newPlayer(t, c, "")
			other := newPlayer(t, c, "")
			flood := c.WithHeader("X-Forwarded-For", "203.0.113.5")
			// A few failures on one account lock that account from that
			// address; neither the address nor the other account is locked.
			for range 5 {
				flood.MustFail(t, "UNAUTHENTICATED", "INVALID_CREDENTIALS", loginMutation, map[string]any{"e": victim.Email, "p": "not the password!"})
			}
			flood.MustFail(t, "FORBIDDEN", "TOO_MANY_ATTEMPTS", loginMutation, map[string]any{"e": victim.Email, "p": "not the password!"})
			flood.MustDo(t, loginMutation, map[string]any{"e": other.Email, "p": "player password 1"}, nil)
			// A flood over many accounts locks the address, and only it.
			for i := range account.AddressThrottle.WithDefaults().MaxFailures {
				_, _ = flood.Do(t.Context(), loginMutation, map[string]any{"e": fmt.Sprintf("guess%d@example.kz", i), "p": "not the password!"})
			}
			flood.MustFail(t, "FORBIDDEN", "TOO_MANY_ATTEMPTS", loginMutation, map[string]any{"e": other.Email, "p": "player password 1"})
			c.WithHeader("X-Forwarded-For", "198.51.100.7").MustDo(t, loginMutation, map[string]any{"e": other.Email, "p": "player password 1"}, nil)
		})
	}
}
