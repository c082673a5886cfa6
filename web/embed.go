// Package web embeds the built reference web client (web/dist, committed like
// gqlgen's output) and serves it as a single-page application, so that the Go
// binary serves the client on a machine with no Node installed. The sources
// are in web/src; `npm run build` in web/ rebuilds dist deterministically and
// .ci/run fails when the committed bundle is stale.
package web

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed all:dist
var dist embed.FS

// CSP is the Content-Security-Policy of every page of the client: scripts,
// styles and connections only from the serving origin (WebSocket included),
// no framing, no plugins, no inline script.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// Files returns the built client's files (rooted at dist).
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded at build time; Sub cannot fail on it
	}
	return sub
}

// Handler serves the client: a file of dist when the path names one, else
// index.html (SPA fallback, so /table/1 reloads work). Files under assets/
// carry a content hash in their name and are cached for a year as immutable;
// index.html is revalidated on every load so a new build is picked up at once.
// Paths under /query, /graphiql, /healthz, /readyz and /metrics never reach it
// (the mux routes them first).
func Handler() http.Handler {
	files := Files()
	index, err := fs.ReadFile(files, "index.html")
	if err != nil {
		index = []byte("<!doctype html><title>Pokertote</title><p>The web client is not built: run npm run build in web/.")
	}
	serveIndex := func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(index))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" || name == "index.html" {
			serveIndex(w, r)
			return
		}
		b, err := fs.ReadFile(files, name)
		if err != nil {
			if strings.HasPrefix(name, "assets/") || path.Ext(name) != "" {
				http.NotFound(w, r) // a missing asset is a 404, not the app
				return
			}
			serveIndex(w, r)
			return
		}
		if strings.HasPrefix(name, "assets/") {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "public, max-age=3600")
		}
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	})
}
