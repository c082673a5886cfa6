package app_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestResponsesAreCompressed: /query answers and the GraphiQL bundle are
// gzipped for a client that accepts gzip (and sent plain to one that does
// not), the web client's assets come precompressed from the binary, and a
// WebSocket upgrade on /query is not wrapped.
func TestResponsesAreCompressed(t *testing.T) {
	t.Parallel()
	a, _ := startServer(t, backends(t)[0], nil)
	base := "http://" + a.Addr()
	// DisableCompression: the transport must not ask for gzip itself and
	// hide the header by decoding.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	do := func(t *testing.T, method, path, accept, body string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	gunzip := func(t *testing.T, b []byte) []byte {
		t.Helper()
		zr, err := gzip.NewReader(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("not gzip: %v", err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	// A /query answer over 1 KB: Casino Hold'em's paytables, three times.
	sel := "{ minAnte maxAnte antePaytable { category odds } bonusPaytable { category odds } }"
	q := `{"query":"{ a: holdemSettings ` + sel + ` b: holdemSettings ` + sel + ` c: holdemSettings ` + sel + ` }"}`
	plainResp, plain := do(t, http.MethodPost, "/query", "", q)
	if plainResp.Header.Get("Content-Encoding") != "" || !json.Valid(plain) {
		t.Fatalf("without Accept-Encoding: %q, %.80s", plainResp.Header.Get("Content-Encoding"), plain)
	}
	if len(plain) < 1024 {
		t.Fatalf("the answer is %d bytes, too small to be compressed", len(plain))
	}
	zResp, z := do(t, http.MethodPost, "/query", "gzip", q)
	if zResp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(zResp.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("POST /query with gzip: Content-Encoding %q, Vary %q", zResp.Header.Get("Content-Encoding"), zResp.Header.Get("Vary"))
	}
	if body := gunzip(t, z); !json.Valid(body) || len(z) >= len(body) {
		t.Errorf("gzipped answer: %d bytes for %d, valid JSON %v", len(z), len(body), json.Valid(body))
	}

	// GraphiQL's bundle.
	_, page := do(t, http.MethodGet, "/graphiql", "", "")
	js := regexp.MustCompile(`src="([^"]+\.js)"`).FindSubmatch(page)
	if js == nil {
		t.Fatalf("no script in GraphiQL's page")
	}
	r, b := do(t, http.MethodGet, string(js[1]), "gzip, deflate", "")
	if r.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(r.Header.Get("Content-Type"), "javascript") {
		t.Errorf("GET %s: Content-Encoding %q, Content-Type %q", js[1], r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"))
	} else if n := len(gunzip(t, b)); len(b)*2 > n {
		t.Errorf("GraphiQL bundle: %d bytes gzipped for %d", len(b), n)
	}

	// The web client: precompressed brotli or gzip from the embedded bundle.
	_, index := do(t, http.MethodGet, "/", "", "")
	app := regexp.MustCompile(`src="(/assets/app-[^"]+\.js)"`).FindSubmatch(index)
	if app == nil {
		t.Fatalf("no app script in %s", index)
	}
	for accept, want := range map[string]string{"gzip, deflate, br, zstd": "br", "gzip": "gzip", "": ""} {
		r, _ := do(t, http.MethodGet, string(app[1]), accept, "")
		if got := r.Header.Get("Content-Encoding"); got != want {
			t.Errorf("GET %s with %q: Content-Encoding %q, want %q", app[1], accept, got, want)
		}
	}

	// A WebSocket handshake on /query is answered by the socket, not by a gzip writer.
	req, _ := http.NewRequest(http.MethodGet, base+"/query", nil)
	for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
		"Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol": "graphql-transport-ws", "Accept-Encoding": "gzip"} {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("WebSocket upgrade: %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}
