package testenv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Migrating a database for every test is most of what many tests spend: a
// template is prepared once per test process (by its Build, which runs the
// migrations) and each test gets a copy of it, a CREATE DATABASE ... TEMPLATE
// on Postgres and a file copy on SQLite. A template is private to the
// process that built it (its name is unique), so concurrent test binaries of
// one tree or of several trees never share or race on one, and a change to
// the migrations can never meet a stale template. Main drops the templates
// when the tests end.

// Name prefixes of the databases these helpers create. A name carries its
// creation time (Unix seconds) so that a later run can sweep what a killed
// process left behind.
const (
	testDBPrefix   = "pokertote_t_"
	templatePrefix = "pokertote_tpl_"
	// staleAfter is how old a leftover database must be before a sweep
	// drops it: far beyond any test timeout, so no running test loses it.
	staleAfter = 6 * time.Hour
)

var (
	mainMu      sync.Mutex
	mainRunning bool
	atExit      []func()
)

// Main runs the package's tests and then drops the template databases and
// files the process built. A package whose tests use a PostgresTemplate or a
// SQLiteTemplate calls it from TestMain:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	mainMu.Lock()
	mainRunning = true
	mainMu.Unlock()
	code := m.Run()
	mainMu.Lock()
	fns := atExit
	atExit = nil
	mainMu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
	os.Exit(code)
}

// onExit registers fn to run when Main's tests end; it fails when Main is
// not running, since the template would then outlive the process.
func onExit(fn func()) error {
	mainMu.Lock()
	defer mainMu.Unlock()
	if !mainRunning {
		return errors.New("testenv: a template needs the package's TestMain to call testenv.Main(m), which removes it after the tests")
	}
	atExit = append(atExit, fn)
	return nil
}

var (
	adminOnce sync.Once
	adminDB   *sql.DB
	adminErr  error
)

// admin is the process's pool on the server's maintenance database (the
// one TEST_DATABASE_URL names), where databases are created and dropped.
func admin() (*sql.DB, error) {
	adminOnce.Do(func() {
		db, err := sql.Open("pgx", AdminPostgresURL())
		if err != nil {
			adminErr = err
			return
		}
		db.SetMaxOpenConns(4)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			adminErr = err
			return
		}
		adminDB = db
	})
	return adminDB, adminErr
}

// databaseURL is the admin URL pointing at database name.
func databaseURL(name string) (string, error) {
	u, err := url.Parse(AdminPostgresURL())
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", AdminPostgresURL(), err)
	}
	u.Path = "/" + name
	return u.String(), nil
}

// newDBName is a fresh database name with the prefix and the time.
func newDBName(prefix string) string {
	return fmt.Sprintf("%s%d_%s", prefix, time.Now().Unix(), randomHex(5))
}

// PostgresTemplate is a Postgres database that Build prepares once per test
// process and that Postgres copies for each test.
type PostgresTemplate struct {
	// Build prepares the (empty) template database at url, for example by
	// running the migrations; it must close its connections before it
	// returns.
	Build func(ctx context.Context, url string) error

	once sync.Once
	name string
	err  error
}

// Postgres creates a database for this test as a copy of the template
// (building the template first when this is the process's first call),
// drops it when the test ends, and returns its URL. When Postgres does not
// answer, the test fails (Required).
func (p *PostgresTemplate) Postgres(t testing.TB) string {
	t.Helper()
	db, err := admin()
	if err != nil {
		unavailable(t, "PostgreSQL at "+AdminPostgresURL(), postgresHint, err)
	}
	p.once.Do(func() { p.name, p.err = p.build(db) })
	if p.err != nil {
		t.Fatalf("build the template database: %v", p.err)
	}
	return createDatabase(t, db, "TEMPLATE "+p.name)
}

func (p *PostgresTemplate) build(db *sql.DB) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	sweepStale(ctx, db)
	name := newDBName(templatePrefix)
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create %s: %w", name, err)
	}
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			fmt.Fprintf(os.Stderr, "testenv: drop template database %s: %v\n", name, err)
		}
	}
	if err := onExit(drop); err != nil {
		drop()
		return "", err
	}
	u, err := databaseURL(name)
	if err != nil {
		return "", err
	}
	if err := p.Build(ctx, u); err != nil {
		return "", fmt.Errorf("build %s: %w", name, err)
	}
	// Nobody may connect to the template from now on: CREATE DATABASE
	// refuses a template that has sessions, and a test must never write
	// to it. Build closed its pool; a session it leaked is ended.
	if _, err := db.ExecContext(ctx, "ALTER DATABASE "+name+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return "", fmt.Errorf("close %s to connections: %w", name, err)
	}
	if _, err := db.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name); err != nil {
		return "", fmt.Errorf("end the sessions on %s: %w", name, err)
	}
	return name, nil
}

// createDatabase creates a database for t (with the CREATE DATABASE
// options opts), drops it when t ends and returns its URL. A copy whose
// template still shows a closing session (55006: "being accessed by other
// users") is tried again.
func createDatabase(t testing.TB, db *sql.DB, opts string) string {
	t.Helper()
	name := newDBName(testDBPrefix)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for attempt := 1; ; attempt++ {
		_, err := db.ExecContext(ctx, strings.TrimSpace("CREATE DATABASE "+name+" "+opts))
		if err == nil {
			break
		}
		var pg *pgconn.PgError
		if !errors.As(err, &pg) || pg.Code != "55006" || attempt == 20 {
			t.Fatalf("create test database: %v", err)
		}
		time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	u, err := databaseURL(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// sweepStale drops the test and template databases that a process killed
// before its cleanup left behind, once they are older than staleAfter.
// Errors are ignored: a sweep is tidying, not a test.
func sweepStale(ctx context.Context, db *sql.DB) {
	rows, err := db.QueryContext(ctx, "SELECT datname FROM pg_database WHERE datname LIKE 'pokertote\\_t%'")
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil && isStale(name, time.Now()) {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		_, _ = db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
}

// isStale reports whether name is one of these helpers' databases created
// more than staleAfter before now. Names without a time (older helpers')
// are never stale.
func isStale(name string, now time.Time) bool {
	var rest string
	switch {
	case strings.HasPrefix(name, templatePrefix):
		rest = name[len(templatePrefix):]
	case strings.HasPrefix(name, testDBPrefix):
		rest = name[len(testDBPrefix):]
	default:
		return false
	}
	ts, _, ok := strings.Cut(rest, "_")
	if !ok {
		return false
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	return now.Sub(time.Unix(sec, 0)) > staleAfter
}

// SQLiteTemplate is a SQLite database file that Build prepares once per
// test process and that Path copies for each test.
type SQLiteTemplate struct {
	// Build prepares the database file at path (which does not exist yet)
	// and closes it.
	Build func(ctx context.Context, path string) error

	once sync.Once
	path string
	err  error
}

// Path copies the template to a file in a temporary folder of t (building
// the template first when this is the process's first call) and returns
// the copy's path.
func (s *SQLiteTemplate) Path(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "test.db")
	s.CopyTo(t, dst)
	return dst
}

// CopyTo copies the template to dst, which must not exist.
func (s *SQLiteTemplate) CopyTo(t testing.TB, dst string) {
	t.Helper()
	s.once.Do(func() { s.path, s.err = s.build() })
	if s.err != nil {
		t.Fatalf("build the template database file: %v", s.err)
	}
	// A WAL file that the last close did not fold in carries committed
	// pages: it goes along with the database (the shared-memory index is
	// rebuilt from it).
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(s.path+suffix, dst+suffix); err != nil && !(suffix != "" && errors.Is(err, os.ErrNotExist)) {
			t.Fatalf("copy the template database file: %v", err)
		}
	}
}

func (s *SQLiteTemplate) build() (string, error) {
	dir, err := os.MkdirTemp("", "pokertote-tpl-")
	if err != nil {
		return "", err
	}
	if err := onExit(func() { os.RemoveAll(dir) }); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	path := filepath.Join(dir, "template.db")
	if err := s.Build(ctx, path); err != nil {
		return "", err
	}
	return path, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
