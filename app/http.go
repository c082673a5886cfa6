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
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pokertote/pokertote/graph"
	"github.com/pokertote/pokertote/persistence"
	"github.com/pokertote/pokertote/web"
)

// routes is the HTTP surface: the GraphQL endpoint, the web client at /, the
// playground at /graphiql (in development), health and readiness probes, and Prometheus metrics.
func (a *App) routes() http.Handler {
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
		Introspection:   a.cfg.Introspection,
		Suggestions:     a.cfg.Development() && a.cfg.Introspection,
		AllowedOrigins:  a.cfg.AllowedOrigins,
		Authenticate:    a.authenticate,
		APQCache:        a.apqCache(),
		CountError:      func(code, reason string) { gqlErrors.WithLabelValues(code, reason).Inc() },
		Tracer:          a.tracerOrNil(),
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
	var query http.Handler = a.cors(graph.APIKeyMiddleware(a.keyAuth, graph.AuthMiddleware(a.authenticate, gql)))
	if a.tracer != nil {
		query = graph.TraceContextMiddleware(query)
	}
	mux.Handle("/query", instrument("/query", query))
	if a.cfg.Playground {
		mux.Handle("GET /graphiql", playground.Handler("Pokertote", "/query"))
	}
	// The reference web client, embedded (web/dist), with SPA fallback.
	mux.Handle("/", web.Handler())
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", a.ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return mux
}

// apqCache shares persisted queries through Redis when there is one.
func (a *App) apqCache() graphql.Cache[string] {
	if a.redis == nil {
		return nil
	}
	return persistence.NewRedisAPQCache(a.redis, a.cfg.RedisPrefix, 24*time.Hour)
}

// ready reports 200 only when the database and (if configured) Redis answer.
func (a *App) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	checks := map[string]string{}
	code := http.StatusOK
	if err := a.db.Ping(ctx); err != nil {
		checks["database"] = "unavailable"
		code = http.StatusServiceUnavailable
	} else {
		checks["database"] = "ok"
	}
	if a.redis != nil {
		if err := a.redis.Ping(ctx).Err(); err != nil {
			checks["redis"] = "unavailable"
			code = http.StatusServiceUnavailable
		} else {
			checks["redis"] = "ok"
		}
	}
	writeJSON(w, code, checks)
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
