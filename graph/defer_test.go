package graph_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/graph"
)

// The HTTP transports write one response, so a deferred fragment's data
// would never arrive: @defer is refused with a stable reason, anywhere in
// the document, and the same fields without it run.
func TestDeferRefused(t *testing.T) {
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}, Directives: graph.Directives()})
	h := graph.NewHandler(es, graph.HandlerOptions{Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000})
	post := func(q string) (reason string, data json.RawMessage) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"query": q})
		r := httptest.NewRequest(http.MethodPost, "/query", strings.NewReader(string(body)))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var out struct {
			Data   json.RawMessage
			Errors []struct{ Extensions map[string]any }
		}
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v", w.Body, err)
		}
		if len(out.Errors) > 0 {
			reason, _ = out.Errors[0].Extensions["reason"].(string)
		}
		return reason, out.Data
	}
	for _, q := range []string{
		`{ ... @defer { __typename } }`,
		`{ ...F @defer } fragment F on Query { __typename }`,
		`{ ...F } fragment F on Query { ... @defer(label: "x") { __typename } }`,
	} {
		if r, _ := post(q); r != graph.ReasonDeferNotSupported {
			t.Errorf("%s: reason %q, want %s", q, r, graph.ReasonDeferNotSupported)
		}
	}
	if r, data := post(`{ ... { __typename } }`); r != "" || !strings.Contains(string(data), `"Query"`) {
		t.Errorf("without @defer: reason %q, data %s", r, data)
	}
}
