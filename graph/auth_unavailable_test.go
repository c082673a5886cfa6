package graph_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph"
)

// TestAuthDatabaseUnavailable: a token that could not be checked because
// the database did not answer (its epoch lives there; a failover or a
// partition) is answered 503 UNAVAILABLE / DATABASE_UNAVAILABLE, not 401
// INVALID_TOKEN, which would send the client to sign in again; a token
// that is bad is still 401 INVALID_TOKEN.
func TestAuthDatabaseUnavailable(t *testing.T) {
	for _, tc := range []struct {
		err          error
		status       int
		code, reason string
	}{
		{errs.DatabaseUnavailable(io.ErrUnexpectedEOF), http.StatusServiceUnavailable, "UNAVAILABLE", errs.ReasonDatabaseUnavailable},
		{errs.R(errs.Unauthenticated, graph.ReasonInvalidToken, "bad"), http.StatusUnauthorized, "UNAUTHENTICATED", graph.ReasonInvalidToken},
	} {
		h := graph.AuthMiddleware(func(ctx context.Context, _ string) (context.Context, error) { return ctx, tc.err },
			http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Fatal("served despite the refused token") }))
		req := httptest.NewRequest(http.MethodPost, "/query", nil)
		req.Header.Set("Authorization", "Bearer x.y.z")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var body struct {
			Errors []struct {
				Extensions struct{ Code, Reason string }
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || len(body.Errors) != 1 {
			t.Fatalf("%v: body %s (%v)", tc.err, rec.Body, err)
		}
		if got := body.Errors[0].Extensions; rec.Code != tc.status || got.Code != tc.code || got.Reason != tc.reason {
			t.Errorf("%v: answered %d %s/%s, want %d %s/%s", tc.err, rec.Code, got.Code, got.Reason, tc.status, tc.code, tc.reason)
		}
	}
}
