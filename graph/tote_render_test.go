package graph_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// TestSharedRenderKeepsDocumentsApart: through the real handler and
// WebSocket, subscribers of one document (whatever their afterSeq) and of
// another document of the same table each get their own document's shape
// for every event, in seq order, even though each response is rendered
// once per document and seq and shared.
func TestSharedRenderKeepsDocumentsApart(t *testing.T) {
	w := newStreamWorld(t)
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{Tote: w.api, Events: w.events}, Directives: graph.Directives()})
	srv := httptest.NewServer(graph.NewHandler(es, graph.HandlerOptions{
		Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000, AllowedOrigins: []string{"*"},
	}))
	t.Cleanup(srv.Close)
	evs := w.advance(4)
	w.caughtUp(evs[:2])
	c := gqltest.New(srv.Listener.Addr().String())
	const short = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { seq } }`
	const long = `subscription($t: ID!, $a: Int64) { tableEvents(tableId: $t, afterSeq: $a) { __typename seq at } }`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type client struct {
		doc   string
		after any
		next  <-chan json.RawMessage
	}
	clients := []*client{{doc: short, after: 0}, {doc: short, after: 1}, {doc: short, after: 2}, {doc: long, after: 0}, {doc: long, after: nil}}
	for _, cl := range clients {
		sub, err := c.Subscribe(ctx, cl.doc, map[string]any{"t": id(w.h.Table.ID), "a": cl.after})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sub.Close)
		cl.next = sub.Next
	}
	more := w.advance(len(evs) + 6)
	w.caughtUp(more[2:])
	last := more[len(more)-1].Seq
	for i, cl := range clients {
		var seq int64
		if a, ok := cl.after.(int); ok {
			seq = int64(a)
		}
		for seq < last {
			var raw json.RawMessage
			select {
			case raw = <-cl.next:
			case <-ctx.Done():
				t.Fatalf("client %d stopped at seq %d, want up to %d", i, seq, last)
			}
			var m struct {
				TableEvents map[string]any
			}
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			e := m.TableEvents
			got := int64(e["seq"].(float64))
			if cl.doc == short && len(e) != 1 {
				t.Fatalf("client %d (seq only) got %s", i, raw)
			}
			if cl.doc == long && (e["__typename"] == nil || e["at"] == nil) {
				t.Fatalf("client %d (typename, at) got %s", i, raw)
			}
			if cl.after == nil && seq == 0 {
				if e["__typename"] != "TableSnapshot" {
					t.Fatalf("client %d joined without afterSeq; first event %s", i, raw)
				}
			} else if got != seq+1 {
				t.Fatalf("client %d got seq %d after %d", i, got, seq)
			}
			seq = got
		}
	}
}
