package graph_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph"
)

// readRaw reads one message's bytes as the server wrote them.
func (cl *twsClient) readRaw(ctx context.Context) []byte {
	cl.t.Helper()
	typ, b, err := cl.c.Read(ctx)
	if err != nil {
		cl.t.Fatalf("read: %v", err)
	}
	if typ != websocket.MessageText {
		cl.t.Fatalf("got a %v message", typ)
	}
	return b
}

// TestOneEncodePerEventForEveryViewer: viewers of the same tableEvents
// subscription on different connections receive, for every event, the
// same bytes, from one encode per event however many they are; a viewer
// whose subscription has another id gets the same bytes with its own id in
// them (still no encode of its own).
func TestOneEncodePerEventForEveryViewer(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewServer(graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	evs := w.advance(4)
	w.caughtUp(evs)
	first := evs[len(evs)-1].Seq

	const doc = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { __typename seq at } }`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	vars := map[string]any{"t": id(w.h.Table.ID), "a": first}
	viewers := []*twsClient{dialTWS(t, ctx, addr, 0), dialTWS(t, ctx, addr, 0), dialTWS(t, ctx, addr, 0)}
	ids := []string{"1", "1", "2"}
	for i, v := range viewers {
		v.subscribe(ctx, ids[i], doc, vars)
	}
	for w.live.Subscribers(w.h.Table.ID) < len(viewers) {
		if ctx.Err() != nil {
			t.Fatal("the subscriptions never started")
		}
		time.Sleep(5 * time.Millisecond)
	}

	const n = 40
	before := graph.SharedEncodes()
	var fakes []tote.TableEvent
	for i := range n {
		e := evs[0]
		e.Seq = first + 1 + int64(i)
		fakes = append(fakes, e)
	}
	w.caughtUp(fakes)
	for i := range n {
		got := make([][]byte, len(viewers))
		for j, v := range viewers {
			got[j] = v.readRaw(ctx)
		}
		if !bytes.Equal(got[0], got[1]) {
			t.Fatalf("event %d: two viewers of one subscription got different bytes:\n%s\n%s", i, got[0], got[1])
		}
		if want := bytes.Replace(got[0], []byte(`"id":"1"`), []byte(`"id":"2"`), 1); !bytes.Equal(got[2], want) {
			t.Fatalf("event %d: the viewer with id 2 got\n%s\nwant\n%s", i, got[2], want)
		}
		if !bytes.Contains(got[0], []byte(`"seq":`)) || !bytes.HasSuffix(got[0], []byte(`,"id":"1","type":"next"}`)) {
			t.Fatalf("event %d: not a next message: %s", i, got[0])
		}
	}
	if enc := graph.SharedEncodes() - before; enc != n {
		t.Fatalf("%d encodes for %d events to %d viewers of one subscription, want %d", enc, n, len(viewers), n)
	}
}

// TestTableEventsNothingPerViewer: sharing a table event's rendering
// between viewers is sound only while no field reachable from TableEvent
// depends on who asks. No such field carries an access directive; a
// change that adds one must key the shared rendering by the viewer's
// access too (graph/tote_render.go).
func TestTableEventsNothingPerViewer(t *testing.T) {
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}, Directives: graph.Directives()})
	s := es.Schema()
	seen := map[string]bool{}
	var walk func(name string)
	walk = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		def := s.Types[name]
		if def == nil {
			t.Fatalf("type %s not in the schema", name)
		}
		for _, p := range s.GetPossibleTypes(def) {
			walk(p.Name)
		}
		for _, f := range def.Fields {
			for _, d := range f.Directives {
				if d.Name != "deprecated" {
					t.Errorf("%s.%s carries @%s: a table event's rendering would depend on the viewer", name, f.Name, d.Name)
				}
			}
			walk(f.Type.Name())
		}
	}
	walk(s.Subscription.Fields.ForName("tableEvents").Type.Name())
	if len(seen) < 10 {
		t.Fatalf("walked only %d types", len(seen))
	}
	_ = ast.Object
}

// TestPerUserEventsStayPerUser: two signed-in viewers on their own sockets,
// each subscribed to myEvents (the same document) and to the same
// tableEvents document. Each user's balance change reaches only that user,
// and is not rendered for sharing (sharedEncodes counts only the table
// events), while the table events both viewers receive are byte-identical
// from one encode each.
func TestPerUserEventsStayPerUser(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewServer(graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
		Authenticate: playerToken,
	}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	evs := w.advance(4)
	w.caughtUp(evs)
	first := evs[len(evs)-1].Seq

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const tableDoc = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { __typename seq } }`
	const userDoc = `subscription { myEvents { __typename ... on BalanceChanged { balance } } }`
	users := []int64{1, 2}
	viewers := make([]*twsClient, len(users))
	for i, u := range users {
		viewers[i] = dialTWSInit(t, ctx, addr, 0, map[string]any{"authToken": "u" + itoa(u)})
		viewers[i].subscribe(ctx, "t", tableDoc, map[string]any{"t": id(w.h.Table.ID), "a": first})
		viewers[i].subscribe(ctx, "m", userDoc, nil)
	}
	for w.live.Subscribers(w.h.Table.ID) < len(users) ||
		w.hub.Subscribers(event.UserTopic(ids.UserID(1)))+w.hub.Subscribers(event.UserTopic(ids.UserID(2))) < len(users) {
		if ctx.Err() != nil {
			t.Fatal("the subscriptions never started")
		}
		time.Sleep(5 * time.Millisecond)
	}

	before := graph.SharedEncodes()
	balance := func(u int64) string { return money.Amount(1000*u + 7).String() }
	for _, u := range users {
		ue := event.UserEvent{Type: event.BalanceChanged, At: time.Now(), Balance: 1000*u + 7}
		w.hub.Deliver(event.UserTopic(ids.UserID(u)), ue.Encode())
	}
	// Two table events after the user events: a viewer reads until it has
	// both, so a user event sent to the wrong socket would be read too.
	var fakes []tote.TableEvent
	for i := range 2 {
		e := evs[0]
		e.Seq = first + 1 + int64(i)
		fakes = append(fakes, e)
	}
	w.caughtUp(fakes)
	tableFrames := make([][][]byte, len(users))
	for i, v := range viewers {
		var own []string
		for len(tableFrames[i]) < len(fakes) {
			b := v.readRaw(ctx)
			switch {
			case bytes.HasSuffix(b, []byte(`,"id":"t","type":"next"}`)):
				tableFrames[i] = append(tableFrames[i], b)
			case bytes.Contains(b, []byte(`"id":"m"`)):
				own = append(own, string(b))
			default:
				t.Fatalf("user %d: unexpected message %s", users[i], b)
			}
		}
		if len(own) == 0 { // the user event may come after the table events
			own = append(own, string(v.readRaw(ctx)))
		}
		for _, u := range users {
			has := false
			for _, m := range own {
				has = has || strings.Contains(m, `"balance":"`+balance(u)+`"`)
			}
			if mine := u == users[i]; has != mine {
				t.Fatalf("user %d got %q; user %d's balance change there: %v, want %v", users[i], own, u, has, mine)
			}
		}
		if len(own) != 1 {
			t.Fatalf("user %d got %d messages on myEvents, want 1: %q", users[i], len(own), own)
		}
	}
	for k := range fakes {
		if !bytes.Equal(tableFrames[0][k], tableFrames[1][k]) {
			t.Fatalf("table event %d: the two users got different bytes:\n%s\n%s", k, tableFrames[0][k], tableFrames[1][k])
		}
	}
	if enc := graph.SharedEncodes() - before; enc != int64(len(fakes)) {
		t.Fatalf("%d shared encodes for %d table events and %d user events, want %d", enc, len(fakes), len(users), len(fakes))
	}
}

// TestOneEncodeAcrossProtocols: a graphql-transport-ws viewer, a legacy
// graphql-ws viewer and an SSE viewer of the same tableEvents document
// (anonymous: a public table) get, for every event, the same data bytes,
// from one encode per event for the three of them.
func TestOneEncodeAcrossProtocols(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	h := graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
	})
	// Every rendering of a table event through gqlgen resolves its seq
	// once, shared or not: count them.
	var renders atomic.Int64
	h.AroundFields(func(ctx context.Context, next graphql.Resolver) (any, error) {
		if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Field.Name == "seq" {
			renders.Add(1)
		}
		return next(ctx)
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	evs := w.advance(4)
	w.caughtUp(evs)
	first := evs[len(evs)-1].Seq
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const doc = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { __typename seq at } }`
	vars := map[string]any{"t": id(w.h.Table.ID), "a": first}

	tws := dialTWS(t, ctx, addr, 0)
	tws.subscribe(ctx, "1", doc, vars)
	legacy := dialLegacy(t, ctx, addr, "")
	if legacy.status != 0 {
		t.Fatalf("legacy socket refused: %d %s", legacy.status, legacy.reason)
	}
	start, _ := json.Marshal(map[string]any{"id": "1", "type": "start", "payload": map[string]any{"query": doc, "variables": vars}})
	if err := legacy.c.Write(ctx, websocket.MessageText, start); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"query": doc, "variables": vars})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/query", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sse := bufio.NewReader(resp.Body)
	for w.live.Subscribers(w.h.Table.ID) < 3 {
		if ctx.Err() != nil {
			t.Fatal("the subscriptions never started")
		}
		time.Sleep(5 * time.Millisecond)
	}

	const n = 10
	before, rendersBefore := graph.SharedEncodes(), renders.Load()
	var fakes []tote.TableEvent
	for i := range n {
		e := evs[0]
		e.Seq = first + 1 + int64(i)
		fakes = append(fakes, e)
	}
	w.caughtUp(fakes)
	// data is the "data" member of a response's JSON, as written.
	data := func(who string, b []byte) string {
		var m struct {
			Payload struct{ Data json.RawMessage }
			Data    json.RawMessage
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %s: %v", who, b, err)
		}
		if m.Data != nil {
			return string(m.Data)
		}
		return string(m.Payload.Data)
	}
	for i := range n {
		want := data("graphql-transport-ws", tws.readRaw(ctx))
		if !strings.Contains(want, `"seq":`+itoa(fakes[i].Seq)) {
			t.Fatalf("event %d: graphql-transport-ws got %s", i, want)
		}
		for {
			m, err := legacy.read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if m.Type == "ka" {
				continue
			}
			if m.Type != "data" || m.ID != "1" {
				t.Fatalf("event %d: legacy got %+v", i, m)
			}
			if got := data("graphql-ws", m.Payload); got != want {
				t.Fatalf("event %d: legacy data\n%s\nwant\n%s", i, got, want)
			}
			break
		}
		for {
			line, err := sse.ReadString('\n')
			if err != nil {
				t.Fatalf("event %d: sse: %v", i, err)
			}
			if after, ok := strings.CutPrefix(strings.TrimSpace(line), "data:"); ok {
				if got := data("sse", []byte(strings.TrimSpace(after))); got != want {
					t.Fatalf("event %d: sse data\n%s\nwant\n%s", i, got, want)
				}
				break
			}
		}
	}
	if enc := graph.SharedEncodes() - before; enc != n {
		t.Fatalf("%d encodes for %d events to three viewers of one document on three protocols, want %d", enc, n, n)
	}
	if r := renders.Load() - rendersBefore; r != n {
		t.Fatalf("%d renders through gqlgen for %d events to three viewers of one document on three protocols, want %d", r, n, n)
	}
}
