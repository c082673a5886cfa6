package graph_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/graph/wstransport"
)

// smallSendBuffers gives every accepted connection a small kernel send
// buffer, so that a client that stops reading backs up into the server's
// subscription buffer after a few messages rather than megabytes.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// twsClient is a raw graphql-transport-ws client: it reads every message
// itself, ids included.
type twsClient struct {
	t *testing.T
	c *websocket.Conn
}

func dialTWS(t *testing.T, ctx context.Context, addr string, rcvbuf int) *twsClient {
	t.Helper()
	return dialTWSInit(t, ctx, addr, rcvbuf, map[string]any{})
}

// dialTWSInit is dialTWS with init as connection_init's payload (a token).
func dialTWSInit(t *testing.T, ctx context.Context, addr string, rcvbuf int, init map[string]any) *twsClient {
	t.Helper()
	d := &net.Dialer{}
	if rcvbuf > 0 {
		d.Control = func(_, _ string, rc syscall.RawConn) error {
			return rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvbuf) })
		}
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/query", &websocket.DialOptions{HTTPClient: hc, Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	c.SetReadLimit(1 << 20)
	cl := &twsClient{t: t, c: c}
	cl.write(ctx, map[string]any{"type": "connection_init", "payload": init})
	if m := cl.read(ctx); m.Type != "connection_ack" {
		t.Fatalf("got %+v, want connection_ack", m)
	}
	return cl
}

type twsMsg struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

func (cl *twsClient) write(ctx context.Context, v any) {
	cl.t.Helper()
	b, _ := json.Marshal(v)
	if err := cl.c.Write(ctx, websocket.MessageText, b); err != nil {
		cl.t.Fatal(err)
	}
}

func (cl *twsClient) subscribe(ctx context.Context, id, doc string, vars map[string]any) {
	cl.t.Helper()
	cl.write(ctx, map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": doc, "variables": vars}})
}

func (cl *twsClient) read(ctx context.Context) twsMsg {
	cl.t.Helper()
	_, b, err := cl.c.Read(ctx)
	if err != nil {
		cl.t.Fatalf("read: %v", err)
	}
	var m twsMsg
	if err := json.Unmarshal(b, &m); err != nil {
		cl.t.Fatalf("message %s: %v", b, err)
	}
	return m
}

// TestSharedNextMessages: graphql-transport-ws subscribers of tableEvents
// get the shared "next" messages (the fast path is the one taken), each
// with its own subscription's id, in seq order, never another document's
// shape (two documents on one connection, the same id on two connections
// with different documents, an id needing escapes); a subscriber that
// stops reading is dropped (its stream completes after an in-order prefix)
// while the others receive every event.
func TestSharedNextMessages(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewUnstartedServer(graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
	}))
	srv.Listener = smallSendBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	evs := w.advance(4)
	w.caughtUp(evs)
	first := evs[len(evs)-1].Seq

	const short = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { seq } }`
	const long = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { __typename seq at } }`
	odd := "x\"<&>\u2028 id"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	vars := map[string]any{"t": id(w.h.Table.ID), "a": first}

	a := dialTWS(t, ctx, addr, 0)
	a.subscribe(ctx, "1", short, vars)
	a.subscribe(ctx, odd, long, vars)
	b := dialTWS(t, ctx, addr, 0)
	b.subscribe(ctx, "1", long, vars)
	slow := dialTWS(t, ctx, addr, 2048)
	slow.subscribe(ctx, "s", long, vars)
	// Subscriptions start asynchronously: wait until all four have joined
	// the read model's fan-out before events flow.
	for w.live.Subscribers(w.h.Table.ID) < 4 {
		if ctx.Err() != nil {
			t.Fatal("the subscriptions never started")
		}
		time.Sleep(5 * time.Millisecond)
	}

	// Events come in batches the keeping-up subscribers read before the
	// next (a burst of thousands would overrun anyone's buffer); slow
	// reads none of them meanwhile.
	const live, batch = 1500, 50
	before := wstransport.SharedWrites()
	last := first + live

	// check reads one message of doc's shape at seq want.
	check := func(who string, m twsMsg, doc string, want int64) {
		t.Helper()
		if m.Type != "next" {
			t.Fatalf("%s: got %s %s, want next seq %d", who, m.Type, m.Payload, want)
		}
		var p struct {
			Data struct{ TableEvents map[string]any }
		}
		if err := json.Unmarshal(m.Payload, &p); err != nil {
			t.Fatalf("%s: %s: %v", who, m.Payload, err)
		}
		e := p.Data.TableEvents
		if got := int64(e["seq"].(float64)); got != want {
			t.Fatalf("%s: got seq %d, want %d", who, got, want)
		}
		switch doc {
		case short:
			if len(e) != 1 {
				t.Fatalf("%s (seq only) got %s", who, m.Payload)
			}
		case long:
			if len(e) != 3 || e["__typename"] == nil || e["at"] == nil {
				t.Fatalf("%s (typename, seq, at) got %s", who, m.Payload)
			}
		}
	}

	// a's two subscriptions interleave; each keeps its order and shape.
	docOf := map[string]string{"1": short, odd: long}
	next := map[string]int64{"1": first + 1, odd: first + 1}
	nextB := first + 1
	for sent := first; sent < last; {
		var fakes []tote.TableEvent
		for range batch {
			sent++
			e := evs[0]
			e.Seq = sent
			fakes = append(fakes, e)
		}
		w.caughtUp(fakes)
		for next["1"] <= sent || next[odd] <= sent {
			m := a.read(ctx)
			doc, ok := docOf[m.ID]
			if !ok {
				t.Fatalf("a: message for id %q: %s %s", m.ID, m.Type, m.Payload)
			}
			check("a/"+m.ID, m, doc, next[m.ID])
			next[m.ID]++
		}
		for ; nextB <= sent; nextB++ {
			m := b.read(ctx)
			if m.ID != "1" {
				t.Fatalf("b: message for id %q", m.ID)
			}
			check("b", m, long, nextB)
		}
	}
	if n := wstransport.SharedWrites() - before; n < 3*live-2*2 {
		t.Fatalf("%d shared writes for %d events to 3 keeping-up subscribers: the fast path was not taken", n, live)
	}

	// slow: an in-order prefix, then its stream completes.
	seq := first + 1
	for {
		m := slow.read(ctx)
		if m.ID != "s" {
			t.Fatalf("slow: message for id %q", m.ID)
		}
		if m.Type == "complete" {
			break
		}
		check("slow", m, long, seq)
		seq++
	}
	if seq > last {
		t.Fatalf("the slow subscriber got all %d events: it was never dropped", live)
	}
	t.Logf("the slow subscriber was dropped after %d of %d events", seq-first-1, live)
}
