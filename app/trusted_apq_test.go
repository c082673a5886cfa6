package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/trusteddocs"
)

// TestTrustedDocumentsAPQRegistrationRefused: in production
// (TRUSTED_DOCUMENTS=enforce) an anonymous client that sends an APQ
// registration (extensions.persistedQuery's sha256Hash with the query
// text) of an unregistered document, over HTTP, graphql-transport-ws,
// graphql-ws or server-sent events, is refused (FORBIDDEN / DOCUMENT_NOT_TRUSTED), the shared APQ
// cache (in memory, or Redis shared by the replicas) does not hold it
// afterwards, and sending its hash alone is refused too, to the anonymous
// client and to an admin alike (the admin, exempt, reads the shared cache:
// had the registration been stored, its hash would run for them).
func TestTrustedDocumentsAPQRegistrationRefused(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			_, c := startServer(t, b, enforcingProduction)
			admin := trustedAdmin(t, c)

			var rdb *redis.Client
			if b.redisURL != "" {
				opt, err := redis.ParseURL(b.redisURL)
				if err != nil {
					t.Fatal(err)
				}
				rdb = redis.NewClient(opt)
				t.Cleanup(func() { rdb.Close() })
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()

			// Each transport registers a document of its own (a distinct
			// hash), so one's refusal cannot hide another's storing.
			for _, proto := range []string{"http", "graphql-transport-ws", "graphql-ws", "sse"} {
				t.Run(proto, func(t *testing.T) {
					doc := "query Probe" + strings.ReplaceAll(proto, "-", "") + ` { tables { id name } }`
					hash := strings.TrimPrefix(trusteddocs.ID(doc), trusteddocs.Prefix)
					ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}
					send := func(who *gqltest.Client, body map[string]any) gqltest.Response {
						t.Helper()
						return sendOver(ctx, t, proto, who, body)
					}

					// (a) The registration is refused with a stable code.
					r := send(c, map[string]any{"query": doc, "extensions": ext})
					if len(r.Errors) == 0 || r.Errors[0].Code() != "FORBIDDEN" || r.Errors[0].Reason() != "DOCUMENT_NOT_TRUSTED" {
						t.Errorf("anonymous APQ registration: %s %+v, want FORBIDDEN / DOCUMENT_NOT_TRUSTED", r.Data, r.Errors)
					}
					if len(r.Data) > 0 && string(r.Data) != "null" {
						t.Errorf("anonymous APQ registration ran: %s", r.Data)
					}
					// (b) The shared cache does not hold it.
					if rdb != nil {
						if n, err := rdb.Exists(ctx, b.redisPrefix+"apq:"+hash).Result(); err != nil || n != 0 {
							t.Errorf("Redis holds the refused registration under %sapq:%s (%d, %v)", b.redisPrefix, hash, n, err)
						}
					}
					// (c) Its hash alone is refused, to the anonymous client
					// and to the admin, who reads the shared cache.
					for _, who := range []struct {
						name string
						c    *gqltest.Client
					}{{"anonymous", c}, {"admin", admin}} {
						r := send(who.c, map[string]any{"extensions": ext})
						if len(r.Errors) == 0 || (len(r.Data) > 0 && string(r.Data) != "null") {
							t.Errorf("%s, hash alone after the refused registration: ran %s", who.name, r.Data)
							continue
						}
						if e := r.Errors[0]; e.Code() != "BAD_USER_INPUT" || e.Reason() != "PERSISTED_QUERY_NOT_FOUND" {
							t.Errorf("%s, hash alone: %+v, want BAD_USER_INPUT / PERSISTED_QUERY_NOT_FOUND (the cache does not hold it)", who.name, r.Errors)
						}
					}
				})
			}

			// A registered document's hash still runs for anyone, and an
			// admin (exempt) may still register an ad-hoc one and run it by
			// hash.
			tablesID, _ := webDoc(t, "Tables")
			wantOK(t, "anonymous, a registered document's hash", postBody(t, c, map[string]any{
				"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": strings.TrimPrefix(tablesID, trusteddocs.Prefix)}}}))
			adhoc := "query AdminAdhoc { tables { id } }"
			ext := map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": strings.TrimPrefix(trusteddocs.ID(adhoc), trusteddocs.Prefix)}}
			wantOK(t, "admin, APQ registration", postBody(t, admin, map[string]any{"query": adhoc, "extensions": ext}))
			wantOK(t, "admin, hash alone", postBody(t, admin, map[string]any{"extensions": ext}))
			if r := postBody(t, c, map[string]any{"extensions": ext}); len(r.Errors) == 0 {
				t.Errorf("anonymous ran the admin's ad-hoc document by hash: %s", r.Data)
			}
			if rdb != nil {
				t.Cleanup(func() {
					rdb.Del(context.Background(), b.redisPrefix+"apq:"+strings.TrimPrefix(trusteddocs.ID(adhoc), trusteddocs.Prefix))
				})
			}
		})
	}
}

// sendOver sends one operation's body over proto ("http",
// "graphql-transport-ws", "graphql-ws" or "sse") and returns its first
// response: a refusal before an SSE stream began is its body.
func sendOver(ctx context.Context, t *testing.T, proto string, who *gqltest.Client, body map[string]any) gqltest.Response {
	t.Helper()
	switch proto {
	case "http":
		return postBody(t, who, body)
	case "sse":
		st, err := who.SSEPayload(ctx, body, nil)
		var refused *gqltest.StatusError
		if errors.As(err, &refused) {
			return refused.Body
		}
		if err != nil {
			t.Fatalf("sse: %v", err)
		}
		defer st.Close()
		select {
		case r, ok := <-st.Next:
			if !ok {
				t.Fatal("sse: the stream ended without a response")
			}
			return r
		case <-ctx.Done():
			t.Fatal("sse: no response")
		}
		return gqltest.Response{}
	}
	sock, err := who.Socket(ctx, gqltest.SocketOptions{Legacy: proto == "graphql-ws"})
	if err != nil {
		t.Fatalf("socket: %v", err)
	}
	defer sock.Close()
	return socketFirst(ctx, t, sock, body)
}

// TestTrustedDocumentsAPQWithoutRedis: the persisted-query cache every
// replica shares is Redis; while it is down the cache misses, and trust
// still decides. In production (TRUSTED_DOCUMENTS=enforce), over each
// transport, with Redis stopped: an anonymous registration of an
// unregistered document is refused (FORBIDDEN / DOCUMENT_NOT_TRUSTED);
// the hash of an admin's ad-hoc document, stored before the stop, runs for
// nobody (the anonymous client is refused, the admin is told to send the
// text again); a registered document still runs by its hash (the manifest
// needs no Redis); an admin's registration made meanwhile runs but is not
// kept, so its hash runs for no anonymous client, then or after Redis is
// back, and nothing refused was stored.
func TestTrustedDocumentsAPQWithoutRedis(t *testing.T) {
	t.Parallel()
	rs := testenv.StartRedisServer(t)
	b := backend{name: "postgres+own redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: rs.URL(), redisPrefix: "apqdown:"}
	_, c := startServer(t, b, enforcingProduction)
	admin := trustedAdmin(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	hashOf := func(doc string) string { return strings.TrimPrefix(trusteddocs.ID(doc), trusteddocs.Prefix) }
	byHash := func(doc string) map[string]any {
		return map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hashOf(doc)}}}
	}
	register := func(doc string) map[string]any {
		body := byHash(doc)
		body["query"] = doc
		return body
	}
	refusedRun := func(what string, r gqltest.Response, code, reason string) {
		t.Helper()
		if len(r.Data) > 0 && string(r.Data) != "null" {
			t.Errorf("%s ran: %s", what, r.Data)
		}
		if len(r.Errors) == 0 || r.Errors[0].Code() != code || r.Errors[0].Reason() != reason {
			t.Errorf("%s: %+v, want %s / %s", what, r.Errors, code, reason)
		}
	}

	before := "query AdminBeforeStop { tables { id } }"
	wantOK(t, "admin's registration before the stop", postBody(t, admin, register(before)))
	rs.Stop()
	waitReadyz(t, c.URL, "redis", "unavailable")

	_, tablesDoc := webDoc(t, "Tables")
	var refused, adhoc []string
	for _, proto := range []string{"http", "graphql-transport-ws", "graphql-ws", "sse"} {
		t.Run(proto, func(t *testing.T) {
			send := func(who *gqltest.Client, body map[string]any) gqltest.Response {
				t.Helper()
				return sendOver(ctx, t, proto, who, body)
			}
			probe := "query ProbeDown" + strings.ReplaceAll(proto, "-", "") + " { tables { id name } }"
			refused = append(refused, probe)
			refusedRun("anonymous registration", send(c, register(probe)), "FORBIDDEN", "DOCUMENT_NOT_TRUSTED")
			refusedRun("anonymous, the hash stored before the stop", send(c, byHash(before)), "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND")
			refusedRun("admin, the hash stored before the stop", send(admin, byHash(before)), "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND")
			wantOK(t, "anonymous, a registered document's hash", send(c, byHash(tablesDoc)))
			during := "query AdminDuringStop" + strings.ReplaceAll(proto, "-", "") + " { tables { id } }"
			adhoc = append(adhoc, during)
			wantOK(t, "admin's registration while Redis is down", send(admin, register(during)))
			refusedRun("anonymous, the admin's hash from while Redis is down", send(c, byHash(during)), "BAD_USER_INPUT", "PERSISTED_QUERY_NOT_FOUND")
		})
	}

	rs.Start()
	waitReadyz(t, c.URL, "redis", "ok")
	opt, err := redis.ParseURL(rs.URL())
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	for _, doc := range append(refused, adhoc...) {
		if n, err := rdb.Exists(ctx, b.redisPrefix+"apq:"+hashOf(doc)).Result(); err != nil || n != 0 {
			t.Errorf("Redis holds %q after the outage (%d, %v)", doc, n, err)
		}
	}
	for _, doc := range adhoc {
		r := postBody(t, c, byHash(doc))
		if len(r.Data) > 0 && string(r.Data) != "null" {
			t.Errorf("anonymous ran the admin's %q by hash after the outage: %s", doc, r.Data)
		}
	}
}

// trustedAdmin signs the admin in through the web client's registered Login
// document (an enforcing server runs no other text for an anonymous
// client) and returns the admin's client.
func trustedAdmin(t *testing.T, c *gqltest.Client) *gqltest.Client {
	t.Helper()
	_, login := webDoc(t, "Login")
	var in struct {
		Login struct{ AccessToken string } `json:"login"`
	}
	c.MustDo(t, login, map[string]any{"email": testAdminEmail, "password": testAdminPassword}, &in)
	return c.WithToken(in.Login.AccessToken)
}
