package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/tcpproxy"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// readyChecks asks a replica's /readyz and returns its checks and how long the
// answer took.
func readyChecks(t *testing.T, base string) (map[string]string, time.Duration) {
	t.Helper()
	began := time.Now()
	res, err := http.Get(strings.TrimSuffix(base, "/query") + "/readyz")
	if err != nil {
		t.Fatalf("/readyz: %v", err)
	}
	defer res.Body.Close()
	checks := map[string]string{}
	_ = json.NewDecoder(res.Body).Decode(&checks)
	return checks, time.Since(began)
}

// waitReadyz polls /readyz until its check of what reads want.
func waitReadyz(t *testing.T, base, what, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		checks, _ := readyChecks(t, base)
		if checks[what] == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still says %v, want %s %s", checks, what, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAuthorityWithoutTheBus: two replicas share Postgres and a Redis of
// the test's own, which is stopped. Revocations made on replica B then
// cannot be heard on replica A, yet: the demoted admin's open socket on A
// is refused its next privileged operation (the token is checked in the
// database while the bus is down), and the logged-out player's SSE stream
// and the revoked API key's socket on A end within seconds (the open
// connections' principals are re-checked in the database).
func TestAuthorityWithoutTheBus(t *testing.T) {
	t.Parallel()
	redis := testenv.StartRedisServer(t)
	b := backend{name: "postgres+own redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redis.URL(), redisPrefix: "outage:"}
	// A's connections are not reconciled within the test, so that its
	// refusal of the demoted admin's operation is the per-operation check's;
	// A2's are, every 2 s (the default).
	_, cA := startServer(t, b, func(cfg *app.Config) { cfg.AuthorityRecheck = time.Hour })
	_, cA2 := startServer(t, b, nil)
	_, cB := startServer(t, b, nil)
	admin := signIn(t, cA, testAdminEmail, testAdminPassword)
	adminOnB := cB.WithToken(admin.Token)

	second := newPlayer(t, cA, "")
	admin.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: ADMIN) { role } }`, map[string]any{"u": second.ID}, nil)
	secondTok := loginTokens(t, cA, second.Email, "player password 1")
	adminSocket := openSocket(t, cA.WithToken(secondTok.access), gqltest.SocketOptions{})
	socketMustDo(t, adminSocket, depositMutation, map[string]any{"u": second.ID, "a": "1.00", "k": unique("d")})

	p := newPlayer(t, cA, "")
	pTok := loginTokens(t, cA, p.Email, "player password 1")
	stream := sseStream(t, cA2.WithToken(pTok.access), myEventsSub)

	keyID, key := createKey(t, admin, unique("outage"), 100)
	keySocket := openSocket(t, cA2, gqltest.SocketOptions{Header: http.Header{"X-Api-Key": {key}}})
	socketMustDo(t, keySocket, `{ tables { id } }`, nil)

	redis.Stop()
	waitReadyz(t, cA.URL, "redis", "unavailable")
	waitReadyz(t, cA2.URL, "redis", "unavailable")
	// The socket's token was just checked on A: a cached epoch would still
	// be trusted for seconds.
	socketMustDo(t, adminSocket, `{ me { id } }`, nil)
	began := time.Now()
	adminOnB.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: PLAYER) { role } }`, map[string]any{"u": second.ID}, nil)
	cB.MustDo(t, `mutation($r: String!) { logout(refreshToken: $r) }`, map[string]any{"r": pTok.refresh}, nil)
	adminOnB.MustDo(t, `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, map[string]any{"id": keyID}, nil)

	// Row 1: no admin power left on A's socket, at once.
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	res, err := adminSocket.Do(dctx, depositMutation, map[string]any{"u": second.ID, "a": "777.00", "k": unique("d")})
	if err != nil || len(res.Errors) == 0 || res.Errors[0].Code() != "UNAUTHENTICATED" || res.Errors[0].Reason() != "TOKEN_REVOKED" {
		t.Fatalf("the demoted admin's deposit on A's socket answered %v %s %+v, want UNAUTHENTICATED TOKEN_REVOKED", err, res.Data, res.Errors)
	}
	refusedOrClosed(t, adminSocket, "UNAUTHENTICATED", `mutation($n: String!) { createApiKey(input: {name: $n}) { key } }`, map[string]any{"n": unique("k")})
	// Row 2: the streams end without the bus.
	streamEnded(t, "logout while Redis is down", stream, began)
	closedAs(t, "API key revoked while Redis is down", keySocket, 4401, "API_KEY_REVOKED", began)

	// The money: the refused deposit did not land.
	second.Client = signIn(t, cA, second.Email, "player password 1")
	if got := second.balance(t); got != "1.00" {
		t.Fatalf("balance %s after the refused deposit, want 1.00", got)
	}
}

// TestFailFast: one replica reaches Postgres and Redis through proxies that
// are black-holed (bytes dropped, no reset). /readyz answers within its
// budget in every fault, and once readiness knows the database is gone a
// query is answered UNAVAILABLE at once rather than after the 20 s request
// timeout; everything works again once the proxies forward again.
func TestFailFast(t *testing.T) {
	t.Parallel()
	pgURL, err := url.Parse(sqldbtest.MigratedPostgres.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	redis := testenv.StartRedisServer(t)
	pgProxy := startProxy(t, pgURL.Host)
	redisProxy := startProxy(t, strings.TrimSuffix(strings.TrimPrefix(redis.URL(), "redis://"), "/0"))
	pgURL.Host = pgProxy.Addr()
	b := backend{name: "proxied", databaseURL: pgURL.String(), redisURL: "redis://" + redisProxy.Addr() + "/0", redisPrefix: "failfast:"}
	_, c := startServer(t, b, func(cfg *app.Config) { cfg.RequestTimeout = 20 * time.Second })
	p := newPlayer(t, c, "")
	p.Client.MustDo(t, `{ me { id } }`, nil, nil)
	began := time.Now()
	c.MustDo(t, loginMutation, map[string]any{"e": p.Email, "p": "player password 1"}, nil)
	signIn := time.Since(began) // mostly the password's hash

	pgProxy.Blackhole()
	waitReadyz(t, c.URL, "database", "unavailable")
	// The background probes need two misses in a row (300 ms apart, 600 ms
	// each) before they call the database down.
	time.Sleep(2 * time.Second)
	began = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.Client.Do(ctx, `{ me { id } }`, nil)
	took := time.Since(began)
	if err != nil || len(res.Errors) == 0 || res.Errors[0].Code() != "UNAVAILABLE" || res.Errors[0].Reason() != "DATABASE_UNAVAILABLE" {
		t.Fatalf("a query with the database black-holed answered %v %s %+v", err, res.Data, res.Errors)
	}
	// Without the probes' verdict the query waits for a connection until
	// the driver's 3 s connect timeout, or the 20 s request timeout.
	if took > 2*time.Second {
		t.Fatalf("the query waited %v though readiness knew the database was gone", took)
	}
	t.Logf("a query answered UNAVAILABLE %v after it was sent", took.Round(time.Millisecond))

	redisProxy.Blackhole()
	for range 3 {
		checks, took := readyChecks(t, c.URL)
		if checks["database"] != "unavailable" {
			t.Fatalf("/readyz %v with the database black-holed", checks)
		}
		// The budget is 0.8 s; 3 s leaves room for a busy machine and is
		// still well under the 5 s of a Redis client's own timeouts.
		if took > 3*time.Second {
			t.Fatalf("/readyz took %v with both stores black-holed", took)
		}
		t.Logf("/readyz answered %v in %v", checks, took.Round(time.Millisecond))
	}

	// The database back, Redis still black-holed: signing in (its throttle
	// is kept in Redis) is served from this replica's own throttle rather
	// than waiting for Redis three times over.
	pgProxy.Restore()
	waitReadyz(t, c.URL, "database", "ok")
	giveUp := time.Now().Add(15 * time.Second)
	for {
		began = time.Now()
		res, err := c.Do(context.Background(), loginMutation, map[string]any{"e": p.Email, "p": "player password 1"})
		if err == nil && len(res.Errors) == 0 {
			break
		}
		if time.Now().After(giveUp) { // refusals while the pool reconnects are retried
			t.Fatalf("sign-in with Redis black-holed: %v %+v", err, res.Errors)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Waiting for Redis, the throttle's five calls (three checks, two
	// clears) would cost 2 s each.
	if took := time.Since(began); took > signIn+4*time.Second {
		t.Fatalf("sign-in took %v with Redis black-holed, %v before", took, signIn)
	} else {
		t.Logf("signed in %v after asking with Redis black-holed, %v before", took.Round(time.Millisecond), signIn.Round(time.Millisecond))
	}
	redisProxy.Restore()
	waitReadyz(t, c.URL, "redis", "ok")
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := p.Client.Do(context.Background(), `{ me { id } }`, nil)
		if err == nil && len(res.Errors) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the stores came back: %v %+v", err, res.Errors)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func startProxy(t *testing.T, target string) *tcpproxy.Proxy {
	t.Helper()
	p, err := tcpproxy.Start("127.0.0.1:0", target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}
