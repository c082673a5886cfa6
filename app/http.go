package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/klauspost/compress/gzhttp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/graph/wstransport"
	"github.com/pokertote/pokertote/persistence/redisbus"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/web"
)

// routes is the HTTP surface: the GraphQL endpoint, the web client at /, the
// playground at /graphiql (in development), health and readiness probes, and Prometheus metrics.
func (a *App) routes() http.Handler {
	reads := a.replicaReads() // before the registry: it adds collectors
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pokertote_http_requests_total", Help: "HTTP requests by route and status code.",
	}, []string{"route", "code"})
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "pokertote_http_request_seconds", Help: "HTTP request latency by route (subscriptions excluded).",
		Buckets: prometheus.DefBuckets,
	}, []string{"route"})
	gqlErrors := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pokertote_graphql_errors_total", Help: "GraphQL errors sent, by extensions.code and reason (refusals by reason).",
	}, []string{"code", "reason"})
	reg.MustRegister(requests, latency, gqlErrors)
	a.respCache = graph.NewResponseCache(a.toteAPI, a.trusted, a.cfg.MaxRequest, a.cfg.RequestTimeout)
	reg.MustRegister(responseCacheMetrics(a.respCache)...)
	for _, c := range a.metrics {
		reg.MustRegister(c)
	}

	gql := graph.NewHandler(graph.NewExecutableSchema(graph.Config{
		Resolvers:  a.resolver,
		Directives: graph.Directives(),
	}), graph.HandlerOptions{
		Log:             a.log,
		ComplexityLimit: a.cfg.Complexity,
		TokenLimit:      a.cfg.TokenLimit,
		DepthLimit:      a.cfg.DepthLimit,
		MaxMessage:      a.cfg.MaxRequest,
		Introspection:   a.cfg.Introspection,
		Suggestions:     a.cfg.Development() && a.cfg.Introspection,
		AllowedOrigins:  a.cfg.AllowedOrigins,
		Authenticate:    a.authenticate,
		APQCache:        a.apqCache(),
		Loaders:         a.resolver.LoaderMiddleware(),
		Reads:           reads,
		CountError:      func(code, reason string) { gqlErrors.WithLabelValues(code, reason).Inc() },
		Tracer:          a.tracerOrNil(),
		Stages:          a.stages,
		Trusted:         a.trusted,
		WSCaps: wstransport.Caps{SubscriptionsPerSocket: a.cfg.WSSubscriptionsPerSocket,
			SocketsPerUser: a.cfg.WSSocketsPerUser, SocketsPerKey: a.cfg.WSSocketsPerKey, SocketsPerAddress: a.cfg.WSSocketsPerAddress},
		Connections: a.conns,
		Drain:       a.drain,
	})

	mux := http.NewServeMux()
	instrument := func(route string, h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
			start := time.Now()
			h.ServeHTTP(sw, r)
			requests.WithLabelValues(route, strconv.Itoa(sw.code)).Inc()
			if r.Header.Get("Upgrade") == "" && r.Header.Get("Accept") != "text/event-stream" {
				latency.WithLabelValues(route).Observe(time.Since(start).Seconds())
			}
		})
	}
	var query http.Handler = graph.LimitBody(a.cfg.MaxRequest, graph.DocumentIDMiddleware(a.trusted.Manifest,
		graph.APIKeyMiddleware(a.keyAuth, graph.AuthMiddleware(a.authenticate, gql))))
	query = graph.ClientIPMiddleware(a.proxies, query)
	query = a.requestDeadline(query)
	query = a.failFast(query)
	if a.cfg.CountSQL {
		query = countSQL(query)
	}
	query = a.cors(a.wsOrigin(query))
	if a.tracer != nil {
		query = graph.TraceContextMiddleware(query)
	}
	// The lobby's anonymous table list is answered from the bytes an
	// identical request was answered with, headers and compression
	// included, while the read model and the jackpot are as they were
	// (graph/response_cache.go): first, so that nothing else runs for it.
	// While the database is known down it answers nothing (failFast does),
	// nor when each answer counts its statements (COUNT_SQL).
	a.respCache.Bypass = func(*http.Request) bool {
		return a.cfg.CountSQL || (a.db.Dialect() == sqldb.Postgres && a.health.dbDown())
	}
	mux.Handle("/query", instrument("/query", a.respCache.Middleware(compress(query))))
	if a.cfg.Playground {
		ide := compress(graphiqlHandler())
		mux.Handle("GET /graphiql", ide)
		mux.Handle("GET /graphiql/", ide)
	}
	mux.HandleFunc("GET /favicon.ico", faviconHandler)
	mux.Handle("GET /export/{report}", instrument("/export", a.failFast(graph.ClientIPMiddleware(a.proxies, a.exportHandler()))))
	// The reference web client, embedded (web/dist), with SPA fallback.
	mux.Handle("GET /draws/{id}/leaves", instrument("/draws/leaves", a.failFast(graph.LeavesHandler(a.toteSvc))))
	mux.Handle("/", web.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", a.ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return mux
}

// responseCacheMetrics counts the requests the response cache answered,
// executed to store their answer, and executed without storing.
func responseCacheMetrics(c *graph.ResponseCache) []prometheus.Collector {
	counter := func(result string, v func() int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "pokertote_response_cache_requests_total",
			Help:        "Anonymous POSTs to /query the response cache saw, by what it did: answered from the cache (hit), executed to store the answer (fill), executed without storing (executed: first sight, not cacheable, no stamp).",
			ConstLabels: prometheus.Labels{"result": result}}, func() float64 { return float64(v()) })
	}
	return []prometheus.Collector{counter("hit", c.Hits.Load), counter("fill", c.Fills.Load), counter("executed", c.Executions.Load)}
}

// compress gzips (or zstd-compresses, for clients that prefer it) the
// responses of h for clients that accept it, through klauspost/compress's
// gzhttp: a well-kept handler that negotiates Accept-Encoding, sets Vary,
// skips small bodies (under 1 KB) and already compressed types, and pools its
// writers. A WebSocket upgrade and an SSE stream pass through untouched:
// their frames are small, and permessage-deflate was not measured to help.
// The web client's own files are precompressed at build time instead (web).
func compress(h http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(1024), gzhttp.ExceptContentTypes([]string{"text/event-stream"}))
	if err != nil {
		panic(err) // the options are constants
	}
	zh := wrap(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			h.ServeHTTP(w, r)
			return
		}
		zh.ServeHTTP(w, r)
	})
}

// apqCache shares persisted queries through Redis when there is one.
func (a *App) apqCache() graphql.Cache[string] {
	if a.redis == nil {
		return nil
	}
	return redisAPQ{redisbus.NewCache(a.redis, a.cfg.RedisPrefix+"apq:", 24*time.Hour), a.health.redisDown}
}

// redisAPQ is gqlgen's persisted-query cache over persistence's plain
// Redis cache: query hash to query text. While Redis is down it misses at
// once (the client sends the query's text again).
type redisAPQ struct {
	c    *redisbus.Cache
	down func() bool
}

var _ graphql.Cache[string] = redisAPQ{}

func (r redisAPQ) Get(ctx context.Context, hash string) (string, bool) {
	if r.down() {
		return "", false
	}
	return r.c.Get(ctx, hash)
}

func (r redisAPQ) Add(ctx context.Context, hash, query string) {
	if !r.down() {
		r.c.Set(ctx, hash, query)
	}
}

// ready reports 200 only when the database and (if configured) Redis
// answer, within 1 s in all: both are asked at once, and one that does not
// answer by then is unavailable (503), so a replica cut from either leaves
// the load balancer's rotation promptly. A replica that is stopping
// answers 503 {"status":"draining","reason":"DRAINING"} at once (Shutdown).
func (a *App) ready(w http.ResponseWriter, r *http.Request) {
	if a.drain.Draining() {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "draining", "reason": wstransport.ReasonDraining})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyBudget)
	defer cancel()
	type result struct {
		name string
		err  error
	}
	results := make(chan result, 2)
	n := 1
	go func() { results <- result{"database", a.db.Ping(ctx)} }()
	if a.redis != nil {
		n++
		go func() { results <- result{"redis", a.redis.Ping(ctx).Err()} }()
	}
	checks := map[string]string{"database": "unavailable"}
	if a.redis != nil {
		checks["redis"] = "unavailable"
	}
	code := http.StatusOK
	// A store whose client does not honour the deadline (a black-holed
	// connection) is not waited for: the answer leaves at the budget.
	deadline := time.NewTimer(readyBudget + 50*time.Millisecond)
	defer deadline.Stop()
	for range n {
		select {
		case res := <-results:
			if res.err == nil {
				checks[res.name] = "ok"
			}
		case <-deadline.C:
			writeJSON(w, http.StatusServiceUnavailable, checks)
			return
		}
	}
	for _, v := range checks {
		if v != "ok" {
			code = http.StatusServiceUnavailable
		}
	}
	writeJSON(w, code, checks)
}

// readyBudget is how long /readyz waits for the stores.
const readyBudget = 800 * time.Millisecond

// requestDeadline bounds a query or mutation over HTTP by RequestTimeout;
// WebSocket upgrades and SSE streams last as long as the client stays.
func (a *App) requestDeadline(next http.Handler) http.Handler {
	if a.cfg.RequestTimeout <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), a.cfg.RequestTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// cors answers browser preflights and allows the configured origins.
func (a *App) cors(next http.Handler) http.Handler {
	all := slices.Contains(a.cfg.AllowedOrigins, "*")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && (all || slices.Contains(a.cfg.AllowedOrigins, origin)) {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Vary", "Origin")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			w.Header().Set("Access-Control-Max-Age", "600")
		}
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// wsOrigin refuses (403) a WebSocket upgrade from a page whose origin CORS
// would refuse: the Origin must be one of AllowedOrigins exactly as CORS
// compares it (scheme, host, port and case), or the server's own origin
// over https. The WebSocket library's own check ignores the scheme and
// case, so http://APP.example.kz would pass it. No Origin (not a browser)
// passes: a token, not a cookie, is what a socket acts with.
func (a *App) wsOrigin(next http.Handler) http.Handler {
	if slices.Contains(a.cfg.AllowedOrigins, "*") {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if r.Header.Get("Upgrade") != "" && origin != "" &&
			!slices.Contains(a.cfg.AllowedOrigins, origin) && origin != "https://"+r.Host {
			writeJSON(w, http.StatusForbidden, map[string]any{"errors": []any{map[string]any{
				"message":    "WebSockets are open only to the web client's origins",
				"extensions": map[string]any{"code": string(errs.Forbidden), "reason": graph.ReasonOriginNotAllowed},
			}}})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// countSQL answers, in the X-SQL-Statements header, how many SQL statements
// the request ran: gqlgen writes the body once the operation is done, so the
// count is complete when the header goes out.
func countSQL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := new(atomic.Int64)
		cw := &countWriter{ResponseWriter: w, n: n}
		next.ServeHTTP(cw, r.WithContext(sqldb.WithStatementCounter(r.Context(), n)))
	})
}

type countWriter struct {
	http.ResponseWriter
	n    *atomic.Int64
	sent bool
}

func (w *countWriter) WriteHeader(code int) {
	if !w.sent {
		w.sent = true
		w.Header().Set("X-SQL-Statements", strconv.FormatInt(w.n.Load(), 10))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *countWriter) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *countWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush forwards to the underlying writer for streaming responses.
func (w *countWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack lets the WebSocket upgrade take over the connection.
func (w *countWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer cannot hijack")
	}
	return h.Hijack()
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach Flush and Hijack (SSE, WebSocket).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush forwards to the underlying writer for streaming responses.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// Hijack lets the WebSocket upgrade take over the connection.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer cannot hijack")
	}
	return h.Hijack()
}
