package app_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestGraphiQLServedFromTheBinary loads the IDE page and every file it
// references: all from this server (no CDN), under a CSP that allows no
// inline or foreign script; "/" points at it in development.
func TestGraphiQLServedFromTheBinary(t *testing.T) {
	t.Parallel()
	a, _ := startServer(t, backends(t)[0], nil)
	base := "http://" + a.Addr()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(t *testing.T, path string) (*http.Response, string) {
		t.Helper()
		resp, err := noRedirect.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, page := get(t, "/graphiql")
	csp := resp.Header.Get("Content-Security-Policy")
	if resp.StatusCode != 200 || !strings.Contains(page, `id="graphiql"`) {
		t.Fatalf("GET /graphiql: %d %q", resp.StatusCode, page)
	}
	if !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") {
		t.Errorf("CSP %q", csp)
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "http") {
		t.Errorf("the page has inline script or a foreign URL: %s", page)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 5 {
		t.Fatalf("page references %v", refs)
	}
	for _, m := range refs {
		r, body := get(t, m[1])
		ct := r.Header.Get("Content-Type")
		if r.StatusCode != 200 || len(body) == 0 || !(strings.Contains(ct, "javascript") || strings.Contains(ct, "css")) {
			t.Errorf("%s: %d %s, %d bytes", m[1], r.StatusCode, ct, len(body))
		}
	}
	// The example tabs and the icon are served too.
	if r, body := get(t, "/graphiql/examples.json"); r.StatusCode != 200 || !strings.Contains(body, "subscription JoinTable") || !strings.Contains(body, "Authorization") {
		t.Errorf("examples.json: %d %.80q", r.StatusCode, body)
	}
	if r, body := get(t, "/favicon.ico"); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/x-icon" || !strings.HasPrefix(body, "\x00\x00\x01\x00") {
		t.Errorf("/favicon.ico: %d %s, %d bytes", r.StatusCode, r.Header.Get("Content-Type"), len(body))
	}
	// "/" is the web client (issue 12), not a redirect to the IDE.
	if r, body := get(t, "/"); r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), "Pokertote") {
		t.Errorf("GET /: %d %s, want the web client", r.StatusCode, r.Header.Get("Content-Type"))
	}
}
