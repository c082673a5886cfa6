// Package sqldb is the SQL floor under the persistence packages: it opens
// Postgres or pure-Go SQLite (the embedded default), runs the versioned
// migrations, and holds the one transaction runner, retry loop, lock
// helpers, driver-error mapping onto domain/errs, statement tracing and the
// read-replica plumbing (lag-tolerant reads, write positions). The
// per-aggregate packages (accountdb, holdemdb, ledgerdb, protectiondb,
// totedb) build on it; lock and retry SQL live only here.
package sqldb

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"go.opentelemetry.io/otel/trace"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/pokertote/pokertote/domain/errs"
)

//go:embed migrations/postgres/*.sql migrations/sqlite/*.sql
var migrationFiles embed.FS

// Dialect names the SQL database behind a DB.
type Dialect string

// The supported dialects.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// Options says which database to open.
type Options struct {
	// DatabaseURL is a Postgres URL; empty selects SQLite at SQLitePath.
	DatabaseURL string
	// SQLitePath is the embedded database file, created with its folder.
	SQLitePath string
	// MaxOpenConns bounds the Postgres pool (SQLite always uses one
	// connection: it has a single writer, and one connection makes every
	// transaction serializable without busy retries).
	MaxOpenConns int
	// ConnectTimeout bounds opening a Postgres connection (0: 3 s), and
	// StatementTimeout one statement on the server (0: 15 s), unless the
	// URL sets connect_timeout or statement_timeout itself: a replica cut
	// from its database answers within bounded time instead of hanging
	// (the request's own deadline covers a silent network).
	ConnectTimeout   time.Duration
	StatementTimeout time.Duration
	Logger           *slog.Logger
	// ReadURL is a Postgres read replica for lag-tolerant reads
	// (replica.go); empty: every read on DatabaseURL.
	ReadURL string
}

// withTimeouts adds connect_timeout and statement_timeout to a Postgres
// URL or keyword/value string that does not set them.
func withTimeouts(dsn string, connect, statement time.Duration) string {
	if connect <= 0 {
		connect = 3 * time.Second
	}
	if statement <= 0 {
		statement = 15 * time.Second
	}
	dsn = WithParam(dsn, "connect_timeout", strconv.Itoa(max(int(connect/time.Second), 1)))
	return WithParam(dsn, "statement_timeout", strconv.FormatInt(statement.Milliseconds(), 10))
}

// WithParam adds key=value to a Postgres URL or keyword/value string that
// does not set key already. pgx sends a key it does not know itself as a
// runtime parameter when it connects (a server setting for the session).
func WithParam(dsn, key, value string) string {
	if strings.Contains(dsn, key+"=") {
		return dsn
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		return dsn + sep + key + "=" + value
	}
	return dsn + " " + key + "=" + value
}

// DB is an open database with its dialect.
type DB struct {
	gorm    *gorm.DB
	sql     *sql.DB
	dialect Dialect
	log     *slog.Logger
	// tracer records the spans of statements sent outside GORM (the pgx
	// hot path); nil until EnableTracing.
	tracer trace.Tracer
	// replica serves lag-tolerant plain reads; nil without ReadURL.
	replica *replica
	reads   poolReads
	// wal coalesces the WAL position queries of read-your-writes (wal.go).
	wal walRounds
}

// Open connects to the database and checks that it answers. It does not
// migrate; call Migrate.
func Open(ctx context.Context, o Options) (*DB, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	cfg := &gorm.Config{
		Logger:                 logger.Discard,
		SkipDefaultTransaction: true,
		NowFunc:                func() time.Time { return time.Now().UTC() },
		TranslateError:         false,
	}
	var (
		gdb     *gorm.DB
		err     error
		dialect Dialect
	)
	if o.DatabaseURL != "" {
		dialect = Postgres
		gdb, err = gorm.Open(postgres.Open(withTimeouts(o.DatabaseURL, o.ConnectTimeout, o.StatementTimeout)), cfg)
	} else {
		dialect = SQLite
		if o.SQLitePath == "" {
			return nil, fmt.Errorf("persistence: no DATABASE_URL and no SQLite path")
		}
		if dir := filepath.Dir(o.SQLitePath); dir != "" {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, fmt.Errorf("persistence: create data folder: %w", err)
			}
		}
		dsn := "file:" + o.SQLitePath + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		gdb, err = gorm.Open(sqlite.Open(dsn), cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: open %s: %w", dialect, err)
	}
	sqlDB, err := gdb.DB()
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	if err := registerStatementCounter(gdb); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("persistence: %w", err)
	}
	if dialect == SQLite {
		sqlDB.SetMaxOpenConns(1)
	} else {
		n := o.MaxOpenConns
		if n <= 0 {
			n = 20
		}
		sqlDB.SetMaxOpenConns(n)
		sqlDB.SetMaxIdleConns(n)
		sqlDB.SetConnMaxLifetime(30 * time.Minute)
	}
	db := &DB{gorm: gdb, sql: sqlDB, dialect: dialect, log: o.Logger}
	if err := db.Ping(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, err
	}
	db.warnSettings(ctx)
	if o.ReadURL != "" && dialect == Postgres {
		if db.replica, err = openReplica(ctx, o.ReadURL, cfg, o.MaxOpenConns); err != nil {
			_ = sqlDB.Close()
			return nil, err
		}
	}
	return db, nil
}

// Gorm is the primary's GORM handle, for repositories' statements.
func (db *DB) Gorm() *gorm.DB { return db.gorm }

// SQL is the primary's connection pool, for the pgx fast paths.
func (db *DB) SQL() *sql.DB { return db.sql }

// Log is the logger the database was opened with.
func (db *DB) Log() *slog.Logger { return db.log }

// Dialect reports which database this is.
func (db *DB) Dialect() Dialect { return db.dialect }

// Ping checks that the database answers (within 3 s, or ctx's deadline).
func (db *DB) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := db.sql.PingContext(ctx); err != nil {
		return fmt.Errorf("persistence: %s does not answer: %w", db.dialect, err)
	}
	return nil
}

// Close closes the connection pools.
func (db *DB) Close() error {
	if db.replica != nil {
		_ = db.replica.sql.Close()
	}
	return db.sql.Close()
}

// Migrate applies every pending versioned migration of this dialect. On
// Postgres a session advisory lock makes concurrent replicas take turns.
func (db *DB) Migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrationFiles, "migrations/"+string(db.dialect))
	if err != nil {
		return fmt.Errorf("persistence: migrations: %w", err)
	}
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(goMigrations(db.dialect)...)}
	gd := goose.DialectSQLite3
	if db.dialect == Postgres {
		gd = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return fmt.Errorf("persistence: migration lock: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(gd, db.sql, sub, opts...)
	if err != nil {
		return fmt.Errorf("persistence: migrations: %w", err)
	}
	res, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("persistence: migrate: %w", err)
	}
	for _, r := range res {
		db.log.Info("migration applied", "version", r.Source.Version, "file", filepath.Base(r.Source.Path), "took", r.Duration)
	}
	return nil
}

// Tx runs fn in one database transaction. When fn succeeded but the commit
// failed for a reason other than one the database reports as a rollback (a
// serialization failure or deadlock, a deferred constraint), the outcome is
// unknown (the connection dropped at commit) and the error says so
// (errs.CommitUnknown), so the client retries with its idempotency key.
func (db *DB) Tx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	fnOK := false
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := fn(tx)
		fnOK = err == nil
		return err
	})
	if err != nil && fnOK && !KnownRollback(err) {
		return errs.CommitUnknown(err)
	}
	return err
}

// KnownRollback reports whether a failed commit is known not to have
// happened: the database answered with a serialization failure, a deadlock
// or an integrity violation.
func KnownRollback(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return strings.HasPrefix(pg.Code, "40") || strings.HasPrefix(pg.Code, "23")
	}
	return false
}
