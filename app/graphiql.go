package app

import (
	"embed"
	"io/fs"
	"net/http"
)

// The GraphQL IDE is served from the binary itself, so it works offline and
// under a strict Content-Security-Policy: GraphiQL's prebuilt bundle and
// React (from their npm packages, unmodified; see
// graphiql/THIRD_PARTY_LICENSES.txt), a static page and a start script. No
// CDN, no inline script.
//
//go:embed graphiql
var graphiqlFiles embed.FS

// favicon is the site's icon (/favicon.ico), for the IDE and the client.
//
//go:embed favicon.ico
var favicon []byte

// faviconHandler serves /favicon.ico.
func faviconHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/x-icon")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(favicon)
}

// graphiqlCSP allows only this origin's scripts, styles, fonts and API
// (GraphiQL sets element styles from script and its fonts are data: URLs).
const graphiqlCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"font-src 'self' data:; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// graphiqlHandler serves the IDE at /graphiql and its files below it.
func graphiqlHandler() http.Handler {
	sub, err := fs.Sub(graphiqlFiles, "graphiql")
	if err != nil {
		panic(err) // the embedded folder is part of the binary
	}
	files := http.StripPrefix("/graphiql/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", graphiqlCSP)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if r.URL.Path == "/graphiql" || r.URL.Path == "/graphiql/" {
			w.Header().Set("Cache-Control", "no-cache")
			http.ServeFileFS(w, r, sub, "index.html")
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})
}
