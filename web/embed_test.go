package web

import (
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
