package persistence

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/internal/tcpproxy"
)

// TestReadReplicaRouting opens a database with a read pool on a second
// connection to the same database (standing in for a streaming replica):
// a plain read of a LagTolerant context is served by the read pool, every
// other read and every transaction by the primary, and a write sent to the
// read pool is refused as read-only rather than performed.
func TestReadReplicaRouting(t *testing.T) {
	ctx := context.Background()
	u := MigratedOptions(t, "postgres").DatabaseURL
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
		if err := db.reader(ctx).Raw("SELECT current_setting('application_name')").Scan(&name).Error; err != nil {
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
	err = db.reader(LagTolerant(ctx)).Exec("INSERT INTO settings (key, value) VALUES ('replica-test', 'x')").Error
	var pg *pgconn.PgError
	if !errors.As(err, &pg) || pg.Code != "25006" {
		t.Fatalf("a write on the read pool: %v, want read_only_sql_transaction (25006)", err)
	}
	// A transaction is the primary's whatever the context says.
	if err := db.tx(LagTolerant(ctx), func(tx *gorm.DB) error {
		return tx.Exec("INSERT INTO settings (key, value) VALUES ('replica-test', 'x')").Error
	}); err != nil {
		t.Fatalf("a transaction of a LagTolerant context: %v", err)
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
	u, err := url.Parse(MigratedOptions(t, "postgres").DatabaseURL)
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
		return db.tx(ctx, func(tx *gorm.DB) error {
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
		if err := mapErr(write(), "setting"); err != nil {
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
		if r := errs.ReasonOf(mapErr(err, "bet")); r != errs.ReasonDatabaseUnavailable {
			t.Errorf("%v maps to reason %q, want DATABASE_UNAVAILABLE", err, r)
		}
	}
	if r := errs.ReasonOf(mapErr(&pgconn.PgError{Code: "23514"}, "bet")); r == errs.ReasonDatabaseUnavailable {
		t.Error("a check violation maps to DATABASE_UNAVAILABLE")
	}
	if r := errs.ReasonOf(mapErr(errs.CommitUnknown(io.ErrUnexpectedEOF), "bet")); r != errs.ReasonCommitUnknown {
		t.Errorf("a commit of unknown outcome maps to %q", r)
	}
}
