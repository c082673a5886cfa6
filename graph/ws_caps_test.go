package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/graph/wstransport"
)

// capsSocket is a graphql-transport-ws connection with a token ("" for
// anonymous), or the close status and reason it was refused with.
type capsSocket struct {
	c      *websocket.Conn
	status websocket.StatusCode
	reason string
}

func dialCaps(t *testing.T, ctx context.Context, addr, token string) *capsSocket {
	t.Helper()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/query", &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	s := &capsSocket{c: c}
	b, _ := json.Marshal(map[string]any{"type": "connection_init", "payload": map[string]any{"authToken": token}})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		s.closed(err)
		return s
	}
	for {
		m, err := s.read(ctx)
		if err != nil {
			s.closed(err)
			return s
		}
		if m.Type == "connection_ack" {
			// A socket over the per-user cap is closed right after its ack;
			// a ping tells the two apart.
			b, _ := json.Marshal(map[string]any{"type": "ping"})
			if err := c.Write(ctx, websocket.MessageText, b); err != nil {
				s.closed(err)
				return s
			}
			if m, err := s.read(ctx); err != nil || m.Type != "pong" {
				s.closed(err)
			}
			return s
		}
	}
}

func (s *capsSocket) closed(err error) {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		s.status, s.reason = ce.Code, ce.Reason
	} else {
		s.status, s.reason = -1, err.Error()
	}
}

func (s *capsSocket) read(ctx context.Context) (twsMsg, error) {
	_, b, err := s.c.Read(ctx)
	if err != nil {
		return twsMsg{}, err
	}
	var m twsMsg
	err = json.Unmarshal(b, &m)
	return m, err
}

func (s *capsSocket) subscribe(t *testing.T, ctx context.Context, id, doc string, vars map[string]any) twsMsg {
	t.Helper()
	return s.operation(t, ctx, "subscribe", id, doc, vars)
}

// operation sends an operation as a message of type typ ("subscribe" on
// graphql-transport-ws, "start" on the legacy protocol) and returns the
// first message about it.
func (s *capsSocket) operation(t *testing.T, ctx context.Context, typ, id, doc string, vars map[string]any) twsMsg {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"id": id, "type": typ, "payload": map[string]any{"query": doc, "variables": vars}})
	if err := s.c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := s.read(ctx)
		if err != nil {
			t.Fatalf("subscription %s: %v", id, err)
		}
		if m.ID == id {
			return m
		}
	}
}

// TestWebSocketCaps: a socket runs at most SubscriptionsPerSocket
// operations at once, a user holds at most SocketsPerUser sockets and an
// address at most SocketsPerAddress; over a cap the client gets the stable
// reason (an error on the operation, or close 4429 with the reason), and a
// closed socket frees its place.
func TestWebSocketCaps(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewServer(graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
		Authenticate: playerToken,
		WSCaps:       wstransport.Caps{SubscriptionsPerSocket: 2, SocketsPerUser: 2, SocketsPerAddress: 3},
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const doc = `subscription($t: ID!) { tableEvents(tableId: $t) { __typename seq } }`
	vars := map[string]any{"t": id(w.h.Table.ID)}

	a := dialCaps(t, ctx, addr, "u1")
	if a.status != 0 {
		t.Fatalf("first socket refused: %d %s", a.status, a.reason)
	}
	for _, sub := range []string{"1", "2"} {
		if m := a.subscribe(t, ctx, sub, doc, vars); m.Type != "next" {
			t.Fatalf("subscription %s: %s %s", sub, m.Type, m.Payload)
		}
	}
	if m := a.subscribe(t, ctx, "3", doc, vars); m.Type != "error" || !strings.Contains(string(m.Payload), wstransport.ReasonSubscriptionsPerSocket) {
		t.Errorf("third subscription on one socket: %s %s, want error %s", m.Type, m.Payload, wstransport.ReasonSubscriptionsPerSocket)
	}

	if b := dialCaps(t, ctx, addr, "u1"); b.status != 0 {
		t.Fatalf("user 1's second socket refused: %d %s", b.status, b.reason)
	}
	if c := dialCaps(t, ctx, addr, "u1"); c.status != wstransport.CloseTooMany || c.reason != wstransport.ReasonSocketsPerUser {
		t.Errorf("user 1's third socket: %d %q, want %d %s", c.status, c.reason, wstransport.CloseTooMany, wstransport.ReasonSocketsPerUser)
	}
	if d := dialCaps(t, ctx, addr, ""); d.status != 0 {
		t.Fatalf("an anonymous third socket of the address refused: %d %s", d.status, d.reason)
	}
	if e := dialCaps(t, ctx, addr, "u2"); e.status != wstransport.CloseTooMany || e.reason != wstransport.ReasonSocketsPerAddress {
		t.Errorf("the address's fourth socket: %d %q, want %d %s", e.status, e.reason, wstransport.CloseTooMany, wstransport.ReasonSocketsPerAddress)
	}

	// Closing a socket frees its place for the user and the address (the
	// server notices the close asynchronously: try until it has).
	_ = a.c.Close(websocket.StatusNormalClosure, "")
	for {
		f := dialCaps(t, ctx, addr, "u1")
		if f.status == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("a closed socket's place was never freed: %d %s", f.status, f.reason)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSSECaps: an SSE stream counts against the same caps as the sockets:
// per signed-in user and per address, whichever transport holds the
// others, with a 429 FORBIDDEN and the cap's reason; a stream that ends
// frees its place.
func TestSSECaps(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewServer(graph.AuthMiddleware(playerToken, graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
		Authenticate: playerToken,
		WSCaps:       wstransport.Caps{SocketsPerUser: 2, SocketsPerAddress: 3},
	})))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	body := `{"query":"subscription($t: ID!) { tableEvents(tableId: $t) { seq } }","variables":{"t":"` + id(w.h.Table.ID) + `"}}`
	// open starts an SSE stream as token ("" anonymous); it returns the
	// response (the stream open while its body is) or the refusal.
	open := func(token string) (*http.Response, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode == http.StatusOK {
			return res, ""
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return nil, fmt.Sprintf("%d %s", res.StatusCode, b)
	}
	// A socket of user 1 and a stream of user 1 fill user 1's two places.
	sock := dialCaps(t, ctx, srv.Listener.Addr().String(), "u1")
	if sock.status != 0 {
		t.Fatalf("the socket: %d %s", sock.status, sock.reason)
	}
	s1, why := open("u1")
	if s1 == nil {
		t.Fatalf("user 1's first stream refused: %s", why)
	}
	if _, why := open("u1"); !strings.HasPrefix(why, "429") || !strings.Contains(why, wstransport.ReasonSocketsPerUser) {
		t.Errorf("user 1's third socket or stream: %q, want 429 %s", why, wstransport.ReasonSocketsPerUser)
	}
	s2, why := open("")
	if s2 == nil {
		t.Fatalf("an anonymous stream, the address's third: %s", why)
	}
	if _, why := open("u2"); !strings.HasPrefix(why, "429") || !strings.Contains(why, wstransport.ReasonSocketsPerAddress) {
		t.Errorf("the address's fourth: %q, want 429 %s", why, wstransport.ReasonSocketsPerAddress)
	}
	// A stream that ends frees its place.
	s1.Body.Close()
	for {
		s3, _ := open("u1")
		if s3 != nil {
			s3.Body.Close()
			break
		}
		if ctx.Err() != nil {
			t.Fatal("a closed stream's place was never freed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	s2.Body.Close()
}

// dialLegacy opens a legacy graphql-ws (subscriptions-transport-ws)
// connection with a token, or records how it was refused.
func dialLegacy(t *testing.T, ctx context.Context, addr, token string) *capsSocket {
	t.Helper()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/query", &websocket.DialOptions{Subprotocols: []string{"graphql-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	s := &capsSocket{c: c}
	b, _ := json.Marshal(map[string]any{"type": "connection_init", "payload": map[string]any{"authToken": token}})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		s.closed(err)
		return s
	}
	for {
		m, err := s.read(ctx)
		if err != nil {
			s.closed(err)
			return s
		}
		if m.Type == "connection_ack" {
			return s
		}
	}
}

func (s *capsSocket) start(t *testing.T, ctx context.Context, id, doc string, vars map[string]any) twsMsg {
	t.Helper()
	return s.operation(t, ctx, "start", id, doc, vars)
}

// TestLegacyWebSocketCaps: the legacy protocol is held to the same caps
// as graphql-transport-ws (it took 40 subscriptions on one socket and 12
// sockets per user): an operation over the socket's cap gets an "error"
// of SUBSCRIPTIONS_PER_SOCKET and a stopped one frees its place; a user's
// socket over its cap is closed 4429 SOCKETS_PER_USER, an address's 4429
// SOCKETS_PER_ADDRESS, counted together with the other protocol's sockets;
// an expired token closes 4401 TOKEN_EXPIRED.
func TestLegacyWebSocketCaps(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewServer(graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
		Authenticate: func(ctx context.Context, token string) (context.Context, error) {
			if token == "expired" {
				return ctx, errs.R(errs.Unauthenticated, graph.ReasonTokenExpired, "the access token has expired")
			}
			return playerToken(ctx, token)
		},
		WSCaps: wstransport.Caps{SubscriptionsPerSocket: 2, SocketsPerUser: 2, SocketsPerAddress: 3},
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const doc = `subscription($t: ID!) { tableEvents(tableId: $t) { __typename seq } }`
	vars := map[string]any{"t": id(w.h.Table.ID)}

	if x := dialLegacy(t, ctx, addr, "expired"); x.status != graph.CloseUnauthorized || x.reason != graph.ReasonTokenExpired {
		t.Errorf("an expired token: %d %q, want %d %s", x.status, x.reason, graph.CloseUnauthorized, graph.ReasonTokenExpired)
	}

	a := dialLegacy(t, ctx, addr, "u1")
	if a.status != 0 {
		t.Fatalf("first socket refused: %d %s", a.status, a.reason)
	}
	for _, sub := range []string{"1", "2"} {
		if m := a.start(t, ctx, sub, doc, vars); m.Type != "data" {
			t.Fatalf("subscription %s: %s %s", sub, m.Type, m.Payload)
		}
	}
	if m := a.start(t, ctx, "3", doc, vars); m.Type != "error" || !strings.Contains(string(m.Payload), wstransport.ReasonSubscriptionsPerSocket) {
		t.Errorf("third subscription on one socket: %s %s, want error %s", m.Type, m.Payload, wstransport.ReasonSubscriptionsPerSocket)
	}
	// A stopped operation frees its place on the socket.
	b, _ := json.Marshal(map[string]any{"id": "1", "type": "stop"})
	if err := a.c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		m := a.start(t, ctx, "4-"+strconv.Itoa(i), doc, vars)
		if m.Type == "data" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("a stopped subscription's place was never freed: %s %s", m.Type, m.Payload)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// User 1's second socket on the other protocol counts too.
	if b := dialCaps(t, ctx, addr, "u1"); b.status != 0 {
		t.Fatalf("user 1's second socket refused: %d %s", b.status, b.reason)
	}
	if c := dialLegacy(t, ctx, addr, "u1"); c.status != wstransport.CloseTooMany || c.reason != wstransport.ReasonSocketsPerUser {
		t.Errorf("user 1's third socket: %d %q, want %d %s", c.status, c.reason, wstransport.CloseTooMany, wstransport.ReasonSocketsPerUser)
	}
	if d := dialLegacy(t, ctx, addr, ""); d.status != 0 {
		t.Fatalf("an anonymous third socket of the address refused: %d %s", d.status, d.reason)
	}
	if e := dialLegacy(t, ctx, addr, "u2"); e.status != wstransport.CloseTooMany || e.reason != wstransport.ReasonSocketsPerAddress {
		t.Errorf("the address's fourth socket: %d %q, want %d %s", e.status, e.reason, wstransport.CloseTooMany, wstransport.ReasonSocketsPerAddress)
	}

	// Closing a legacy socket frees its place for the user and the address.
	_ = a.c.Close(websocket.StatusNormalClosure, "")
	for {
		f := dialLegacy(t, ctx, addr, "u1")
		if f.status == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("a closed socket's place was never freed: %d %s", f.status, f.reason)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
