package testenv

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// childEnv marks the test binary run by TestMissingService as the child
// that asks for a service.
const childEnv = "TESTENV_CHILD_SERVICE"

// TestChildNeedsService is the child process of TestMissingService: it asks
// for the service named in childEnv and does nothing else.
func TestChildNeedsService(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "":
		t.Skip("the child process of TestMissingService; it runs there with " + childEnv + " set")
	case "postgres":
		Postgres(t)
	case "redis":
		Redis(t)
	default:
		t.Fatalf("%s=%q: want postgres or redis", childEnv, os.Getenv(childEnv))
	}
}

// TestMissingService runs a test that needs a service against an address
// where nothing answers, or a database that does not exist, as a newcomer's
// `go test ./...` would on a fresh machine: it fails and says how to provide
// the service, unless POKERTOTE_SKIP_MISSING_SERVICES=1 opts out, which
// POKERTOTE_REQUIRE_SERVICES=1 overrides.
func TestMissingService(t *testing.T) {
	noPostgres := "postgres://postgres@127.0.0.1:1/test?sslmode=disable&connect_timeout=2"
	if _, err := admin(); err != nil { // the real server, to ask it for a database it lacks
		unavailable(t, "PostgreSQL at "+AdminPostgresURL(), postgresHint, err)
	}
	noDatabase, err := databaseURL("pokertote_no_such_database")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, service string
		env           []string
		fail          bool
		want          []string
	}{
		{"no server", "postgres", []string{"TEST_DATABASE_URL=" + noPostgres}, true,
			[]string{"127.0.0.1:1", "pg_ctlcluster", "createdb test", SkipEnv + "=1"}},
		{"no test database", "postgres", []string{"TEST_DATABASE_URL=" + noDatabase}, true,
			[]string{"pokertote_no_such_database", "does not exist", "createdb test"}},
		{"no redis", "redis", []string{"TEST_REDIS_URL=redis://127.0.0.1:1/0"}, true,
			[]string{"Redis at redis://127.0.0.1:1/0", "redis-server"}},
		{"opted out", "postgres", []string{"TEST_DATABASE_URL=" + noPostgres, SkipEnv + "=1"}, false,
			[]string{"--- SKIP: TestChildNeedsService", SkipEnv}},
		{"CI overrides the opt-out", "redis", []string{"TEST_REDIS_URL=redis://127.0.0.1:1/0", SkipEnv + "=1", RequireEnv + "=1"}, true,
			[]string{"--- FAIL: TestChildNeedsService", "redis-server"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, failed := runChild(t, c.service, c.env)
			if failed != c.fail {
				t.Errorf("child failed = %v, want %v; output:\n%s", failed, c.fail, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// runChild runs TestChildNeedsService in a fresh process with env added to
// a copy of this one's environment stripped of the service variables.
func runChild(t *testing.T, service string, env []string) (string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildNeedsService$", "-test.v", "-test.count=1")
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case SkipEnv, RequireEnv, "TEST_DATABASE_URL", "TEST_REDIS_URL", childEnv:
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(append(cmd.Env, childEnv+"="+service), env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run the child: %v", err)
	}
	return string(out), err != nil
}

func TestRequired(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, true},
		{map[string]string{SkipEnv: "1"}, false},
		{map[string]string{SkipEnv: "0"}, true},
		{map[string]string{SkipEnv: "1", RequireEnv: "1"}, true},
		{map[string]string{RequireEnv: "1"}, true},
	} {
		if got := required(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("required(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}
