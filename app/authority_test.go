package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// Issue 22: authority on long-lived connections. Each row of the issue's
// table, through real sockets (graphql-transport-ws and graphql-ws) and SSE,
// on both backends; on Postgres + Redis the sockets are on replica B and the
// revocation is made on replica A, and the time from the revocation's answer
// to the close on B is printed (the goal is <= 1 s; not asserted, the
// machine is shared).

const myEventsSub = `subscription { myEvents { at } }`

func openSocket(t *testing.T, c *gqltest.Client, o gqltest.SocketOptions) *gqltest.Socket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := c.Socket(ctx, o)
	if err != nil {
		t.Fatalf("open socket: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// sseStream opens an SSE subscription with the client's token and returns a
// channel closed when the server ends the stream.
func sseStream(t *testing.T, c *gqltest.Client, query string) <-chan struct{} {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("SSE: %v", err)
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("SSE answered %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	sc := bufio.NewScanner(res.Body)
	if !sc.Scan() { // the stream's opening comment: it is registered
		t.Fatalf("SSE stream ended at once: %v", sc.Err())
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		defer res.Body.Close()
		for sc.Scan() {
		}
	}()
	return ended
}

// closedAs waits for s to be closed with code and reason and logs how long
// after began that was.
func closedAs(t *testing.T, what string, s *gqltest.Socket, code int, reason string, began time.Time) {
	t.Helper()
	select {
	case <-s.Closed():
	case <-time.After(15 * time.Second):
		t.Fatalf("%s: the socket is still open 15 s after the revocation", what)
	}
	got, why, at := s.CloseStatus()
	if got != code || why != reason {
		t.Fatalf("%s: closed %d %q, want %d %q", what, got, why, code, reason)
	}
	t.Logf("%s: socket closed %d %s %v after t0 (the revocation sent, or the token issued)", what, got, why, at.Sub(began).Round(time.Millisecond))
}

func streamEnded(t *testing.T, what string, ended <-chan struct{}, began time.Time) {
	t.Helper()
	select {
	case <-ended:
		t.Logf("%s: SSE stream ended %v after t0", what, time.Since(began).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		t.Fatalf("%s: the SSE stream still runs 15 s after the revocation", what)
	}
}

// refusedOrClosed runs query on s, which must not succeed: the socket is
// closed, or the operation refused with code.
func refusedOrClosed(t *testing.T, s *gqltest.Socket, code, query string, vars map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.Do(ctx, query, vars)
	if errors.Is(err, gqltest.ErrSocketClosed) {
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if len(res.Errors) == 0 || res.Errors[0].Code() != code {
		t.Fatalf("%s on a revoked socket answered %s %+v, want %s or a close", query, res.Data, res.Errors, code)
	}
}

func socketMustDo(t *testing.T, s *gqltest.Socket, query string, vars map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.Do(ctx, query, vars)
	if err != nil || len(res.Errors) > 0 {
		t.Fatalf("%s on the socket: %v %+v", query, err, res.Errors)
	}
}

type tokens struct{ access, refresh string }

func loginTokens(t *testing.T, c *gqltest.Client, email, password string) tokens {
	t.Helper()
	var out struct {
		Login struct{ AccessToken, RefreshToken string }
	}
	c.MustDo(t, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken refreshToken } }`,
		map[string]any{"e": email, "p": password}, &out)
	return tokens{out.Login.AccessToken, out.Login.RefreshToken}
}

// replicas starts one server on SQLite, or two sharing Postgres and Redis.
func replicas(t *testing.T, b backend, tweak func(*app.Config)) (cA, cB *gqltest.Client) {
	t.Helper()
	_, cA = startServer(t, b, tweak)
	cB = cA
	if b.databaseURL != "" {
		_, cB = startServer(t, b, tweak)
	}
	return cA, cB
}

const depositMutation = `mutation($u: ID!, $a: Money!, $k: String!) { deposit(input: {userId: $u, amount: $a, idempotencyKey: $k}) { balance } }`

func TestSocketAuthority(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			cA, cB := replicas(t, b, nil)
			admin := signIn(t, cA, testAdminEmail, testAdminPassword)
			tws, legacy := gqltest.SocketOptions{}, gqltest.SocketOptions{Legacy: true}

			for _, o := range []gqltest.SocketOptions{tws, legacy} {
				t.Run(fmt.Sprintf("demoted admin legacy=%v", o.Legacy), func(t *testing.T) {
					p := newPlayer(t, cA, "")
					admin.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: ADMIN) { role } }`, map[string]any{"u": p.ID}, nil)
					tok := loginTokens(t, cA, p.Email, "player password 1")
					onA := openSocket(t, cA.WithToken(tok.access), o)
					onB := openSocket(t, cB.WithToken(tok.access), o)
					sse := sseStream(t, cB.WithToken(tok.access), myEventsSub)
					socketMustDo(t, onB, depositMutation, map[string]any{"u": p.ID, "a": "1.00", "k": unique("d")})

					began := time.Now()
					admin.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: PLAYER) { role } }`, map[string]any{"u": p.ID}, nil)
					// On the revoking replica the old role is gone at once.
					refusedOrClosed(t, onA, "UNAUTHENTICATED", depositMutation, map[string]any{"u": p.ID, "a": "777.00", "k": unique("d")})
					closedAs(t, "role change, other replica", onB, 4403, "RIGHTS_CHANGED", began)
					streamEnded(t, "role change, other replica", sse, began)
					p.Client = signIn(t, cA, p.Email, "player password 1")
					if got := p.balance(t); got != "1.00" {
						t.Fatalf("balance %s after the demotion, want 1.00", got)
					}
					// A new socket with the old token is refused at connection_init:
					// on graphql-transport-ws with 4401 and the token's reason, so
					// the client refreshes rather than retrying the token.
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					s, err := cB.WithToken(tok.access).Socket(ctx, o)
					if err == nil {
						s.Close()
						t.Fatal("a socket opened with the demoted admin's old token")
					}
					var ce websocket.CloseError
					if !o.Legacy && (!errors.As(err, &ce) || ce.Code != 4401 || ce.Reason != "TOKEN_REVOKED") {
						t.Fatalf("connection_init with the demoted admin's old token: %v, want close 4401 TOKEN_REVOKED", err)
					}
				})
			}

			// revoked runs one revocation of a player's session: a socket on
			// each replica and an SSE stream on B with the token; revoke on A.
			revoked := func(t *testing.T, o gqltest.SocketOptions, deposit string, revoke func(p player, tok tokens), code int, reason string) {
				p := newPlayer(t, cA, deposit)
				tok := loginTokens(t, cA, p.Email, "player password 1")
				onA := openSocket(t, cA.WithToken(tok.access), o)
				onB := openSocket(t, cB.WithToken(tok.access), o)
				if _, err := onB.Start(context.Background(), myEventsSub, nil); err != nil {
					t.Fatal(err)
				}
				sse := sseStream(t, cB.WithToken(tok.access), myEventsSub)
				socketMustDo(t, onB, `{ me { id } myLedger { edges { node { id } } } }`, nil)
				began := time.Now()
				revoke(p, tok)
				refusedOrClosed(t, onA, "UNAUTHENTICATED", `{ me { id } }`, nil)
				closedAs(t, reason+", other replica", onB, code, reason, began)
				streamEnded(t, reason+", other replica", sse, began)
			}
			t.Run("logout", func(t *testing.T) {
				revoked(t, legacy, "", func(_ player, tok tokens) {
					cA.MustDo(t, `mutation($r: String!) { logout(refreshToken: $r) }`, map[string]any{"r": tok.refresh}, nil)
				}, 4401, "TOKEN_REVOKED")
			})
			t.Run("refresh reuse", func(t *testing.T) {
				revoked(t, tws, "", func(_ player, tok tokens) {
					q := `mutation($r: String!) { refreshToken(refreshToken: $r) { accessToken } }`
					cA.MustDo(t, q, map[string]any{"r": tok.refresh}, nil)
					cA.MustFail(t, "UNAUTHENTICATED", "REFRESH_REUSED", q, map[string]any{"r": tok.refresh})
				}, 4401, "TOKEN_REVOKED")
			})
			t.Run("self-exclusion", func(t *testing.T) {
				revoked(t, tws, "10.00", func(p player, tok tokens) {
					cA.WithToken(tok.access).MustDo(t, `mutation { selfExclude(months: 6) { kind } }`, nil, nil)
				}, 4403, "RIGHTS_CHANGED")
			})
			t.Run("time-out", func(t *testing.T) {
				revoked(t, legacy, "10.00", func(p player, tok tokens) {
					cA.WithToken(tok.access).MustDo(t, `mutation { takeTimeOut(hours: 24) { kind } }`, nil, nil)
				}, 4403, "RIGHTS_CHANGED")
			})

			t.Run("disabled account", func(t *testing.T) {
				var email, refresh string
				var uid string
				revoked(t, tws, "10.00", func(p player, tok tokens) {
					email, refresh, uid = p.Email, tok.refresh, p.ID
					admin.MustDo(t, `mutation($u: ID!, $r: String!) { disableAccount(userId: $u, reason: $r) { disabledAt } }`,
						map[string]any{"u": p.ID, "r": "chargeback fraud"}, nil)
				}, 4401, "ACCOUNT_DISABLED")
				// It cannot come back by itself: not by its refresh token, not
				// by its password (on either replica); the admin sees why.
				cB.MustFail(t, "FORBIDDEN", "ACCOUNT_DISABLED", `mutation($r: String!) { refreshToken(refreshToken: $r) { accessToken } }`, map[string]any{"r": refresh})
				for _, c := range []*gqltest.Client{cA, cB} {
					c.MustFail(t, "FORBIDDEN", "ACCOUNT_DISABLED", `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }`,
						map[string]any{"e": email, "p": "player password 1"})
				}
				var seen struct {
					User struct {
						DisabledAt     *string
						DisabledReason *string
					}
				}
				admin.MustDo(t, `query($u: ID!) { user(id: $u) { disabledAt disabledReason } }`, map[string]any{"u": uid}, &seen)
				if seen.User.DisabledAt == nil || seen.User.DisabledReason == nil || *seen.User.DisabledReason != "chargeback fraud" {
					t.Fatalf("the admin reads %+v", seen.User)
				}
				admin.MustDo(t, `mutation($u: ID!) { enableAccount(userId: $u) { disabledAt } }`, map[string]any{"u": uid}, nil)
				back := signIn(t, cB, email, "player password 1")
				back.MustDo(t, `{ me { id } }`, nil, nil)
			})

			t.Run("API key over a socket", func(t *testing.T) {
				for _, o := range []gqltest.SocketOptions{tws, legacy} {
					id, key := createKey(t, admin, unique("socket"), 2)
					o.Header = http.Header{"X-Api-Key": {key}}
					s := openSocket(t, cB, o)
					// The upgrade took one request; its first operation is
					// that one, the second the last of the minute's two.
					socketMustDo(t, s, `{ tables { id } }`, nil)
					socketMustDo(t, s, `{ tables { id } }`, nil)
					for range 3 {
						ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
						res, err := s.Do(ctx, `{ tables { id } }`, nil)
						cancel()
						if err != nil || len(res.Errors) == 0 || res.Errors[0].Reason() != "RATE_LIMITED" {
							t.Fatalf("legacy=%v: an operation past the key's 2 per minute answered %v %s %+v", o.Legacy, err, res.Data, res.Errors)
						}
					}
					began := time.Now()
					admin.MustDo(t, `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, map[string]any{"id": id}, nil)
					closedAs(t, fmt.Sprintf("API key revoked (legacy=%v), other replica", o.Legacy), s, 4401, "API_KEY_REVOKED", began)
				}
			})

			t.Run("aliases", func(t *testing.T) {
				_, key := createKey(t, admin, unique("alias"), 5)
				c := withKey(cA, key)
				aliases := func(n int) string {
					var q strings.Builder
					q.WriteString("{")
					for i := range n {
						fmt.Fprintf(&q, " a%d: tables { id }", i)
					}
					return q.String() + " }"
				}
				c.MustFail(t, "FORBIDDEN", "RATE_LIMITED", aliases(6), nil)
				c.MustDo(t, aliases(2), nil, nil) // 1 (the refused one's request) + 2 = 3 of 5
				c.MustFail(t, "FORBIDDEN", "RATE_LIMITED", aliases(3), nil)
			})
		})
	}
}

// TestSocketClosedAtTokenExpiry: a socket and an SSE stream do not outlive
// their access token: at its expiry the socket is closed 4401
// TOKEN_EXPIRED and the stream ends; before it, operations run.
func TestSocketClosedAtTokenExpiry(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.AccessTTL = 3 * time.Second })
			p := newPlayer(t, c, "")
			tok := loginTokens(t, c, p.Email, "player password 1")
			issued := time.Now()
			tws := openSocket(t, c.WithToken(tok.access), gqltest.SocketOptions{})
			legacy := openSocket(t, c.WithToken(tok.access), gqltest.SocketOptions{Legacy: true})
			sse := sseStream(t, c.WithToken(tok.access), myEventsSub)
			socketMustDo(t, tws, `{ me { id } }`, nil)
			socketMustDo(t, legacy, `{ me { id } }`, nil)
			closedAs(t, "expiry (graphql-transport-ws)", tws, 4401, "TOKEN_EXPIRED", issued)
			closedAs(t, "expiry (graphql-ws)", legacy, 4401, "TOKEN_EXPIRED", issued)
			streamEnded(t, "expiry (SSE)", sse, issued)
			// A new socket with the expired token (within the JWT leeway,
			// which HTTP still accepts) is closed as the open one was, at
			// once: before or just after its ack.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			late, err := c.WithToken(tok.access).Socket(ctx, gqltest.SocketOptions{})
			var ce websocket.CloseError
			switch {
			case err == nil:
				t.Cleanup(late.Close)
				closedAs(t, "a new socket with the expired token", late, 4401, "TOKEN_EXPIRED", issued)
			case !errors.As(err, &ce) || ce.Code != 4401 || ce.Reason != "TOKEN_EXPIRED":
				t.Fatalf("connection_init with an expired token: %v, want close 4401 TOKEN_EXPIRED", err)
			}
		})
	}
}
