package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/auth"
)

// TestRevocationReachesOtherReplica runs two replicas sharing Postgres and
// Redis. A player's access token, used on replica B (whose epoch cache is
// warm), is refused there soon after replica A changes the player's role,
// revokes their refresh family (logout) or records their self-exclusion:
// well before B's cache entry would expire, so the news came over Redis.
func TestRevocationReachesOtherReplica(t *testing.T) {
	t.Parallel()
	b := backends(t)[1]
	_, cA := startServer(t, b, nil)
	_, cB := startServer(t, b, nil)
	adminA := signIn(t, cA, testAdminEmail, testAdminPassword)

	type session struct{ access, refresh string }
	login := func(t *testing.T, email string) session {
		t.Helper()
		var out struct {
			Login struct{ AccessToken, RefreshToken string }
		}
		cA.MustDo(t, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken refreshToken } }`,
			map[string]any{"e": email, "p": "player password 1"}, &out)
		return session{out.Login.AccessToken, out.Login.RefreshToken}
	}
	// refusedOnB warms B's cache with the token, runs revoke on A, and waits
	// for B to refuse the token, failing when that takes as long as B's
	// cache could have hidden it.
	refusedOnB := func(t *testing.T, token string, revoke func()) {
		t.Helper()
		onB := cB.WithToken(token)
		onB.MustDo(t, `{ me { id } }`, nil, nil)
		revoke()
		began := time.Now()
		deadline := began.Add(auth.EpochCacheTTL - time.Second)
		for {
			resp, err := onB.Do(context.Background(), `{ myLedger { edges { node { id } } } }`, nil)
			if err != nil {
				t.Fatalf("request to B: %v", err)
			}
			if len(resp.Errors) > 0 {
				if e := resp.Errors[0]; e.Code() != "UNAUTHENTICATED" || e.Reason() != auth.ReasonTokenRevoked {
					t.Fatalf("B answered %+v, want UNAUTHENTICATED %s", e, auth.ReasonTokenRevoked)
				}
				t.Logf("replica B refused the revoked token %s after the revocation returned", time.Since(began).Round(time.Millisecond))
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica B still accepts the token %s after the revocation", time.Since(began))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	t.Run("role change", func(t *testing.T) {
		p := newPlayer(t, cA, "")
		s := login(t, p.Email)
		refusedOnB(t, s.access, func() {
			adminA.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: AFFILIATE) { role } }`, map[string]any{"u": p.ID}, nil)
		})
		// A refreshed token carries the new role and works on B.
		var out struct {
			RefreshToken struct{ AccessToken string }
		}
		cA.MustDo(t, `mutation($r: String!) { refreshToken(refreshToken: $r) { accessToken } }`, map[string]any{"r": s.refresh}, &out)
		var me struct {
			Me struct{ Role string }
		}
		cB.WithToken(out.RefreshToken.AccessToken).MustDo(t, `{ me { role } }`, nil, &me)
		if me.Me.Role != "AFFILIATE" {
			t.Fatalf("role after refresh = %s", me.Me.Role)
		}
	})
	t.Run("logout", func(t *testing.T) {
		p := newPlayer(t, cA, "")
		s := login(t, p.Email)
		refusedOnB(t, s.access, func() {
			cA.MustDo(t, `mutation($r: String!) { logout(refreshToken: $r) }`, map[string]any{"r": s.refresh}, nil)
		})
		cA.MustFail(t, "UNAUTHENTICATED", auth.ReasonRefreshRevoked, `mutation($r: String!) { refreshToken(refreshToken: $r) { accessToken } }`, map[string]any{"r": s.refresh})
	})
	t.Run("refresh reuse", func(t *testing.T) {
		p := newPlayer(t, cA, "")
		s := login(t, p.Email)
		refusedOnB(t, s.access, func() {
			q := `mutation($r: String!) { refreshToken(refreshToken: $r) { accessToken } }`
			cA.MustDo(t, q, map[string]any{"r": s.refresh}, nil)
			cA.MustFail(t, "UNAUTHENTICATED", auth.ReasonRefreshReused, q, map[string]any{"r": s.refresh})
		})
	})
	t.Run("self-exclusion", func(t *testing.T) {
		p := newPlayer(t, cA, "100.00")
		s := login(t, p.Email)
		refusedOnB(t, s.access, func() {
			cA.WithToken(s.access).MustDo(t, `mutation { selfExclude(months: 6) { kind } }`, nil, nil)
		})
		// The excluded player signs in again, sees their history, cannot stake.
		again := login(t, p.Email)
		onB := cB.WithToken(again.access)
		onB.MustDo(t, `{ myLedger { edges { node { id } } } myProtection { exclusion { kind active } } }`, nil, nil)
		onB.MustFail(t, "FORBIDDEN", "SELF_EXCLUDED", startMutation, withCommit(t, player{Client: onB}, startInput([]boxIn{{ante: "100.00"}}, "", "", unique("h"))))
	})
}
