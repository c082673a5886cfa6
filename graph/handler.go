package graph

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"go.opentelemetry.io/otel/trace"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/graph/wstransport"
)

// HandlerOptions are the choices made about the GraphQL endpoint.
type HandlerOptions struct {
	Log *slog.Logger
	// ComplexityLimit bounds the cost of one operation.
	ComplexityLimit int
	// TokenLimit bounds the number of tokens the parser reads.
	TokenLimit int
	// DepthLimit bounds how deep selections nest (introspection aside).
	DepthLimit int
	// MaxMessage bounds a WebSocket message from the client, in bytes (the
	// HTTP body is bounded by the server's middleware, LimitBody).
	MaxMessage int64
	// Introspection allows schema introspection queries.
	Introspection bool
	// Suggestions lets validation errors suggest field names ("did you
	// mean"); off outside development, since it leaks the schema.
	Suggestions bool
	// AllowedOrigins are the origins allowed to open a WebSocket; "*" is all.
	AllowedOrigins []string
	// APQCache keeps automatic persisted queries; nil keeps them in memory.
	// Replicas behind one load balancer share a Redis one.
	APQCache graphql.Cache[string]
	// Loaders gives each query and mutation its per-request dataloaders
	// (Resolver.LoaderMiddleware); nil for none.
	Loaders graphql.OperationMiddleware
	// Reads sends lag-tolerant queries to the read replica
	// (ReplicaReads.Middleware); nil for none.
	Reads graphql.OperationMiddleware
	// Authenticate turns a bearer token into a context carrying the viewer.
	// It is called for WebSocket connection_init payloads; HTTP requests are
	// authenticated by middleware before they reach the handler.
	Authenticate func(ctx context.Context, token string) (context.Context, error)
	// CountError, when set, counts each error of a response by code and
	// reason (metrics).
	CountError func(code, reason string)
	// Tracer, when set, records OpenTelemetry spans of queries and
	// mutations and their root fields (see Tracing); nil adds nothing.
	Tracer trace.TracerProvider
	// Stages, when set, records each table event's first and last socket
	// write (profiling the fan-out).
	Stages *event.StageLog
	// Trusted, when set, answers documentIds and APQ hashes from the
	// trusted documents and, with Enforce, refuses unregistered documents
	// (trusted_documents.go).
	Trusted *TrustedDocuments
	// WSCaps bounds operations per socket and sockets per user and per
	// address on the WebSocket; zero values are no cap.
	WSCaps wstransport.Caps
	// Connections, when set, registers each authenticated WebSocket and SSE
	// stream by principal, so that a revocation closes it (authority.go).
	Connections *Connections
	// Drain, when set, knows every WebSocket and SSE stream so that a
	// shutdown closes them spread over a window, and refuses new ones
	// while draining.
	Drain *wstransport.Drain
}

// NewHandler builds the /query endpoint over es: POST and GET over HTTP,
// WebSocket (graphql-transport-ws and the legacy graphql-ws protocol) and
// SSE for subscriptions, with a query cache, automatic persisted queries,
// a complexity limit and a parser token limit.
func NewHandler(es graphql.ExecutableSchema, o HandlerOptions) *handler.Server {
	return newHandler(es, o, nil)
}

// newHandler is NewHandler with ws, when not nil, as the WebSocket
// transport (tests compare wstransport with gqlgen's).
func newHandler(es graphql.ExecutableSchema, o HandlerOptions, ws graphql.Transport) *handler.Server {
	shared := &sharedRender{ExecutableSchema: es, cache: newRenderCache(), stages: o.Stages}
	srv := handler.New(shared)
	// One count of sockets and SSE streams per user and address.
	counter := wstransport.NewCounter(o.WSCaps, viewerID, APIKeyFrom)
	srv.AddTransport(sseTransport{SSE: transport.SSE{KeepAlivePingInterval: 15 * time.Second}, conns: o.Connections, drain: o.Drain, counter: counter})
	if ws == nil {
		// graphql-transport-ws is served by wstransport (shared table-event
		// messages written straight to the socket); the legacy graphql-ws
		// by gqlgen's transport over the same accepted connection.
		ws = wstransport.New(wstransport.Options{
			Accept:      websocket.AcceptOptions{OriginPatterns: originPatterns(o.AllowedOrigins)},
			InitFunc:    o.initFunc,
			InitRefusal: initRefusal,
			InitTimeout: wsInitTimeout,
			ReadLimit:   readLimit(o.MaxMessage),
			Legacy:      gqlgenWebsocket(o),
			Shared:      shared,
			Caps:        o.WSCaps,
			Counter:     counter,
			UserID:      viewerID,
			KeyID:       APIKeyFrom,
			ClientIP:    ClientIP,
			Drain:       o.Drain,
			Track:       trackConn,
		})
	}
	srv.AddTransport(ws)
	srv.AddTransport(transport.Options{})
	// GET and POST as GraphQL over HTTP has them (http_transport.go).
	srv.AddTransport(httpTransport{})

	// The response cache's judge sees the response as it is written:
	// the outermost response interceptor (response_cache.go).
	srv.Use(responseCacheVerdict{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(o.TokenLimit)
	srv.SetDisableSuggestion(!o.Suggestions)
	if o.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(noIntrospection{})
	}
	apq := o.APQCache
	if apq == nil {
		apq = lru.New[string](1000)
	}
	if o.Trusted != nil && o.Trusted.Manifest != nil {
		apq = manifestAPQ{m: o.Trusted.Manifest, t: *o.Trusted, next: apq}
	}
	if o.Trusted != nil {
		// Before the APQ extension: a documentId of a WebSocket payload
		// is resolved, and an unregistered text refused, before any APQ
		// registration of it reaches the shared cache.
		srv.Use(trustedIntake{*o.Trusted})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: apq})
	srv.Use(extension.FixedComplexityLimit(o.ComplexityLimit))
	srv.Use(noDefer{})
	if o.Trusted != nil {
		srv.Use(*o.Trusted)
	}
	srv.Use(DepthLimit(o.DepthLimit))
	srv.Use(singleRootSubscription{})
	if o.Drain != nil {
		srv.AroundOperations(wstransport.DrainOps)
	}
	if o.Loaders != nil {
		srv.AroundOperations(o.Loaders)
	}
	if o.Reads != nil {
		srv.AroundOperations(o.Reads)
	}
	srv.Use(APIKeyScope{})
	srv.Use(StrictVariables{Schema: es.Schema()})
	srv.Use(Authority{})
	srv.Use(ErrorCounter{Count: o.CountError})
	srv.Use(Cost{})
	if o.Tracer != nil {
		srv.Use(Tracing{Provider: o.Tracer})
	}
	srv.SetErrorPresenter(ErrorPresenter(o.Log))
	srv.SetRecoverFunc(RecoverFunc(o.Log))
	return srv
}

const wsInitTimeout = 10 * time.Second

// gqlgenWebsocket is gqlgen's WebSocket transport as configured here.
func gqlgenWebsocket(o HandlerOptions) transport.Websocket {
	return transport.Websocket{
		KeepAlivePingInterval: 15 * time.Second,
		InitTimeout:           wsInitTimeout,
		PayloadReadLimit:      &o.MaxMessage,
		InitFunc:              o.initFunc,
		CloseFunc:             func(ctx context.Context, _ int) { connHandleFrom(ctx).release() },
	}
}

// initFunc authenticates a WebSocket's connection_init: its authToken, or
// its Authorization ("Bearer x"); none leaves the connection anonymous.
// The ack carries no payload: echoing the client's would send its access
// token back over the wire (and into any log of the frames). An
// authenticated socket
// (by token, or by the upgrade's API key) is registered in Connections
// with the credential every operation is checked against again.
func (o HandlerOptions) initFunc(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	token := p.GetString("authToken")
	if token == "" {
		token = strings.TrimPrefix(p.Authorization(), "Bearer ")
	}
	if token != "" && o.Authenticate != nil {
		authed, err := o.Authenticate(ctx, token)
		if err != nil {
			return authed, nil, err
		}
		ctx = withCredential(authed, token, o.Authenticate)
	}
	connHandleFrom(ctx).register(ctx, o.Connections)
	return ctx, nil, nil
}

// sseTransport is gqlgen's SSE transport whose authenticated streams are
// registered in conns: a revocation or the token's expiry ends the stream
// (it completes). Every stream is held by drain too: a shutdown ends it (it
// completes) in its turn, and a new one is refused while draining.
type sseTransport struct {
	transport.SSE
	conns   *Connections
	drain   *wstransport.Drain
	counter *wstransport.Counter
}

// Do implements graphql.Transport.
func (t sseTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	ctx, release, ok := t.drain.Hold(ctx, w, func(int, string) { cancel() })
	if !ok {
		return
	}
	defer release()
	// A stream counts as a socket against the caps per user and address.
	uncount, reason := t.counter.Admit(ctx, r, ClientIP)
	if reason != "" {
		writeGraphQLError(w, http.StatusTooManyRequests, errs.R(errs.Forbidden, reason, "too many open streams and sockets for this %s: close one first", capNoun(reason)), 0)
		return
	}
	defer uncount()
	ctx, h := withConnHandle(ctx, func(int, string) { cancel() })
	defer h.release()
	h.register(ctx, t.conns)
	t.SSE.Do(w, r.WithContext(ctx), exec)
}

// viewerID is the signed-in user of ctx, for the per-user socket cap. An
// API key's requests have a viewer but no user: they are counted by
// address only (all keys used to share the count of a user 0).
func viewerID(ctx context.Context) (int64, bool) {
	v, ok := ViewerFrom(ctx)
	return v.UserID, ok && v.UserID > 0
}

// trackConn registers a WebSocket in the registry of connections by
// principal (once initFunc has authenticated it): a revocation closes it.
func trackConn(ctx context.Context, closeConn func(code int, reason string)) (context.Context, func()) {
	ctx, h := withConnHandle(ctx, closeConn)
	return ctx, func() { h.release() }
}

// readLimit is the WebSocket read limit gqlgen's transport applies for a
// PayloadReadLimit of n: n when positive, else none (the library's own).
func readLimit(n int64) int64 { return max(n, 0) }

// originPatterns converts configured origins ("https://app.example.kz") to
// the host patterns the WebSocket library matches against the Origin header.
func originPatterns(origins []string) []string {
	var out []string
	for _, o := range origins {
		o = strings.TrimPrefix(strings.TrimPrefix(o, "https://"), "http://")
		out = append(out, strings.TrimSuffix(o, "/"))
	}
	return out
}

// bearer extracts the token of an "Authorization: Bearer x" header.
func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// capNoun names what a cap's reason counts per.
func capNoun(reason string) string {
	switch reason {
	case wstransport.ReasonSocketsPerUser:
		return "account"
	case wstransport.ReasonSocketsPerKey:
		return "API key"
	}
	return "address"
}
