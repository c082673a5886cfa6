package graph_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/graph"
)

// Status codes, media types and error codes as GraphQL over HTTP has them:
// request errors are 400 under application/graphql-response+json and 200
// under application/json, with no "data" entry and always a code; the
// transport's own refusals are 405, 406 and 415 with a reason. gqlgen's
// transports answered 422, 200 with "data": null, and 406 for a GET
// mutation, some without extensions.code.
func TestGraphQLOverHTTP(t *testing.T) {
	es := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}, Directives: graph.Directives()})
	h := graph.NewHandler(es, graph.HandlerOptions{Log: slog.New(slog.DiscardHandler), ComplexityLimit: 1000, TokenLimit: 15000})
	const gqlResp, jsonMedia = "application/graphql-response+json", "application/json"
	type want struct {
		status int
		media  string
		data   bool   // the body has a "data" entry
		reason string // the first error's reason ("" for none, "-" for no error)
		allow  string
	}
	post := func(accept, contentType, body string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/query", strings.NewReader(body))
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		return r
	}
	get := func(accept, query string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/query?query="+url.QueryEscape(query), nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		return r
	}
	q := func(s string) string { b, _ := json.Marshal(map[string]string{"query": s}); return string(b) }
	cases := []struct {
		name string
		req  *http.Request
		want want
	}{
		{"a query, graphql-response+json", post(gqlResp, jsonMedia, q(`{ __typename }`)), want{200, gqlResp, true, "-", ""}},
		{"a query, no Accept", post("", jsonMedia, q(`{ __typename }`)), want{200, jsonMedia, true, "-", ""}},
		{"a query, */*", post("*/*", jsonMedia, q(`{ __typename }`)), want{200, jsonMedia, true, "-", ""}},
		{"preferred by q", post("application/json;q=0.5, application/graphql-response+json", jsonMedia, q(`{ __typename }`)), want{200, gqlResp, true, "-", ""}},
		{"json preferred by q", post("application/json, application/graphql-response+json;q=0.1", jsonMedia, q(`{ __typename }`)), want{200, jsonMedia, true, "-", ""}},
		{"invalid, graphql-response+json", post(gqlResp, jsonMedia, q(`{ nope }`)), want{400, gqlResp, false, "GRAPHQL_VALIDATION_FAILED", ""}},
		{"invalid, application/json", post(jsonMedia, jsonMedia, q(`{ nope }`)), want{200, jsonMedia, false, "GRAPHQL_VALIDATION_FAILED", ""}},
		{"unparsable, graphql-response+json", post(gqlResp, jsonMedia, q(`{`)), want{400, gqlResp, false, "GRAPHQL_PARSE_FAILED", ""}},
		{"unparsable, no Accept", post("", jsonMedia, q(`{`)), want{200, jsonMedia, false, "GRAPHQL_PARSE_FAILED", ""}},
		{"an APQ hash that is not the query's", post(gqlResp, jsonMedia,
			`{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"00"}}}`), want{400, gqlResp, false, "", ""}},
		{"@defer", post(gqlResp, jsonMedia, q(`{ ... @defer { __typename } }`)), want{400, gqlResp, false, graph.ReasonDeferNotSupported, ""}},
		{"a GET query", get(gqlResp, `{ __typename }`), want{200, gqlResp, true, "-", ""}},
		{"a GET mutation", get(gqlResp, `mutation { __typename }`), want{405, gqlResp, false, graph.ReasonMethodNotAllowed, "POST"}},
		{"a GET with bad variables", httptest.NewRequest(http.MethodGet, "/query?query=%7B__typename%7D&variables=%5B", nil), want{400, jsonMedia, false, graph.ReasonMalformedRequest, ""}},
		{"PUT", httptest.NewRequest(http.MethodPut, "/query", strings.NewReader(q(`{ __typename }`))), want{405, jsonMedia, false, graph.ReasonMethodNotAllowed, "GET, POST"}},
		{"a text/plain body", post(gqlResp, "text/plain", q(`{ __typename }`)), want{415, gqlResp, false, graph.ReasonUnsupportedMediaType, ""}},
		{"no content type", post(gqlResp, "", q(`{ __typename }`)), want{415, gqlResp, false, graph.ReasonUnsupportedMediaType, ""}},
		{"Accept: text/html", post("text/html", jsonMedia, q(`{ __typename }`)), want{406, jsonMedia, false, graph.ReasonNotAcceptable, ""}},
		{"a batch", post(gqlResp, jsonMedia, `[`+q(`{ __typename }`)+`]`), want{400, gqlResp, false, graph.ReasonBatchNotSupported, ""}},
		{"a query that is not a string", post(gqlResp, jsonMedia, `{"query": 1}`), want{400, gqlResp, false, graph.ReasonMalformedRequest, ""}},
		{"trailing bytes", post(gqlResp, jsonMedia, q(`{ __typename }`)+`{}`), want{400, gqlResp, false, graph.ReasonMalformedRequest, ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, c.req)
			if w.Code != c.want.status {
				t.Errorf("status %d, want %d: %s", w.Code, c.want.status, w.Body)
			}
			if got := w.Header().Get("Content-Type"); got != c.want.media {
				t.Errorf("Content-Type %q, want %q", got, c.want.media)
			}
			if got := w.Header().Get("Allow"); got != c.want.allow {
				t.Errorf("Allow %q, want %q", got, c.want.allow)
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("not JSON: %s", w.Body)
			}
			if _, has := body["data"]; has != c.want.data {
				t.Errorf("data entry %v, want %v: %s", has, c.want.data, w.Body)
			}
			var errList []struct{ Extensions map[string]any }
			_ = json.Unmarshal(body["errors"], &errList)
			if c.want.reason == "-" {
				if len(errList) > 0 {
					t.Errorf("errors: %s", w.Body)
				}
				return
			}
			if len(errList) == 0 {
				t.Fatalf("no error: %s", w.Body)
			}
			for _, e := range errList {
				if code, _ := e.Extensions["code"].(string); code == "" {
					t.Errorf("an error without extensions.code: %s", w.Body)
				}
			}
			if reason, _ := errList[0].Extensions["reason"].(string); c.want.reason != "" && reason != c.want.reason {
				t.Errorf("reason %q, want %q: %s", reason, c.want.reason, w.Body)
			}
		})
	}
}
