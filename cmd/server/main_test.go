package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
