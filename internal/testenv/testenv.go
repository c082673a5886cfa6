// Package testenv finds the real Postgres and Redis that persistence and
// end-to-end tests run against. Each test gets a fresh database (empty, or a
// copy of a migrated template: template.go) or a fresh Redis channel
// prefix, so packages and tests can run in parallel and leave nothing
// behind.
//
// When a service does not answer, the test is skipped with the reason; when
// POKERTOTE_REQUIRE_SERVICES=1 (set by .ci/run) it fails instead, so CI can
// never pass by skipping.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for creating test databases
	"github.com/redis/go-redis/v9"
)

// Default addresses, as on the development machines and in CI.
const (
	DefaultPostgresURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	DefaultRedisURL    = "redis://127.0.0.1:6379/0"
)

// Required reports whether missing services fail tests instead of skipping.
func Required() bool { return os.Getenv("POKERTOTE_REQUIRE_SERVICES") == "1" }

func unavailable(t testing.TB, what string, err error) {
	t.Helper()
	if Required() {
		t.Fatalf("%s is required (POKERTOTE_REQUIRE_SERVICES=1) but unreachable: %v", what, err)
	}
	t.Skipf("%s unreachable, skipping (set POKERTOTE_REQUIRE_SERVICES=1 to fail instead): %v", what, err)
}

// AdminPostgresURL is the server to create test databases on:
// TEST_DATABASE_URL, else the default.
func AdminPostgresURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultPostgresURL
}

// Postgres creates a fresh, empty database for this test, drops it when the
// test ends, and returns its URL. Tests that want a migrated database take
// a copy of a PostgresTemplate instead.
func Postgres(t testing.TB) string {
	t.Helper()
	db, err := admin()
	if err != nil {
		unavailable(t, "PostgreSQL at "+AdminPostgresURL(), err)
	}
	return createDatabase(t, db, "")
}

// Redis checks that Redis answers and returns its URL and a channel prefix
// unique to this test.
func Redis(t testing.TB) (redisURL, prefix string) {
	t.Helper()
	u := os.Getenv("TEST_REDIS_URL")
	if u == "" {
		u = DefaultRedisURL
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("parse %s: %v", u, err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		unavailable(t, "Redis at "+u, err)
	}
	return u, fmt.Sprintf("pokertote-test-%s:", randomHex(6))
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// SkipShort skips a slow test under -short, the fast loop of day-to-day
// work, saying why (the full run, which CI does, covers it). CI never skips:
// with CI=true (as .ci/run runs) it fails instead, so a -short slipped into
// CI's command cannot pass by skipping.
func SkipShort(t testing.TB, why string) {
	t.Helper()
	if !testing.Short() {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("-short under CI=true: CI runs every test (skipped under -short: %s)", why)
	}
	t.Skipf("-short: %s; the full run (go test -race ./..., as CI) covers it", why)
}

// RedisClient is Redis's client for this test, closed when it ends, and
// a key prefix unique to it.
func RedisClient(t testing.TB) (*redis.Client, string) {
	t.Helper()
	u, prefix := Redis(t)
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	return c, prefix
}
