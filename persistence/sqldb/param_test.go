package sqldb

import "testing"

func TestWithParam(t *testing.T) {
	for _, c := range []struct{ dsn, want string }{
		{"postgres://u@h/db", "postgres://u@h/db?deadlock_timeout=10ms"},
		{"postgresql://u@h/db?sslmode=disable", "postgresql://u@h/db?sslmode=disable&deadlock_timeout=10ms"},
		{"host=h dbname=db", "host=h dbname=db deadlock_timeout=10ms"},
		// A setting the string makes already is kept.
		{"postgres://u@h/db?deadlock_timeout=1s", "postgres://u@h/db?deadlock_timeout=1s"},
		{"host=h deadlock_timeout=1s", "host=h deadlock_timeout=1s"},
	} {
		if got := WithParam(c.dsn, "deadlock_timeout", "10ms"); got != c.want {
			t.Errorf("WithParam(%q) = %q, want %q", c.dsn, got, c.want)
		}
	}
}
