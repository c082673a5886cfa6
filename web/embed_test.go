package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

func TestHandlerServesIndexWithFallbackAndHeaders(t *testing.T) {
	h := Handler()
	for _, p := range []string{"/", "/table/1", "/admin/verifications"} {
		rec := get(t, h, p)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<div id="app"`) {
			t.Fatalf("GET %s = %d %.120s", p, rec.Code, rec.Body.String())
		}
		if rec.Header().Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s Cache-Control = %q, want no-cache", p, rec.Header().Get("Cache-Control"))
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s CSP = %q", p, csp)
		}
	}
	if rec := get(t, h, "/assets/missing-0000.js"); rec.Code != 404 {
		t.Errorf("missing asset = %d, want 404", rec.Code)
	}
}

func TestHandlerCachesHashedAssetsForever(t *testing.T) {
	assets, err := fs.Glob(Files(), "assets/*.js")
	if err != nil || len(assets) == 0 {
		t.Fatalf("no built script in dist/assets (run npm run build in web/): %v", err)
	}
	rec := get(t, Handler(), "/"+assets[0])
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("GET %s = %d, Cache-Control %q", assets[0], rec.Code, rec.Header().Get("Cache-Control"))
	}
	if ct := rec.Header().Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("Content-Type = %q", ct)
	}
}

func TestHandlerRefusesWrites(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST / = %d", rec.Code)
	}
}

func TestHandlerSendsPrecompressedAssets(t *testing.T) {
	assets, err := fs.Glob(Files(), "assets/app-*.js")
	if err != nil || len(assets) == 0 {
		t.Fatalf("no built app script: %v", err)
	}
	plain, _ := fs.ReadFile(Files(), assets[0])
	for _, tc := range []struct{ accept, want string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip;q=0.5", "gzip"},
		{"*", "br"},
		{"br;q=0, *;q=0.1", "gzip"},
		{"gzip;q=0, br;q=0", ""},
		{"", ""},
		{"identity", ""},
	} {
		for _, p := range []string{"/" + assets[0], "/", "/table/1"} {
			req := httptest.NewRequest(http.MethodGet, p, nil)
			req.Header.Set("Accept-Encoding", tc.accept)
			rec := httptest.NewRecorder()
			Handler().ServeHTTP(rec, req)
			if got := rec.Header().Get("Content-Encoding"); got != tc.want {
				t.Errorf("GET %s with Accept-Encoding %q: Content-Encoding %q, want %q", p, tc.accept, got, tc.want)
			}
			if !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
				t.Errorf("GET %s: Vary = %q", p, rec.Header().Get("Vary"))
			}
			if ct := rec.Header().Get("Content-Type"); (p == "/" || p == "/table/1") && !strings.HasPrefix(ct, "text/html") || p == "/"+assets[0] && !strings.Contains(ct, "javascript") {
				t.Errorf("GET %s (%s): Content-Type %q", p, tc.accept, ct)
			}
			if p != "/"+assets[0] {
				continue
			}
			var body []byte
			switch tc.want {
			case "gzip":
				zr, err := gzip.NewReader(rec.Body)
				if err != nil {
					t.Fatal(err)
				}
				body, _ = io.ReadAll(zr)
			case "br":
				// The .br sibling itself (build.mjs checks that it decodes to the file).
				br, _ := fs.ReadFile(Files(), assets[0]+".br")
				if !bytes.Equal(rec.Body.Bytes(), br) {
					t.Errorf("GET %s as br: not the .br sibling", p)
				}
				continue
			default:
				body = rec.Body.Bytes()
			}
			if !bytes.Equal(body, plain) {
				t.Errorf("GET %s as %q: %d bytes decoded, want the %d of the file", p, tc.want, len(body), len(plain))
			}
		}
	}
}
