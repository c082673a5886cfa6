package sqldb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/internal/tcpproxy"
	"github.com/pokertote/pokertote/internal/testenv"
)

// TestReadReplicaRouting opens a database with a read pool on a second
// connection to the same database (standing in for a streaming replica):
// a plain read of a LagTolerant context is served by the read pool, every
// other read and every transaction by the primary, and a write sent to the
// read pool is refused as read-only rather than performed.
func TestReadReplicaRouting(t *testing.T) {
	ctx := context.Background()
	u := migratedPostgres.Postgres(t)
	db, err := Open(ctx, Options{DatabaseURL: u, ReadURL: u + "&application_name=pokertote-replica"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	appName := func(ctx context.Context) string {
		var name string
		rd, done := db.Reader(ctx)
		defer done()
		if err := rd.Raw("SELECT current_setting('application_name')").Scan(&name).Error; err != nil {
			t.Fatal(err)
		}
		return name
	}
	if got := appName(ctx); got == "pokertote-replica" {
		t.Fatalf("a plain read without LagTolerant went to the read pool")
	}
	if got := appName(LagTolerant(ctx)); got != "pokertote-replica" {
		t.Fatalf("a LagTolerant read went to %q, want the read pool", got)
	}
	if c := db.ReadCounts(); c.Primary != 1 || c.Replica != 1 {
		t.Fatalf("read counts %+v, want one each", c)
	}
	rd, done := db.Reader(LagTolerant(ctx))
	err = rd.Exec("INSERT INTO settings (key, value) VALUES ('replica-test', 'x')").Error
	done()
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Code != "25006" {
		t.Fatalf("a write on the read pool: %v, want read_only_sql_transaction (25006)", err)
	}
	// A transaction is the primary's whatever the context says.
	if err := db.Tx(LagTolerant(ctx), func(tx *gorm.DB) error {
		return tx.Exec("INSERT INTO settings (key, value) VALUES ('replica-test', 'x')").Error
	}); err != nil {
		t.Fatalf("a transaction of a LagTolerant context: %v", err)
	}
}

// TestReadAfterWritePosition: read-your-writes by WAL position, on real
// Postgres with the read pool's replay position taken from a table the
// test moves (a second pool to the same database stands in for the
// standby). A read that must see a position the "replica" has not replayed
// goes to the primary; once it has, to the replica, pinned to the
// connection that was asked; the connection remembers what it has
// replayed, so a second read needs no second question; a session on a
// primary (not in recovery) has everything; UnknownLSN never uses the
// replica; a plain LagTolerant read does not ask at all.
func TestReadAfterWritePosition(t *testing.T) {
	ctx := context.Background()
	u := testenv.Postgres(t)
	db, err := Open(ctx, Options{DatabaseURL: u, ReadURL: u + "&application_name=pokertote-replica", MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.gorm.Exec("CREATE TABLE fake_replay (standby boolean, lsn pg_lsn)").Error; err != nil {
		t.Fatal(err)
	}
	setReplay := func(standby bool, l LSN) {
		t.Helper()
		if err := db.gorm.Exec("DELETE FROM fake_replay").Error; err != nil {
			t.Fatal(err)
		}
		if err := db.gorm.Exec("INSERT INTO fake_replay VALUES (?, ?::pg_lsn)", standby, l.String()).Error; err != nil {
			t.Fatal(err)
		}
	}
	db.replica.replayQuery = "SELECT standby, lsn::text FROM fake_replay"
	if err := db.Tx(ctx, func(tx *gorm.DB) error {
		return tx.Exec("INSERT INTO settings (key, value) VALUES ('ryw-test', 'x')").Error
	}); err != nil {
		t.Fatal(err)
	}
	pos, err := db.WALPosition(ctx)
	if err != nil || pos == NoLSN || pos == UnknownLSN {
		t.Fatalf("WAL position after a write: %v, %v", pos, err)
	}
	served := func(ctx context.Context) string {
		t.Helper()
		rd, done := db.Reader(ctx)
		defer done()
		var name string
		if err := rd.Raw("SELECT current_setting('application_name')").Scan(&name).Error; err != nil {
			t.Fatal(err)
		}
		if name == "pokertote-replica" {
			return "replica"
		}
		return "primary"
	}
	setReplay(true, pos-1)
	if got := served(LagTolerantAfter(ctx, pos)); got != "primary" {
		t.Fatalf("a read after %v with the replica at %v went to the %s", pos, pos-1, got)
	}
	if c := db.ReadCounts(); c.Behind != 1 {
		t.Fatalf("counts %+v, want one read behind", c)
	}
	if got := served(LagTolerant(ctx)); got != "replica" {
		t.Fatalf("a plain lag-tolerant read went to the %s", got)
	}
	setReplay(true, pos)
	checks := db.replica.checks.Load()
	if got := served(LagTolerantAfter(ctx, pos)); got != "replica" {
		t.Fatalf("a read after %v with the replica there went to the %s", pos, got)
	}
	if got := served(LagTolerantAfter(ctx, pos-5)); got != "replica" {
		t.Fatalf("a read after an earlier position went to the %s", got)
	}
	if n := db.replica.checks.Load() - checks; n != 1 {
		t.Fatalf("the replica was asked its position %d times for two reads on its one connection, want once", n)
	}
	if got := served(LagTolerantAfter(ctx, pos+1)); got != "primary" {
		t.Fatalf("a read past what the replica replayed went to the %s", got)
	}
	setReplay(false, 0)
	if got := served(LagTolerantAfter(ctx, pos+1000)); got != "replica" {
		t.Fatalf("a read from a session on a primary (not in recovery) went to the %s", got)
	}
	if got := served(LagTolerantAfter(ctx, UnknownLSN)); got != "primary" {
		t.Fatalf("a read after an unknown position went to the %s", got)
	}
	// The pinned connection is given back: with one connection in the read
	// pool, a second pinned read would wait for ever otherwise.
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for range 3 {
		if got := served(LagTolerantAfter(tctx, pos)); got != "replica" {
			t.Fatalf("a read on the replica after it went to the %s", got)
		}
	}
}

// TestWALPositionCoversCommits: concurrent callers of WALPosition share
// queries, and each gets a position at or past every commit made before
// its call (the end of the commit, pg_current_wal_insert_lsn on the same
// connection right after it).
func TestWALPositionCoversCommits(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, Options{DatabaseURL: testenv.Postgres(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 32)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := db.sql.Conn(ctx)
			if err != nil {
				errc <- err
				return
			}
			var end string
			_, err = conn.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES ($1, 'x')", fmt.Sprintf("wal-%d", i))
			if err == nil {
				err = conn.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&end)
			}
			_ = conn.Close()
			if err != nil {
				errc <- err
				return
			}
			committed, err := ParseLSN(end)
			if err != nil {
				errc <- err
				return
			}
			got, err := db.WALPosition(ctx)
			if err != nil {
				errc <- err
				return
			}
			if got < committed {
				errc <- fmt.Errorf("writer %d: WALPosition %v is before its commit's end %v", i, got, committed)
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	sdb, err := Open(ctx, Options{SQLitePath: filepath.Join(t.TempDir(), "x.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if l, err := sdb.WALPosition(ctx); l != NoLSN || err != nil {
		t.Fatalf("SQLite WAL position %v, %v; want none", l, err)
	}
}

// TestPoolFollowsThePrimary opens the pool with a two-host DATABASE_URL
// (target_session_attrs=read-write), each host a proxy to the test
// database. When the first host dies (its connections cut and no new ones
// accepted), the pool's connections to it are given up and new ones go to
// the second host, with no reopening: at most the statements in flight on
// a cut connection fail.
func TestPoolFollowsThePrimary(t *testing.T) {
	ctx := context.Background()
	u, err := url.Parse(migratedPostgres.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	first, err := tcpproxy.Start("127.0.0.1:0", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := tcpproxy.Start("127.0.0.1:0", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	multi := *u
	multi.Host = first.Addr() + "," + second.Addr()
	multi.RawQuery = "target_session_attrs=read-write&connect_timeout=2"
	db, err := Open(ctx, Options{DatabaseURL: multi.String(), MaxOpenConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	write := func() error {
		return db.Tx(ctx, func(tx *gorm.DB) error {
			return tx.Exec("INSERT INTO settings (key, value) VALUES (?, 'x')", "follow-"+time.Now().Format(time.RFC3339Nano)).Error
		})
	}
	for i := range 8 {
		if err := write(); err != nil {
			t.Fatalf("write %d before the cut: %v", i, err)
		}
	}
	if second.Accepted() != 0 {
		t.Fatalf("the second host got %d connections while the first was up", second.Accepted())
	}
	first.Cut()
	failed := 0
	for i := range 20 {
		if err := MapErr(write(), "setting"); err != nil {
			if r := errs.ReasonOf(err); r != errs.ReasonDatabaseUnavailable && r != errs.ReasonCommitUnknown {
				t.Fatalf("write %d after the cut failed with %v (reason %q), want DATABASE_UNAVAILABLE or COMMIT_UNKNOWN", i, err, r)
			}
			failed++
			if failed > 4 {
				t.Fatalf("write %d after the cut: %v (%d failed: more than the pool's connections)", i, err, failed)
			}
		}
	}
	if second.Accepted() == 0 {
		t.Fatal("no connection went to the second host after the first was cut")
	}
	t.Logf("after the cut: %d of 20 writes failed on connections that were cut, %d connections to the second host", failed, second.Accepted())
}

// TestUnavailableErrors: a connection that failed, a server shutting down
// and a session on a node that became a standby map to
// DATABASE_UNAVAILABLE; a constraint does not.
func TestUnavailableErrors(t *testing.T) {
	for _, err := range []error{
		io.ErrUnexpectedEOF,
		&net.OpError{Op: "dial", Err: errors.New("connection refused")},
		&pgconn.PgError{Code: "57P01"},
		&pgconn.PgError{Code: "25006"},
		&pgconn.PgError{Code: "08006"},
		fmt.Errorf("bet batch: %w", driver.ErrBadConn),
	} {
		if r := errs.ReasonOf(MapErr(err, "bet")); r != errs.ReasonDatabaseUnavailable {
			t.Errorf("%v maps to reason %q, want DATABASE_UNAVAILABLE", err, r)
		}
	}
	if r := errs.ReasonOf(MapErr(&pgconn.PgError{Code: "23514"}, "bet")); r == errs.ReasonDatabaseUnavailable {
		t.Error("a check violation maps to DATABASE_UNAVAILABLE")
	}
	if r := errs.ReasonOf(MapErr(errs.CommitUnknown(io.ErrUnexpectedEOF), "bet")); r != errs.ReasonCommitUnknown {
		t.Errorf("a commit of unknown outcome maps to %q", r)
	}
}
