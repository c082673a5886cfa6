package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/app"
)

func TestRunRefusesBadConfiguration(t *testing.T) {
	env := map[string]string{"POKERTOTE_ENV": "production", "MIN_AGE": "abc"}
	var stderr bytes.Buffer
	err := run(context.Background(), nil, func(k string) string { return env[k] }, &stderr)
	if err == nil {
		t.Fatal("run accepted a production configuration without secrets")
	}
	for _, want := range []string{"MIN_AGE", "JWT_SECRET is required", "DOCUMENT_PEPPER is required", "ALLOWED_ORIGINS"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestRunRefusesArguments(t *testing.T) {
	if err := run(context.Background(), []string{"--port=1"}, func(string) string { return "" }, &bytes.Buffer{}); err == nil {
		t.Fatal("run accepted arguments")
	}
}

// TestProductionRefusesTheLocalBeacon: production deals from drand unless
// explicitly allowed to run on the server's own beacon.
func TestProductionRefusesTheLocalBeacon(t *testing.T) {
	base := map[string]string{
		"POKERTOTE_ENV": "production", "JWT_SECRET": "a production secret of thirty-two bytes!",
		"DOCUMENT_PEPPER": "a production pepper of thirty-two bytes", "ALLOWED_ORIGINS": "https://pokertote.example",
		"BEACON": "local",
	}
	run := func(extra map[string]string) error {
		_, err := app.LoadConfig(func(k string) string {
			if v, ok := extra[k]; ok {
				return v
			}
			return base[k]
		})
		return err
	}
	if err := run(nil); err == nil || !strings.Contains(err.Error(), "BEACON_ALLOW_LOCAL") {
		t.Fatalf("production accepted the local beacon: %v", err)
	}
	if err := run(map[string]string{"BEACON_ALLOW_LOCAL": "true"}); err != nil {
		t.Fatalf("an explicitly allowed local beacon was refused: %v", err)
	}
	cfg, err := app.LoadConfig(func(k string) string {
		if k == "BEACON" {
			return ""
		}
		return base[k]
	})
	if err != nil || cfg.Beacon != "drand" {
		t.Fatalf("production's default beacon is %q (%v), want drand", cfg.Beacon, err)
	}
	if dev, err := app.LoadConfig(func(string) string { return "" }); err != nil || dev.Beacon != "local" {
		t.Fatalf("development's default beacon is %q (%v), want local", dev.Beacon, err)
	}
}

func TestBrowseURL(t *testing.T) {
	for addr, want := range map[string]string{
		"[::]:8080":      "http://localhost:8080",
		"0.0.0.0:9090":   "http://localhost:9090",
		":8080":          "http://localhost:8080",
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		"[::1]:8080":     "http://[::1]:8080",
		"10.0.0.5:80":    "http://10.0.0.5:80",
	} {
		if got := browseURL(addr); got != want {
			t.Errorf("browseURL(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestRunPrintsTheURL: a development start prints the address to open, with
// the port it really listens on, and GraphiQL's.
func TestRunPrintsTheURL(t *testing.T) {
	env := map[string]string{"ADDR": "127.0.0.1:0", "DATA_DIR": t.TempDir(), "DEMO_TABLES": "false", "DEV_ADMIN": "false", "LOG_LEVEL": "error"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, w); w.Close() }()
	sc := bufio.NewScanner(r)
	var lines []string
	for len(lines) < 2 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) < 2 {
		t.Fatalf("printed %q, want the URL and GraphiQL's", lines)
	}
	re := regexp.MustCompile(`^Pokertote is serving: open (http://127\.0\.0\.1:[1-9][0-9]*)/$`)
	m := re.FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("first line %q, want %s", lines[0], re)
	}
	if want := "GraphiQL (the GraphQL IDE): " + m[1] + "/graphiql"; lines[1] != want {
		t.Fatalf("second line %q, want %q", lines[1], want)
	}
	resp, err := http.Get(m[1] + "/healthz")
	if err != nil {
		t.Fatalf("the printed URL does not answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/healthz: %s", m[1], resp.Status)
	}
	cancel()
	go io.Copy(io.Discard, r)
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}
