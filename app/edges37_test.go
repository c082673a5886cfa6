package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// TestSubscriptionOfTwoAliases: a subscription selecting tableEvents twice
// (aliases) is a client's mistake, answered BAD_USER_INPUT /
// GRAPHQL_VALIDATION_FAILED on the socket and over SSE, not INTERNAL; the
// socket stays usable.
func TestSubscriptionOfTwoAliases(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, nil)
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	tableID := createTable(t, admin, unique("aliases"))
	q := `subscription($t: ID!) { a: tableEvents(tableId: $t) { __typename } b: tableEvents(tableId: $t) { __typename } }`
	vars := map[string]any{"t": tableID}
	for _, o := range []gqltest.SocketOptions{{}, {Legacy: true}} {
		s := openSocket(t, c, o)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := s.Do(ctx, q, vars)
		cancel()
		if err != nil || len(res.Errors) == 0 || res.Errors[0].Code() != "BAD_USER_INPUT" || res.Errors[0].Reason() != "GRAPHQL_VALIDATION_FAILED" {
			t.Fatalf("legacy=%v: two aliases answered %v %s %+v, want BAD_USER_INPUT GRAPHQL_VALIDATION_FAILED", o.Legacy, err, res.Data, res.Errors)
		}
		socketMustDo(t, s, `{ tables { id } }`, nil)
	}
	res := c.MustFail(t, "BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED", q, vars)
	if !strings.Contains(res.Message, "one root field") {
		t.Fatalf("the message does not say what is wrong: %q", res.Message)
	}
}

// TestProductionEdges: in production the WebSocket's origin check is the
// CORS one (scheme and case count), and an anonymous client's unregistered
// document is refused before validation, so its errors tell nothing about
// the schema.
func TestProductionEdges(t *testing.T) {
	t.Parallel()
	a, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) {
		cfg.Env = "production"
		cfg.AllowedOrigins = []string{"https://app.pokertote.kz"}
		cfg.BeaconAllowLocal = true
		cfg.Introspection, cfg.Playground = false, false
		cfg.TrustedDocuments = "enforce"
	})
	dial := func(origin string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws://"+a.Addr()+"/query", &websocket.DialOptions{
			Subprotocols: []string{"graphql-transport-ws"},
			HTTPHeader:   http.Header{"Origin": {origin}},
		})
		if err == nil {
			conn.CloseNow()
		}
		return err
	}
	if err := dial("https://app.pokertote.kz"); err != nil {
		t.Fatalf("the allowed origin was refused: %v", err)
	}
	for _, origin := range []string{"http://app.pokertote.kz", "https://APP.pokertote.kz", "HTTPS://app.pokertote.kz", "http://" + a.Addr()} {
		if err := dial(origin); err == nil {
			t.Errorf("origin %s opened a WebSocket though CORS refuses it", origin)
		}
	}
	for _, q := range []string{`{ me { passwordHash } }`, `{ tables { id } }`, `{ __schema { types { name } } }`} {
		e := c.MustFail(t, "FORBIDDEN", "DOCUMENT_NOT_TRUSTED", q, nil)
		if strings.Contains(e.Message, "passwordHash") || strings.Contains(e.Message, "Cannot query") {
			t.Errorf("%s: the refusal tells about the schema: %q", q, e.Message)
		}
	}
}
