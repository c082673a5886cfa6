package persistence

// Read replicas (issue 27): reads that tolerate a little lag (results,
// draw history, verifyDraw, affiliates' queries, a player's history) go to
// DATABASE_READ_URL when the caller marks its context LagTolerant. Money,
// the stake gate, limits and every transaction stay on the primary: only
// the repositories' plain reads consult the mark (DB.reader), never a
// transaction, and the replica's sessions are read-only, so a write sent
// there by mistake fails instead of forking the data.

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

type lagTolerantKey struct{}

// LagTolerant returns ctx whose plain reads may be served by the read
// replica, a little behind the primary.
func LagTolerant(ctx context.Context) context.Context {
	return context.WithValue(ctx, lagTolerantKey{}, true)
}

// IsLagTolerant reports whether ctx was marked LagTolerant.
func IsLagTolerant(ctx context.Context) bool {
	ok, _ := ctx.Value(lagTolerantKey{}).(bool)
	return ok
}

// replica is the read pool of DATABASE_READ_URL.
type replica struct {
	gorm *gorm.DB
	sql  *sql.DB
}

// ReadCounts are the plain reads served by each pool since Open.
type ReadCounts struct{ Primary, Replica int64 }

type poolReads struct{ primary, replica atomic.Int64 }

// openReplica connects the read pool of url. Its sessions start read-only
// (default_transaction_read_only): a standby is read-only anyway, and a
// primary named as the fallback host (target_session_attrs=prefer-standby)
// is then too.
func openReplica(ctx context.Context, url string, cfg *gorm.Config, maxOpen int) (*replica, error) {
	pc, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("persistence: DATABASE_READ_URL: %w", err)
	}
	pc.RuntimeParams["default_transaction_read_only"] = "on"
	sqlDB := stdlib.OpenDB(*pc)
	gdb, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), cfg)
	if err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("persistence: open the read replica: %w", err)
	}
	if err := registerStatementCounter(gdb); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("persistence: %w", err)
	}
	if maxOpen <= 0 {
		maxOpen = 20
	}
	sqlDB.SetMaxOpenConns(maxOpen)
	sqlDB.SetMaxIdleConns(maxOpen)
	sqlDB.SetConnMaxLifetime(30 * time.Minute)
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("persistence: the read replica does not answer: %w", err)
	}
	return &replica{gorm: gdb, sql: sqlDB}, nil
}

// reader is the pool of a plain read (outside any transaction): the read
// replica when there is one and ctx is LagTolerant, the primary otherwise.
func (db *DB) reader(ctx context.Context) *gorm.DB {
	if db.replica != nil && IsLagTolerant(ctx) {
		db.reads.replica.Add(1)
		return db.replica.gorm.WithContext(ctx)
	}
	db.reads.primary.Add(1)
	return db.gorm.WithContext(ctx)
}

// HasReplica reports whether DATABASE_READ_URL is in use.
func (db *DB) HasReplica() bool { return db.replica != nil }

// ReadCounts reports the plain reads each pool served.
func (db *DB) ReadCounts() ReadCounts {
	return ReadCounts{Primary: db.reads.primary.Load(), Replica: db.reads.replica.Load()}
}
