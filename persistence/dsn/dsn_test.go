package dsn_test

import (
	"testing"

	"github.com/pokertote/pokertote/persistence/dsn"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h:5432/db": "postgres://u:***@h:5432/db",
		"redis://127.0.0.1:6379/0":      "redis://127.0.0.1:6379/0",
		"postgres://u@h/db":             "postgres://u@h/db",
	} {
		if got := dsn.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
