package sqldb

// Read replicas: reads that tolerate a little lag (results,
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
	return context.WithValue(ctx, lagTolerantKey{}, NoLSN)
}

// LagTolerantAfter returns ctx whose plain reads may be served by the read
// replica once it has replayed the WAL up to after (read-your-writes: the
// position of the reader's last write, WALPosition). A replica behind it,
// or one that cannot tell, leaves the read to the primary. NoLSN is
// LagTolerant; UnknownLSN keeps every read on the primary.
func LagTolerantAfter(ctx context.Context, after LSN) context.Context {
	return context.WithValue(ctx, lagTolerantKey{}, after)
}

// replica is the read pool of DATABASE_READ_URL.
type replica struct {
	gorm *gorm.DB
	sql  *sql.DB
	// replayQuery answers whether the session is on a standby and how far
	// it has replayed the WAL; a test points it at a table it controls.
	replayQuery string
	checks      atomic.Int64 // replayQuery runs, for tests
}

const replayQuery = "SELECT pg_is_in_recovery(), COALESCE(pg_last_wal_replay_lsn(), '0/0')::text"

// ReadCounts are the plain reads served by each pool since Open. Behind
// counts the lag-tolerant reads of a recent writer that went to the
// primary because the replica had not yet replayed their write; they are
// among Primary.
type ReadCounts struct{ Primary, Replica, Behind int64 }

type poolReads struct{ primary, replica, behind atomic.Int64 }

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
	return &replica{gorm: gdb, sql: sqlDB, replayQuery: replayQuery}, nil
}

// Reader is the pool of a plain read (outside any transaction): the read
// replica when there is one and ctx is LagTolerant, the primary otherwise;
// done gives back what it holds (call it once the read is over). For
// LagTolerantAfter the read is pinned to one replica connection that has
// replayed past the position, which that connection was asked (its answer
// is kept on it: a session never goes back in the WAL, and a session on a
// primary has everything), or else it is the primary's.
func (db *DB) Reader(ctx context.Context) (q *gorm.DB, done func()) {
	after, ok := ctx.Value(lagTolerantKey{}).(LSN)
	if db.replica == nil || !ok {
		db.reads.primary.Add(1)
		return db.gorm.WithContext(ctx), func() {}
	}
	if after == NoLSN {
		db.reads.replica.Add(1)
		return db.replica.gorm.WithContext(ctx), func() {}
	}
	if after != UnknownLSN {
		if conn, ok := db.replica.past(ctx, after); ok {
			db.reads.replica.Add(1)
			q := db.replica.gorm.Session(&gorm.Session{NewDB: true, Context: ctx})
			q.Statement.ConnPool = conn
			return q, func() { _ = conn.Close() }
		}
	}
	db.reads.behind.Add(1)
	db.reads.primary.Add(1)
	return db.gorm.WithContext(ctx), func() {}
}

// replayedKey is where a replica session keeps the WAL position it was
// last seen to have replayed (pgconn's CustomData).
const replayedKey = "pokertote.replayed"

// past takes a replica connection that has replayed the WAL past after;
// false if the one it got has not (or the replica does not answer).
func (r *replica) past(ctx context.Context, after LSN) (*sql.Conn, bool) {
	conn, err := r.sql.Conn(ctx)
	if err != nil {
		return nil, false
	}
	var replayed LSN
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("persistence: a replica connection of type %T", dc)
		}
		data := sc.Conn().PgConn().CustomData()
		if v, ok := data[replayedKey].(LSN); ok && v >= after {
			replayed = v
			return nil
		}
		r.checks.Add(1)
		var standby bool
		var at string
		if err := sc.Conn().QueryRow(ctx, r.replayQuery).Scan(&standby, &at); err != nil {
			return err
		}
		if !standby {
			replayed = UnknownLSN // a primary: every commit is there
		} else if replayed, err = ParseLSN(at); err != nil {
			return err
		}
		data[replayedKey] = replayed
		return nil
	})
	if err != nil || replayed < after {
		_ = conn.Close()
		return nil, false
	}
	return conn, true
}

// HasReplica reports whether DATABASE_READ_URL is in use.
func (db *DB) HasReplica() bool { return db.replica != nil }

// ReadCounts reports the plain reads each pool served.
func (db *DB) ReadCounts() ReadCounts {
	return ReadCounts{Primary: db.reads.primary.Load(), Replica: db.reads.replica.Load(), Behind: db.reads.behind.Load()}
}
