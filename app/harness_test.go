package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// Test admin credentials of every harness server.
const (
	testAdminEmail    = "admin@pokertote.test"
	testAdminPassword = "admin password for tests"
)

// backend says which storage a harness server uses.
type backend struct {
	name        string
	databaseURL string // "" = SQLite in a temp dir
	redisURL    string // "" = in-process broker
	redisPrefix string
}

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

// seedSQLite puts a copy of the migrated SQLite template where a server on
// the embedded database (no DatabaseURL) will open its file, unless the
// file is there already (a restart on the same database).
func seedSQLite(t *testing.T, cfg *app.Config) {
	t.Helper()
	if cfg.DatabaseURL != "" || cfg.SQLitePath == "" {
		return
	}
	if _, err := os.Stat(cfg.SQLitePath); err == nil {
		return
	}
	sqldbtest.MigratedSQLite.CopyTo(t, cfg.SQLitePath)
}

// Every test here calls t.Parallel but TestDealerFailoverAfterCrash: its
// dealing replica is another process, on the wall clock, so its players'
// bets must land inside rounds of a few seconds, and it runs alone before
// the parallel tests start, so their load does not close a round on it.
// The other tests that play whole draws run their servers on a skipping
// clock (onClock) and close each round themselves once their bets are in.

// backends returns the embedded default and Postgres + Redis, for tests
// that must pass on both.
func backends(t *testing.T) []backend {
	t.Helper()
	redisURL, prefix := testenv.Redis(t)
	return []backend{
		{name: "sqlite"},
		{name: "postgres+redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redisURL, redisPrefix: prefix},
	}
}

// startServer runs a whole Pokertote server on a free port until the test
// ends. tweak may adjust the configuration.
func startServer(t *testing.T, b backend, tweak func(*app.Config)) (*app.App, *gqltest.Client) {
	t.Helper()
	a, c, stop := startStoppable(t, b, tweak)
	t.Cleanup(func() {
		select {
		case err := <-stop():
			if err != nil {
				t.Errorf("server stopped with %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("server did not stop within 20 s")
		}
	})
	return a, c
}

// startStoppable runs a whole server like startServer; stop ends its Run
// (as SIGTERM does: it drains, then closes) and delivers Run's result.
// Every call of stop delivers the result.
func startStoppable(t *testing.T, b backend, tweak func(*app.Config)) (*app.App, *gqltest.Client, func() <-chan error) {
	t.Helper()
	cfg := app.DefaultConfig()
	// A test's sockets are few: close them over a tenth of a second, not
	// production's ten.
	cfg.DrainWindow = 100 * time.Millisecond
	cfg.Addr = "127.0.0.1:0"
	cfg.JWTSecret = "test secret of at least thirty-two bytes!"
	cfg.DocumentPepper = "test pepper of at least thirty-two bytes!"
	cfg.AdminEmail, cfg.AdminPassword = testAdminEmail, testAdminPassword
	cfg.DemoTables = false
	cfg.DealerEnabled = false
	cfg.Introspection = true
	cfg.DatabaseURL = b.databaseURL
	cfg.SQLitePath = filepath.Join(t.TempDir(), "pokertote.db")
	cfg.RedisURL, cfg.RedisPrefix = b.redisURL, b.redisPrefix
	if tweak != nil {
		tweak(&cfg)
	}
	seedSQLite(t, &cfg)
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	a, err := app.New(context.Background(), cfg, testLogger(t))
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var res error
	finished := make(chan struct{})
	go func() { res = a.Run(ctx); close(finished) }()
	stop := func() <-chan error {
		cancel()
		out := make(chan error, 1)
		go func() { <-finished; out <- res }()
		return out
	}
	return a, gqltest.New(a.Addr()), stop
}

// testLogger shows server logs only with -v, or when LOG_TESTS=1.
func testLogger(t *testing.T) *slog.Logger {
	if os.Getenv("LOG_TESTS") == "1" || testing.Verbose() {
		return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", p)
	return len(p), nil
}

var uniq atomic.Int64

// unique returns a string unique within the test binary (emails, keys).
func unique(prefix string) string { return fmt.Sprintf("%s-%d-%d", prefix, os.Getpid(), uniq.Add(1)) }

// signIn logs in and returns a client carrying the access token.
func signIn(t *testing.T, c *gqltest.Client, email, password string) *gqltest.Client {
	t.Helper()
	var out struct {
		Login struct{ AccessToken string } `json:"login"`
	}
	c.MustDo(t, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }`,
		map[string]any{"e": email, "p": password}, &out)
	return c.WithToken(out.Login.AccessToken)
}

// player is a registered, verified player with money in the wallet.
type player struct {
	ID     string
	Email  string
	Client *gqltest.Client
}

// newPlayer registers a player born in 1990, has the admin approve their
// verification and deposit `deposit` (a Money string; "" for none).
func newPlayer(t *testing.T, c *gqltest.Client, deposit string) player {
	t.Helper()
	email := unique("player") + "@example.kz"
	var reg struct {
		Register struct {
			AccessToken string
			User        struct{ ID string }
		}
	}
	c.MustDo(t, `mutation($in: RegisterInput!) { register(input: $in) { accessToken user { id } } }`,
		map[string]any{"in": map[string]any{"email": email, "password": "player password 1", "name": "Test Player", "dateOfBirth": "1990-05-17", "acceptedTerms": account.DefaultTermsVersion}}, &reg)
	p := player{ID: reg.Register.User.ID, Email: email, Client: c.WithToken(reg.Register.AccessToken)}
	var sub struct {
		SubmitVerification struct{ ID string }
	}
	p.Client.MustDo(t, `mutation { submitVerification(input: {documentType: ID_CARD, documentNumber: "N`+fmt.Sprint(uniq.Add(1)+100000)+`", dateOfBirth: "1990-05-17"}) { id } }`, nil, &sub)
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	admin.MustDo(t, `mutation($id: ID!) { decideVerification(input: {id: $id, approve: true}) { status } }`,
		map[string]any{"id": sub.SubmitVerification.ID}, nil)
	if deposit != "" {
		admin.MustDo(t, `mutation($u: ID!, $a: Money!, $k: String!) { deposit(input: {userId: $u, amount: $a, idempotencyKey: $k}) { balance } }`,
			map[string]any{"u": p.ID, "a": deposit, "k": unique("dep")}, nil)
	}
	return p
}

// balance is the player's wallet balance as the API shows it.
func (p player) balance(t *testing.T) string {
	t.Helper()
	var out struct {
		Me struct{ Balance string }
	}
	p.Client.MustDo(t, `{ me { balance } }`, nil, &out)
	return out.Me.Balance
}
