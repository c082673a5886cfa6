package graph

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph/model"
)

// Viewer is who is asking: the user id and role from a verified access token.
type Viewer struct {
	UserID int64
	Role   account.Role
	// Epoch and Expires are the token's (see auth.Claims): a long-lived
	// connection is closed when its user's epoch rises past Epoch, or at
	// Expires.
	Epoch   int64
	Expires time.Time
}

type viewerKey struct{}

type clientIPKey struct{}

// ClientIP is the address the request came from, as seen through the
// trusted proxies (for the sign-in throttle and the per-address caps).
func ClientIP(ctx context.Context) string {
	ip, _ := ctx.Value(clientIPKey{}).(string)
	return ip
}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerFrom returns the viewer of ctx, if a valid token came with the request.
func ViewerFrom(ctx context.Context) (Viewer, bool) {
	v, ok := ctx.Value(viewerKey{}).(Viewer)
	return v, ok
}

// RequireViewer returns the viewer or an Unauthenticated error.
func RequireViewer(ctx context.Context) (Viewer, error) {
	v, ok := ViewerFrom(ctx)
	if !ok {
		return Viewer{}, errs.R(errs.Unauthenticated, ReasonLoginRequired, "sign in first")
	}
	return v, nil
}

// AuthMiddleware verifies the bearer token of a request, if any, and puts
// the viewer in its context. A request with an invalid token is refused
// with 401 and a GraphQL error carrying UNAUTHENTICATED, rather than being
// served as anonymous: a client with a stale token must learn it at once.
func AuthMiddleware(authenticate func(context.Context, string) (context.Context, error), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ClientIP(r.Context()) == "" { // not behind ClientIPMiddleware: the peer
			r = r.WithContext(context.WithValue(r.Context(), clientIPKey{}, TrustedProxies(nil).ClientIP(r)))
		}
		token := bearer(r)
		if token == "" {
			next.ServeHTTP(w, r)
			return
		}
		ctx, err := authenticate(r.Context(), token)
		if err != nil {
			writeAuthError(w, err)
			return
		}
		ctx = withCredential(ctx, token, authenticate)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Directives implements @authenticated and @hasRole.
func Directives() DirectiveRoot {
	return DirectiveRoot{
		Authenticated: func(ctx context.Context, _ any, next graphql.Resolver) (any, error) {
			if _, err := RequireViewer(ctx); err != nil {
				return nil, err
			}
			return next(ctx)
		},
		HasRole: func(ctx context.Context, _ any, next graphql.Resolver, roles []model.Role) (any, error) {
			v, err := RequireViewer(ctx)
			if err != nil {
				return nil, err
			}
			if !slices.Contains(roles, model.Role(v.Role)) {
				return nil, errs.R(errs.Forbidden, ReasonRoleRequired, "%s", roleNeeded(roles))
			}
			return next(ctx)
		},
	}
}

// WriteUnavailable answers a request at once with 503 UNAVAILABLE /
// DATABASE_UNAVAILABLE, without running it: the database is known not to
// answer right now, so nothing was changed.
func WriteUnavailable(w http.ResponseWriter) {
	writeAuthError(w, errs.DatabaseUnavailable(nil))
}

// writeAuthError answers a request whose token was refused. A token revoked
// since it was issued says so (TOKEN_REVOKED: refresh it); a database that
// did not answer while checking (a failover, a partition: the token's
// epoch is read from it) is UNAVAILABLE / DATABASE_UNAVAILABLE (503, try
// again: the token is not at fault, and a client must not sign out for
// it); any other store failure is INTERNAL (503); anything else is the one
// INVALID_TOKEN answer that tells nothing about why.
func writeAuthError(w http.ResponseWriter, err error) {
	status, code, reason, msg := http.StatusUnauthorized, errs.Unauthenticated, ReasonInvalidToken, "the access token is not valid; sign in again"
	switch {
	case errs.ReasonOf(err) == ReasonTokenRevoked:
		reason, msg = ReasonTokenRevoked, "your session was changed; refresh your token or sign in again"
	case errs.ReasonOf(err) == ReasonTokenExpired:
		reason, msg = ReasonTokenExpired, "the access token has expired: refresh it (refreshToken) and retry"
	case unavailable(err):
		status, code, reason, msg = http.StatusServiceUnavailable, errs.Unavailable, errs.ReasonDatabaseUnavailable,
			"the service cannot reach its database right now; nothing was changed: try again (with the same idempotency key for money)"
	case errs.Is(err, errs.Internal):
		status, code, reason, msg = http.StatusServiceUnavailable, errs.Internal, "", "internal error"
	}
	ext := map[string]any{"code": code}
	if reason != "" {
		ext["reason"] = reason
	}
	body, _ := json.Marshal(map[string]any{"errors": []any{map[string]any{"message": msg, "extensions": ext}}, "data": nil})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// roleNeeded says which roles a field needs, as a sentence: "this needs
// the ADMIN role", "this needs one of the roles AFFILIATE, ADMIN".
func roleNeeded(roles []model.Role) string {
	names := make([]string, len(roles))
	for i, r := range roles {
		names[i] = string(r)
	}
	if len(names) == 1 {
		return "this needs the " + names[0] + " role"
	}
	return "this needs one of the roles " + strings.Join(names, ", ")
}
