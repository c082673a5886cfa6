package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pokertote/pokertote/app"
)

// TestTracingOfOneBet places one bet on a traced server and checks the span
// tree in the SDK's in-memory exporter: the operation span "mutation
// placeBet" is the parent of the resolver span "Mutation.placeBet", which is
// the parent (or ancestor) of the SQL spans, among them the bet's INSERT.
func TestTracingOfOneBet(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			exp := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
			t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
			_, c := startServer(t, b, func(cfg *app.Config) {
				fastTote(cfg)
				cfg.TracerProvider = tp
			})
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			tableID := createTable(t, admin, unique("trace"))
			p := newPlayer(t, c, "1000.00")
			events := watch(t, c, tableID)
			// One bet in the first round it reaches in time (a loaded machine
			// may send it after its round closed: then the next round).
			timeout := time.After(90 * time.Second)
			for placed := false; !placed; {
				select {
				case e := <-events:
					if e.Type != "ROUND_OPENED" {
						continue
					}
					exp.Reset()
					res, err := p.Client.Do(context.Background(), `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`,
						map[string]any{"in": map[string]any{"drawId": e.DrawID, "selection": map[string]any{"position": 1}, "stake": "100.00", "idempotencyKey": unique("bet")}})
					if err != nil {
						t.Fatal(err)
					}
					placed = len(res.Errors) == 0
				case <-timeout:
					t.Fatal("no bet accepted in 90 s")
				}
			}

			spans := exp.GetSpans()
			byID := map[string]tracetest.SpanStub{}
			var op, field *tracetest.SpanStub
			for i, s := range spans {
				byID[s.SpanContext.SpanID().String()] = s
				switch s.Name {
				case "mutation placeBet":
					op = &spans[i]
				case "Mutation.placeBet":
					field = &spans[i]
				}
			}
			if op == nil || field == nil {
				t.Fatalf("no operation or resolver span among %v", names(spans))
			}
			if field.Parent.SpanID() != op.SpanContext.SpanID() {
				t.Fatalf("the resolver span's parent is %s, not the operation span", field.Parent.SpanID())
			}
			under := func(s tracetest.SpanStub, ancestor tracetest.SpanStub) bool {
				for range 20 {
					if s.Parent.SpanID() == ancestor.SpanContext.SpanID() {
						return true
					}
					next, ok := byID[s.Parent.SpanID().String()]
					if !ok {
						return false
					}
					s = next
				}
				return false
			}
			sqlSpans, insert := 0, false
			for _, s := range spans {
				if !strings.HasPrefix(s.Name, "sql ") {
					continue
				}
				if s.SpanContext.TraceID() != op.SpanContext.TraceID() || !under(s, *field) {
					continue // e.g. the dealer's statements, outside the operation
				}
				sqlSpans++
				stmt := attr(s.Attributes, "db.statement")
				if strings.Contains(stmt, "tote_bets") && strings.Contains(strings.ToUpper(stmt), "INSERT") {
					insert = true
				}
				if strings.Contains(stmt, "100.00") || strings.Contains(stmt, "10000") {
					t.Errorf("a SQL span shows a bound value: %q", stmt)
				}
			}
			if sqlSpans == 0 || !insert {
				t.Fatalf("%d SQL spans under the resolver span, bet INSERT seen: %v; spans %v", sqlSpans, insert, names(spans))
			}
			t.Logf("one bet: %d spans, %d SQL spans under Mutation.placeBet", len(spans), sqlSpans)
		})
	}
}

func names(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

func attr(kvs []attribute.KeyValue, key string) string {
	for _, kv := range kvs {
		if string(kv.Key) == key {
			return kv.Value.AsString()
		}
	}
	return ""
}
