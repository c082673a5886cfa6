// Package testenv finds the real Postgres and Redis that persistence and
// end-to-end tests run against. Each test gets a fresh database (or a fresh
// Redis channel prefix), so packages can run in parallel and leave nothing
// behind.
//
// When a service does not answer, the test is skipped with the reason; when
// POKERTOTE_REQUIRE_SERVICES=1 (set by .ci/run) it fails instead, so CI can
// never pass by skipping.
package testenv

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
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
// test ends, and returns its URL.
func Postgres(t testing.TB) string {
	t.Helper()
	admin := AdminPostgresURL()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	db, err := sql.Open("pgx", admin)
	if err == nil {
		err = db.PingContext(ctx)
	}
	if err != nil {
		unavailable(t, "PostgreSQL at "+admin, err)
	}
	name := "pokertote_t_" + randomHex(6)
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		db.Close()
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
		db.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("parse %s: %v", admin, err)
	}
	u.Path = "/" + name
	return u.String()
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
