// Package testenv finds the real Postgres and Redis that persistence and
// end-to-end tests run against. Each test gets a fresh database (empty, or a
// copy of a migrated template: template.go) or a fresh Redis channel
// prefix, so packages and tests can run in parallel and leave nothing
// behind.
//
// When a service does not answer, the test fails with the reason and how to
// start the service or create the database, so that the README's test
// command cannot pass by skipping. Skipping instead needs an explicit
// opt-out: POKERTOTE_SKIP_MISSING_SERVICES=1 (for a laptop without Redis,
// say). POKERTOTE_REQUIRE_SERVICES=1, which .ci/run sets, overrides the
// opt-out.
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

// The environment variables that decide what a missing service does.
const (
	// SkipEnv, set to 1, lets a test skip when a service it needs is
	// missing.
	SkipEnv = "POKERTOTE_SKIP_MISSING_SERVICES"
	// RequireEnv, set to 1, makes a missing service a failure even when
	// SkipEnv is set (CI sets it).
	RequireEnv = "POKERTOTE_REQUIRE_SERVICES"
)

// Required reports whether a missing service fails the test (the default)
// rather than skipping it.
func Required() bool { return required(os.Getenv) }

func required(getenv func(string) string) bool {
	return getenv(RequireEnv) == "1" || getenv(SkipEnv) != "1"
}

// Hints say how to provide each service on a Debian machine like the
// development machines and CI.
const (
	postgresHint = "start PostgreSQL (Debian: `sudo apt-get install -y postgresql && sudo pg_ctlcluster 15 main start`), " +
		"let user postgres in from 127.0.0.1 without a password (first line of pg_hba.conf: `host all postgres 127.0.0.1/32 trust`), " +
		"and create the test database: `sudo -u postgres createdb test`; or point TEST_DATABASE_URL at another server"
	redisHint = "start Redis (Debian: `sudo apt-get install -y redis-server && redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ''`); " +
		"or point TEST_REDIS_URL at another server"
)

func unavailable(t testing.TB, what, hint string, err error) {
	t.Helper()
	msg := missingMessage(what, hint, err, Required())
	if Required() {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// missingMessage is what a test says when a service it needs is missing.
func missingMessage(what, hint string, err error, required bool) string {
	if required {
		return fmt.Sprintf("%s is unreachable: %v\nTo run this test, %s.\n"+
			"(To skip the tests that need it instead, set %s=1; CI sets %s=1 and never skips.)",
			what, err, hint, SkipEnv, RequireEnv)
	}
	return fmt.Sprintf("%s is unreachable, skipping (%s=1): %v", what, SkipEnv, err)
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
		unavailable(t, "PostgreSQL at "+AdminPostgresURL(), postgresHint, err)
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
		unavailable(t, "Redis at "+u, redisHint, err)
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
