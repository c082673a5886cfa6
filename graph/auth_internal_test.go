package graph

import (
	"context"
	"encoding/json"
	"github.com/pokertote/pokertote/graph/model"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
)

// TestAuthErrorsSayWhatFailed: a token whose check could not be made (the
// database did not answer: a restart, a failover, an overload) is answered
// 503 UNAVAILABLE / DATABASE_UNAVAILABLE, so the client tries again with
// the same token, never 401 INVALID_TOKEN, which sends it to sign in again.
// The rolling-restart run (scripts/rolling-restart.sh) met this under load.
func TestAuthErrorsSayWhatFailed(t *testing.T) {
	for _, tc := range []struct {
		err          error
		status       int
		code, reason string
	}{
		{errs.R(errs.Unavailable, errs.ReasonDatabaseUnavailable, "database error"), http.StatusServiceUnavailable, "UNAVAILABLE", "DATABASE_UNAVAILABLE"},
		{errs.E(errs.Internal, "boom"), http.StatusServiceUnavailable, "INTERNAL", ""},
		{errs.R(errs.Unauthenticated, auth.ReasonTokenRevoked, "revoked"), http.StatusUnauthorized, "UNAUTHENTICATED", "TOKEN_REVOKED"},
		{errs.R(errs.Unauthenticated, auth.ReasonInvalidToken, "bad"), http.StatusUnauthorized, "UNAUTHENTICATED", "INVALID_TOKEN"},
	} {
		h := AuthMiddleware(func(ctx context.Context, _ string) (context.Context, error) { return ctx, tc.err },
			http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("served with a refused token") }))
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/query", nil)
		r.Header.Set("Authorization", "Bearer x")
		h.ServeHTTP(w, r)
		var body struct {
			Errors []struct {
				Extensions map[string]string `json:"extensions"`
			} `json:"errors"`
		}
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != tc.status || len(body.Errors) != 1 || body.Errors[0].Extensions["code"] != tc.code || body.Errors[0].Extensions["reason"] != tc.reason {
			t.Errorf("%v: HTTP %d %s, want %d %s/%s", tc.err, w.Code, w.Body.Bytes(), tc.status, tc.code, tc.reason)
		}
	}
}

func TestRoleNeededReadsAsASentence(t *testing.T) {
	if got := roleNeeded([]model.Role{model.RoleAdmin}); got != "this needs the ADMIN role" {
		t.Errorf("%q", got)
	}
	if got := roleNeeded([]model.Role{model.RoleAffiliate, model.RoleAdmin}); got != "this needs one of the roles AFFILIATE, ADMIN" {
		t.Errorf("%q", got)
	}
}
