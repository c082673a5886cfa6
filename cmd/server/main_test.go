package main

import (
	"bytes"
	"context"
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
