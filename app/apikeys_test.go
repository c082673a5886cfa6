package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// keyTransport sends an API key with every request.
type keyTransport struct{ header, value string }

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(k.header, k.value)
	return http.DefaultTransport.RoundTrip(r)
}

// withKey returns a copy of c that sends key as X-API-Key and no token.
func withKey(c *gqltest.Client, key string) *gqltest.Client {
	d := *c
	d.Token = ""
	d.HTTP = &http.Client{Timeout: 30 * time.Second, Transport: keyTransport{"X-API-Key", key}}
	return &d
}

type createdKey struct {
	CreateAPIKey struct {
		APIKey struct {
			ID                string
			RequestsPerMinute int
		} `json:"apiKey"`
		Key string
	} `json:"createApiKey"`
}

func createKey(t *testing.T, admin *gqltest.Client, name string, perMinute int) (id, key string) {
	t.Helper()
	var out createdKey
	admin.MustDo(t, `mutation($n: String!, $r: Int) { createApiKey(input: {name: $n, requestsPerMinute: $r}) { apiKey { id requestsPerMinute } key } }`,
		map[string]any{"n": name, "r": perMinute}, &out)
	k := out.CreateAPIKey
	if !strings.HasPrefix(k.Key, "ptk_"+k.APIKey.ID+"_") || k.APIKey.RequestsPerMinute != perMinute {
		t.Fatalf("createApiKey = %+v", k)
	}
	return k.APIKey.ID, k.Key
}

// TestAPIKeyScopeAndRevocation: an affiliate's key reads public data and
// results with no sign-in, is refused (FORBIDDEN / API_KEY_SCOPE) on
// everything else, and stops working the moment an admin revokes it; both
// actions are audited and usage is counted per key in the metrics.
func TestAPIKeyScopeAndRevocation(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			a, c := startServer(t, b, nil)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "")
			p.Client.MustFail(t, "FORBIDDEN", "ROLE_REQUIRED", `mutation { createApiKey(input: {name: "x"}) { key } }`, nil)
			admin.MustFail(t, "BAD_USER_INPUT", "INVALID_RATE", `mutation { createApiKey(input: {name: "x", requestsPerMinute: 0}) { key } }`, nil)
			id, key := createKey(t, admin, "Partner LLP", 1000)
			aff := withKey(c, key)

			t.Run("public data and results", func(t *testing.T) {
				var tb struct{ CreateTable struct{ ID string } }
				admin.MustDo(t, `mutation($n: String!) { createTable(input: {name: $n, positions: 4}) { id } }`, map[string]any{"n": unique("keys")}, &tb)
				aff.MustDo(t, `query($t: ID!) { tables { id } jackpot { balance } results(first: 5) { edges { node { id } } }
					voidCounts(tableId: $t) { kind } bettingStop { stopped } }`, map[string]any{"t": tb.CreateTable.ID}, nil)
				aff.MustDo(t, `query { ... on Query { tables { id } } }`, nil, nil)
				auth := *aff
				auth.HTTP = &http.Client{Transport: keyTransport{"Authorization", "ApiKey " + key}}
				auth.MustDo(t, `{ results(first: 1) { edges { node { id } } } }`, nil, nil)
			})
			t.Run("out of scope", func(t *testing.T) {
				for _, q := range []string{
					`{ me { id } }`,
					`{ myBets { edges { node { id } } } }`,
					`{ auditLog { edges { node { id } } } }`,
					`{ apiKeys { id } }`,
					`{ tables { id } ...F } fragment F on Query { myLedger { edges { node { id } } } }`,
					`mutation { logout(refreshToken: "x") }`,
					`mutation { placeBet(input: {drawId: "1", selection: {position: 1}, stake: "100.00", idempotencyKey: "k"}) { id } }`,
				} {
					e := aff.MustFail(t, "FORBIDDEN", "API_KEY_SCOPE", q, nil)
					if !strings.Contains(e.Message, "public data and results") {
						t.Errorf("%s: message %q does not say what a key may do", q, e.Message)
					}
				}
			})
			t.Run("a key is not a bearer token's viewer", func(t *testing.T) {
				// A player's token next to the key does not lend the key its user.
				both := withKey(p.Client, key)
				both.Token = p.Client.Token
				both.MustFail(t, "FORBIDDEN", "API_KEY_SCOPE", `{ me { id } }`, nil)
			})
			t.Run("bad keys", func(t *testing.T) {
				withKey(c, "ptk_000000000000_"+strings.Repeat("A", 43)).MustFail(t, "UNAUTHENTICATED", "INVALID_API_KEY", `{ tables { id } }`, nil)
				withKey(c, key[:len(key)-1]+"B").MustFail(t, "UNAUTHENTICATED", "INVALID_API_KEY", `{ tables { id } }`, nil)
				withKey(c, "garbage").MustFail(t, "UNAUTHENTICATED", "INVALID_API_KEY", `{ tables { id } }`, nil)
			})
			t.Run("listed without secret", func(t *testing.T) {
				var out struct {
					APIKeys []struct {
						ID, Name  string
						RevokedAt *string
					} `json:"apiKeys"`
				}
				admin.MustDo(t, `{ apiKeys { id name revokedAt } }`, nil, &out)
				if len(out.APIKeys) != 1 || out.APIKeys[0].ID != id || out.APIKeys[0].Name != "Partner LLP" || out.APIKeys[0].RevokedAt != nil {
					t.Fatalf("apiKeys = %+v", out.APIKeys)
				}
			})
			t.Run("revocation", func(t *testing.T) {
				var out struct {
					RevokeAPIKey struct{ RevokedAt *string } `json:"revokeApiKey"`
				}
				admin.MustDo(t, `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, map[string]any{"id": id}, &out)
				if out.RevokeAPIKey.RevokedAt == nil {
					t.Fatal("revokeApiKey did not set revokedAt")
				}
				aff.MustFail(t, "UNAUTHENTICATED", "API_KEY_REVOKED", `{ tables { id } }`, nil)
				admin.MustFail(t, "NOT_FOUND", "", `mutation { revokeApiKey(id: "0123456789ab") { id } }`, nil)
			})
			t.Run("audited", func(t *testing.T) {
				var out struct {
					AuditLog struct {
						Edges []struct {
							Node struct{ Action, Subject string }
						}
					}
				}
				admin.MustDo(t, `{ auditLog(first: 20) { edges { node { action subject } } } }`, nil, &out)
				seen := map[string]bool{}
				for _, e := range nodes(out.AuditLog.Edges) {
					seen[e.Action] = true
				}
				if !seen["API_KEY_CREATED"] || !seen["API_KEY_REVOKED"] {
					t.Fatalf("audit log %+v lacks the key's creation or revocation", out.AuditLog.Edges)
				}
			})
			t.Run("usage metrics", func(t *testing.T) {
				m := scrape(t, a.Addr())
				for _, want := range []string{
					`pokertote_api_key_requests_total{key="` + id + `",outcome="served"} 3`,
					`pokertote_api_key_requests_total{key="` + id + `",outcome="out_of_scope"} 8`,
					`pokertote_api_key_rejected_total{reason="API_KEY_REVOKED"} 1`,
					`pokertote_api_key_rejected_total{reason="INVALID_API_KEY"} 3`,
				} {
					if !strings.Contains(m, want) {
						t.Errorf("metrics lack %s", want)
					}
				}
				if strings.Contains(m, key) {
					t.Error("the metrics show the key's secret")
				}
			})
		})
	}
}

// TestAPIKeyRateLimitAcrossReplicas: two replicas share Postgres and Redis;
// a key allowed 5 requests a minute gets 5 in all, alternating between the
// replicas, not 5 on each.
func TestAPIKeyRateLimitAcrossReplicas(t *testing.T) {
	t.Parallel()
	b := backends(t)[1]
	_, one := startServer(t, b, nil)
	_, two := startServer(t, b, nil)
	_, key := createKey(t, signIn(t, one, testAdminEmail, testAdminPassword), "Rate Partner", 5)
	replicas := []*gqltest.Client{withKey(one, key), withKey(two, key)}
	served, limited := 0, 0
	for i := range 10 {
		res, err := replicas[i%2].Do(context.Background(), `{ tables { id } }`, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case len(res.Errors) == 0:
			served++
		case res.Errors[0].Reason() == "RATE_LIMITED" && res.Status == http.StatusTooManyRequests:
			limited++
		default:
			t.Fatalf("request %d: %+v (HTTP %d)", i, res.Errors, res.Status)
		}
	}
	if served != 5 || limited != 5 {
		t.Fatalf("served %d, rate limited %d across two replicas; want 5 and 5", served, limited)
	}
}

// scrape returns the text of a server's /metrics.
func scrape(t *testing.T, addr string) string {
	t.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAPIKeyCostAndQuota: every response says what its operation cost
// (extensions.cost, requested and actual), and a key's responses carry its
// quota (RateLimit-Limit, -Remaining, -Reset, -Policy), which a costly
// operation spends faster than a cheap one: one request per root field,
// or one per 100 of its requested cost.
func TestAPIKeyCostAndQuota(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	_, c := startServer(t, b, nil)
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	createTable(t, admin, unique("quota-1"))
	createTable(t, admin, unique("quota-2"))
	_, key := createKey(t, admin, "Quota Partner", 20)
	k := withKey(c, key)
	do := func(q string) gqltest.Response {
		t.Helper()
		res, err := k.Do(context.Background(), q, nil)
		if err != nil || len(res.Errors) > 0 {
			t.Fatalf("%s: %v %+v", q, err, res.Errors)
		}
		return res
	}
	cost := func(res gqltest.Response) (requested, actual float64) {
		t.Helper()
		m, _ := res.Extensions["cost"].(map[string]any)
		requested, ok1 := m["requested"].(float64)
		actual, ok2 := m["actual"].(float64)
		if !ok1 || !ok2 {
			t.Fatalf("extensions.cost = %v", res.Extensions)
		}
		return requested, actual
	}
	quota := func(res gqltest.Response, remaining int) {
		t.Helper()
		h := res.Header
		if h.Get("RateLimit-Limit") != "20" || h.Get("RateLimit-Remaining") != strconv.Itoa(remaining) ||
			h.Get("RateLimit-Policy") != "20;w=60" || h.Get("RateLimit-Reset") == "" || h.Get("RateLimit-Reset") == "0" {
			t.Fatalf("quota headers %v, want limit 20 with %d remaining", h, remaining)
		}
	}

	res := do(`{ tables { id } }`)
	var tables struct{ Tables []struct{ ID string } }
	if err := json.Unmarshal(res.Data, &tables); err != nil || len(tables.Tables) < 2 {
		t.Fatalf("tables: %s", res.Data)
	}
	if req, act := cost(res); req != 1 || act != float64(len(tables.Tables)) {
		t.Errorf("{ tables { id } } cost requested %v, actual %v; want 1 and %d (the tables returned)", req, act, len(tables.Tables))
	}
	quota(res, 19)

	// A page of 50 draws: requested 1 + 50 × (edge + node) + pageInfo = 102,
	// so two requests of the allowance; actual is what the page held.
	res = do(`{ results(first: 50) { edges { node { id } } pageInfo { hasNextPage } } }`)
	var page struct {
		Results struct{ Edges []json.RawMessage }
	}
	_ = json.Unmarshal(res.Data, &page)
	if req, act := cost(res); req != 102 || act != float64(2+2*len(page.Results.Edges)) {
		t.Errorf("a page of 50: cost requested %v, actual %v; want 102 and %d", req, act, 2+2*len(page.Results.Edges))
	}
	quota(res, 17)

	// Anyone's response has a cost; a refused document has none to give.
	anon, err := c.Do(context.Background(), `{ __typename }`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if req, act := cost(anon); req != 0 || act != 0 {
		t.Errorf("{ __typename }: cost %v %v, want 0 and 0", req, act)
	}
	if anon.Header.Get("RateLimit-Limit") != "" {
		t.Errorf("a request without a key has quota headers: %v", anon.Header)
	}
}

// TestAPIKeySocketCaps: an API key's sockets and SSE streams are counted
// per key (WS_SOCKETS_PER_KEY), over every transport together: past the
// cap a socket is closed 4429 SOCKETS_PER_KEY and a stream refused 429
// FORBIDDEN / SOCKETS_PER_KEY, while another key is not held back.
func TestAPIKeySocketCaps(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) { cfg.WSSocketsPerKey = 2 })
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	tableID := createTable(t, admin, unique("key-caps"))
	_, key := createKey(t, admin, unique("caps"), 600)
	_, other := createKey(t, admin, unique("caps-other"), 600)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const sub = `subscription($t: ID!) { tableEvents(tableId: $t) { __typename } }`
	vars := map[string]any{"t": tableID}
	open := func(k string, legacy bool) *gqltest.Socket {
		t.Helper()
		s, err := c.Socket(ctx, gqltest.SocketOptions{Legacy: legacy, Header: http.Header{"X-Api-Key": {k}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	working := func(s *gqltest.Socket) bool {
		ch, err := s.Start(ctx, sub, vars)
		if err != nil {
			return false
		}
		r, ok := <-ch
		return ok && len(r.Errors) == 0
	}
	if !working(open(key, false)) || !working(open(key, true)) {
		t.Fatal("the key's first two sockets refused")
	}
	third := open(key, false)
	working(third)
	select {
	case <-third.Closed():
	case <-ctx.Done():
		t.Fatal("the key's third socket stayed open")
	}
	if code, reason, _ := third.CloseStatus(); code != 4429 || reason != "SOCKETS_PER_KEY" {
		t.Errorf("the key's third socket closed %d %q, want 4429 SOCKETS_PER_KEY", code, reason)
	}
	_, err := c.SSE(ctx, sub, vars, http.Header{"X-Api-Key": {key}})
	var se *gqltest.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusTooManyRequests || len(se.Body.Errors) == 0 || se.Body.Errors[0].Reason() != "SOCKETS_PER_KEY" {
		t.Errorf("the key's SSE stream past its cap: %v, want 429 SOCKETS_PER_KEY", err)
	}
	if !working(open(other, false)) {
		t.Error("another key's socket refused")
	}
}
