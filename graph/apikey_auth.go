package graph

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/apikey"
	"github.com/pokertote/pokertote/domain/errs"
)

// Outcomes of a request made with a valid API key, as counted per key.
const (
	KeyServed      = "served"
	KeyRateLimited = "rate_limited"
	KeyOutOfScope  = "out_of_scope"
)

// APIKeyAuth is what the /query endpoint needs to serve affiliates' servers.
type APIKeyAuth struct {
	// Authenticate checks a raw key (apikey.Service.Authenticate).
	Authenticate func(ctx context.Context, raw string) (apikey.Key, error)
	// Limiter holds each key to its requests per minute (shared through
	// Redis between replicas).
	Limiter apikey.Limiter
	// Count records one request of a valid key with its outcome (metrics).
	Count func(keyID, outcome string)
	// Rejected records a request whose key was refused, by reason.
	Rejected func(reason string)
	Log      *slog.Logger
}

type apiKeyCtx struct{}

// keyCred is the API key a request (or a socket) came with: kept so that
// every operation is charged, and on a socket checked again.
type keyCred struct {
	id        string
	perMinute int
	raw       string
	auth      *APIKeyAuth
	// prepaid is what the middleware already took for the HTTP request
	// (1), spent by its first operation.
	prepaid atomic.Int32
	// last is the limiter's latest decision (the quota headers').
	mu   sync.Mutex
	last apikey.Decision
}

func keyCredFrom(ctx context.Context) *keyCred {
	k, _ := ctx.Value(apiKeyCtx{}).(*keyCred)
	return k
}

// APIKeyFrom returns the id of the API key a request came with, if any.
func APIKeyFrom(ctx context.Context) (string, bool) {
	if k := keyCredFrom(ctx); k != nil {
		return k.id, true
	}
	return "", false
}

// keyCharge is what an operation takes from an API key's allowance of
// requests per minute: one per root field (each alias, through
// fragments), or one per CostPerRequest of its requested cost when that is
// more (a page of 50 draws with their bets weighs more than one table);
// at least 1.
func keyCharge(oc *graphql.OperationContext) int {
	if oc == nil || oc.Operation == nil {
		return 1
	}
	roots := countRootFields(oc.Doc, oc.Operation.SelectionSet, 0)
	return max(roots, (requestedCost(oc)+CostPerRequest-1)/CostPerRequest, 1)
}

// CostPerRequest is the requested cost (Cost) one request of an API key's
// allowance covers.
const CostPerRequest = 100

// charge takes the operation's keyCharge from the key's allowance, less
// what the request paid already; nil when it may run.
func (k *keyCred) charge(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	cost := keyCharge(oc)
	if cost > k.perMinute {
		k.auth.count(k.id, KeyRateLimited)
		return refusal(errs.R(errs.Forbidden, apikey.ReasonRateLimited,
			"this operation takes %d requests (one per root field, or one per %d of extensions.cost.requested); this API key allows %d per minute", cost, CostPerRequest, k.perMinute))
	}
	cost -= int(k.prepaid.Swap(0))
	if cost <= 0 {
		return nil
	}
	d, err := k.auth.Limiter.Allow(ctx, k.id, k.perMinute, cost)
	if err != nil { // fail closed, as the middleware does
		k.auth.log().ErrorContext(ctx, "API key rate limit failed", "key", k.id, "err", err)
		return refusal(errs.E(errs.Internal, "internal error"))
	}
	k.record(d)
	if !d.OK {
		k.auth.count(k.id, KeyRateLimited)
		e := refusal(errs.R(errs.Forbidden, apikey.ReasonRateLimited, "this API key is over its %d requests per minute; retry in %s", k.perMinute, d.RetryAfter.Round(time.Millisecond)))
		e.Extensions["retryAfterSeconds"] = seconds(d.RetryAfter)
		return e
	}
	return nil
}

// record keeps the key's latest decision, for the quota headers.
func (k *keyCred) record(d apikey.Decision) {
	k.mu.Lock()
	k.last = d
	k.mu.Unlock()
}

func (k *keyCred) lastDecision() apikey.Decision {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.last
}

// quotaHeaders sets the key's quota on a response, as the IETF draft
// "RateLimit header fields for HTTP" names them: the allowance per window,
// what is left of it and the seconds until it is whole again.
func quotaHeaders(h http.Header, perMinute int, d apikey.Decision) {
	h.Set("RateLimit-Limit", strconv.Itoa(perMinute))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(seconds(d.Reset)))
	h.Set("RateLimit-Policy", strconv.Itoa(perMinute)+";w="+strconv.Itoa(int(apikey.Window/time.Second)))
}

// seconds rounds d up to whole seconds.
func seconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// quotaWriter writes the key's quota headers as the response starts, after
// every charge of its operation.
type quotaWriter struct {
	http.ResponseWriter
	cred    *keyCred
	written bool
}

func (q *quotaWriter) WriteHeader(status int) {
	if !q.written {
		q.written = true
		quotaHeaders(q.Header(), q.cred.perMinute, q.cred.lastDecision())
	}
	q.ResponseWriter.WriteHeader(status)
}

func (q *quotaWriter) Write(b []byte) (int, error) {
	if !q.written {
		q.WriteHeader(http.StatusOK)
	}
	return q.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (SSE flushes,
// WebSocket upgrades).
func (q *quotaWriter) Unwrap() http.ResponseWriter { return q.ResponseWriter }

// Flush passes on to the connection (SSE).
func (q *quotaWriter) Flush() {
	if !q.written {
		q.WriteHeader(http.StatusOK)
	}
	if f, ok := q.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// apiKeyOf reads "X-API-Key: k" or "Authorization: ApiKey k".
func apiKeyOf(r *http.Request) string {
	if k := strings.TrimSpace(r.Header.Get("X-API-Key")); k != "" {
		return k
	}
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "apikey ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// APIKeyMiddleware serves a request carrying an API key as the key's
// affiliate (role AFFILIATE, no user), after checking the key and taking
// one request from its allowance (an operation of more root fields takes
// the rest when it runs, see Authority); no password, token or refresh is
// involved. A bad or revoked key is 401 UNAUTHENTICATED, a key over its
// rate 429 FORBIDDEN / RATE_LIMITED with Retry-After. Requests without a key
// pass through untouched, to the bearer-token middleware.
func APIKeyMiddleware(a APIKeyAuth, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := apiKeyOf(r)
		if raw == "" {
			next.ServeHTTP(w, r)
			return
		}
		k, err := a.Authenticate(r.Context(), raw)
		if err != nil {
			var de *errs.Error
			if errs.Is(err, errs.Unauthenticated) && asErr(err, &de) {
				a.rejected(de.Reason)
				writeGraphQLError(w, http.StatusUnauthorized, de, 0)
				return
			}
			a.rejected("ERROR")
			a.log().ErrorContext(r.Context(), "API key check failed", "err", err)
			writeGraphQLError(w, http.StatusServiceUnavailable, errs.E(errs.Internal, "internal error"), 0)
			return
		}
		d, err := a.Limiter.Allow(r.Context(), k.ID, k.PerMinute, 1)
		if err != nil { // fail closed: an unlimited key is worse than a short outage
			a.log().ErrorContext(r.Context(), "API key rate limit failed", "key", k.ID, "err", err)
			writeGraphQLError(w, http.StatusServiceUnavailable, errs.E(errs.Internal, "internal error"), 0)
			return
		}
		if !d.OK {
			a.count(k.ID, KeyRateLimited)
			quotaHeaders(w.Header(), k.PerMinute, d)
			writeGraphQLError(w, http.StatusTooManyRequests,
				errs.R(errs.Forbidden, apikey.ReasonRateLimited, "this API key is over its %d requests per minute; retry in %s", k.PerMinute, d.RetryAfter.Round(time.Millisecond)), d.RetryAfter)
			return
		}
		// The key stands in for any bearer token: the request is the key's.
		r = r.Clone(r.Context())
		r.Header.Del("Authorization")
		cred := &keyCred{id: k.ID, perMinute: k.PerMinute, raw: raw, auth: &a, last: d}
		cred.prepaid.Store(1)
		if r.Header.Get("Upgrade") == "" {
			w = &quotaWriter{ResponseWriter: w, cred: cred}
		}
		ctx := context.WithValue(r.Context(), apiKeyCtx{}, cred)
		ctx = WithViewer(ctx, Viewer{Role: account.Affiliate})
		sw := &scopeWatcher{}
		ctx = context.WithValue(ctx, scopeWatcherCtx{}, sw)
		next.ServeHTTP(w, r.WithContext(ctx))
		if sw.refused {
			a.count(k.ID, KeyOutOfScope)
		} else {
			a.count(k.ID, KeyServed)
		}
	})
}

func (a APIKeyAuth) count(id, outcome string) {
	if a.Count != nil {
		a.Count(id, outcome)
	}
}

func (a APIKeyAuth) rejected(reason string) {
	if a.Rejected != nil {
		a.Rejected(reason)
	}
}

func (a APIKeyAuth) log() *slog.Logger {
	if a.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Log
}

func asErr(err error, de **errs.Error) bool { return errors.As(err, de) }

// WriteError answers an HTTP request outside GraphQL (a file download)
// as /query would: one GraphQL error with extensions.code and reason, the
// status following the code; an internal error's cause is not shown.
func WriteError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch errs.CodeOf(err) {
	case errs.Invalid:
		status = http.StatusBadRequest
	case errs.Unauthenticated:
		status = http.StatusUnauthorized
	case errs.Forbidden:
		status = http.StatusForbidden
	case errs.NotFound:
		status = http.StatusNotFound
	case errs.Conflict:
		status = http.StatusConflict
	case errs.Unavailable:
		status = http.StatusServiceUnavailable
	}
	var e *errs.Error
	if !errors.As(err, &e) || e.Code == errs.Internal {
		e = errs.E(errs.Internal, "internal error")
	}
	writeGraphQLError(w, status, e, 0)
}

// writeGraphQLError answers an HTTP request with one GraphQL error.
func writeGraphQLError(w http.ResponseWriter, status int, e *errs.Error, retry time.Duration) {
	ext := map[string]any{"code": string(e.Code)}
	if e.Reason != "" {
		ext["reason"] = e.Reason
	}
	if retry > 0 {
		secs := seconds(retry)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		ext["retryAfterSeconds"] = secs
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"errors": []any{map[string]any{"message": e.Message, "extensions": ext}},
		"data":   nil,
	})
}

// apiKeyRootFields are the root fields an API key may use: public data and
// results. Everything else (every mutation, anything about a user) is out
// of scope.
var apiKeyRootFields = map[ast.Operation]map[string]bool{
	ast.Query: {
		"tables": true, "table": true, "draw": true, "results": true, "jackpot": true, "jackpotChain": true,
		"verifyDraw": true, "holdemSettings": true, "voidCounts": true, "bettingStop": true,
		// terms answers a key the version in force (a key is nobody: it has
		// accepted nothing).
		"terms": true,
		// node answers a key what it answers anyone: tables and draws (a
		// key's viewer is no user, so a bet, a hand or a user is null).
		"node":       true,
		"__typename": true, "__schema": true, "__type": true,
	},
	ast.Subscription: {"tableEvents": true, "results": true, "__typename": true},
}

type scopeWatcherCtx struct{}

// scopeWatcher lets the middleware count a request the scope refused.
type scopeWatcher struct{ refused bool }

// APIKeyScope refuses, before anything runs, an operation made with an API
// key that names a root field outside apiKeyRootFields: FORBIDDEN with
// reason API_KEY_SCOPE naming the field.
type APIKeyScope struct{}

var (
	_ graphql.HandlerExtension        = APIKeyScope{}
	_ graphql.OperationContextMutator = APIKeyScope{}
)

// ExtensionName implements graphql.HandlerExtension.
func (APIKeyScope) ExtensionName() string { return "APIKeyScope" }

// Validate implements graphql.HandlerExtension.
func (APIKeyScope) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext implements graphql.OperationContextMutator.
func (APIKeyScope) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if _, ok := APIKeyFrom(ctx); !ok || oc.Operation == nil {
		return nil
	}
	allowed := apiKeyRootFields[oc.Operation.Operation]
	if field, ok := firstOutside(oc.Doc, oc.Operation.SelectionSet, allowed, 0); !ok {
		if sw, _ := ctx.Value(scopeWatcherCtx{}).(*scopeWatcher); sw != nil {
			sw.refused = true
		}
		msg := "an API key reads public data and results only; " + string(oc.Operation.Operation) + " " + field + " needs a signed-in user"
		return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": string(errs.Forbidden), "reason": apikey.ReasonKeyScope}}
	}
	return nil
}

// firstOutside walks the root selection set (through fragments) and returns
// the first field not allowed.
func firstOutside(doc *ast.QueryDocument, set ast.SelectionSet, allowed map[string]bool, depth int) (string, bool) {
	if depth > 10 {
		return "(nested fragments)", false
	}
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if !allowed[s.Name] {
				return s.Name, false
			}
		case *ast.InlineFragment:
			if f, ok := firstOutside(doc, s.SelectionSet, allowed, depth+1); !ok {
				return f, false
			}
		case *ast.FragmentSpread:
			var frag *ast.FragmentDefinition
			if doc != nil {
				frag = doc.Fragments.ForName(s.Name)
			}
			if frag == nil {
				return s.Name, false
			}
			if f, ok := firstOutside(doc, frag.SelectionSet, allowed, depth+1); !ok {
				return f, false
			}
		}
	}
	return "", true
}
