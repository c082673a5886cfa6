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
	"strconv"
	"strings"
	"time"
)

//go:embed all:dist
var dist embed.FS

// CSP is the Content-Security-Policy of every page of the client: scripts,
// styles and connections only from the serving origin (WebSocket included)
// and drand's public relays (the verifier reads a beacon round a void says
// was missing), no framing, no plugins, no inline script.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self' ws: wss: https://api.drand.sh https://api2.drand.sh https://api3.drand.sh https://drand.cloudflare.com; object-src 'none'; base-uri 'none'; " +
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
		serve(w, r, files, "index.html", index)
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
		serve(w, r, files, name, b)
	})
}

// encodings are the precompressed siblings web/build.mjs writes next to each
// text file, best first.
var encodings = []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// serve sends the file, or its precompressed sibling when the browser accepts
// that coding (Content-Encoding set, Vary: Accept-Encoding so caches keep
// both). The Content-Type is that of the file itself (by its name).
func serve(w http.ResponseWriter, r *http.Request, files fs.FS, name string, plain []byte) {
	h := w.Header()
	body := plain
	for _, e := range encodings {
		b, err := fs.ReadFile(files, name+e.ext)
		if err != nil {
			continue
		}
		h.Add("Vary", "Accept-Encoding")
		if accepts(r.Header.Get("Accept-Encoding"), e.coding) {
			h.Set("Content-Encoding", e.coding)
			body = b
			break
		}
	}
	if h.Get("Content-Encoding") != "" {
		// ServeContent sniffs the type from the name only when none is set:
		// set it from the plain file's name, never from the compressed bytes.
		if h.Get("Content-Type") == "" {
			if ct := contentType(name); ct != "" {
				h.Set("Content-Type", ct)
			}
		}
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	}
	return ""
}

// accepts reports whether an Accept-Encoding header allows coding (by name
// or "*"), honouring q=0 as a refusal (RFC 9110, section 12.5.3).
func accepts(header, coding string) bool {
	ok := false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != coding && name != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if k, v, found := strings.Cut(strings.TrimSpace(p), "="); found && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if name == coding {
			return q > 0
		}
		ok = q > 0 // "*" counts unless the coding is named
	}
	return ok
}
