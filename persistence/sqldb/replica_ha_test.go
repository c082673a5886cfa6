//go:build chaos

package sqldb

// Read-your-writes on the real standby of deploy/ha (issue 27): run with
// deploy/ha/chaos.sh, which brings the topology up and exports its ports.

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"
	"time"

	"gorm.io/gorm"
)

// TestReadYourWritesOnTheStandby pauses WAL replay on the standby, writes
// on the primary (the synchronous standby has it on disk, not yet applied)
// and reads the row back: a plain lag-tolerant read, on the standby, does
// not find it (so the standby really is behind); a read after the write's
// WAL position goes to the primary and finds it. Once replay resumes and
// passes the position, the same read is served by the standby and finds
// it there.
func TestReadYourWritesOnTheStandby(t *testing.T) {
	ctx := context.Background()
	var nodes []string
	for _, k := range []string{"NODE1_PORT", "NODE2_PORT"} {
		v := os.Getenv(k)
		if v == "" {
			t.Fatalf("%s is not set: run deploy/ha/chaos.sh", k)
		}
		nodes = append(nodes, "127.0.0.1:"+v)
	}
	hosts := nodes[0] + "," + nodes[1]
	url := func(attrs string) string {
		return "postgres://postgres@" + hosts + "/pokertote?target_session_attrs=" + attrs + "&connect_timeout=2&sslmode=disable"
	}
	db, err := Open(ctx, Options{DatabaseURL: url("read-write"), ReadURL: url("standby"), MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	standby, err := sql.Open("pgx", url("standby"))
	if err != nil {
		t.Fatal(err)
	}
	defer standby.Close()
	if _, err := standby.ExecContext(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = standby.ExecContext(ctx, "SELECT pg_wal_replay_resume()") }()
	for deadline := time.Now().Add(10 * time.Second); ; {
		var state string
		if err := standby.QueryRowContext(ctx, "SELECT pg_get_wal_replay_pause_state()").Scan(&state); err != nil {
			t.Fatal(err)
		}
		if state == "paused" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby's replay is %q, not paused", state)
		}
		time.Sleep(20 * time.Millisecond)
	}
	key := fmt.Sprintf("ryw-standby-%d", time.Now().UnixNano())
	if err := db.Tx(ctx, func(tx *gorm.DB) error {
		return tx.Exec("INSERT INTO settings (key, value) VALUES (?, 'x')", key).Error
	}); err != nil {
		t.Fatal(err)
	}
	pos, err := db.WALPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := func(ctx context.Context) bool {
		t.Helper()
		rd, done := db.Reader(ctx)
		defer done()
		var n int64
		if err := rd.Raw("SELECT count(*) FROM settings WHERE key = ?", key).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	if found(LagTolerant(ctx)) {
		t.Fatal("the paused standby already has the write: the test cannot tell the pools apart")
	}
	c0 := db.ReadCounts()
	if !found(LagTolerantAfter(ctx, pos)) {
		t.Fatal("a read after the player's write position does not see the write")
	}
	if c := db.ReadCounts(); c.Behind-c0.Behind != 1 || c.Replica != c0.Replica {
		t.Fatalf("counts %+v then %+v: the read after the write should have gone to the primary", c0, c)
	}
	if _, err := standby.ExecContext(ctx, "SELECT pg_wal_replay_resume()"); err != nil {
		t.Fatal(err)
	}
	var waited time.Duration
	for start := time.Now(); ; {
		var replayed string
		if err := standby.QueryRowContext(ctx, "SELECT pg_last_wal_replay_lsn()::text").Scan(&replayed); err != nil {
			t.Fatal(err)
		}
		if l, err := ParseLSN(replayed); err == nil && l >= pos {
			waited = time.Since(start)
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the standby did not replay past %v in 10 s (at %s)", pos, replayed)
		}
		time.Sleep(5 * time.Millisecond)
	}
	c1 := db.ReadCounts()
	if !found(LagTolerantAfter(ctx, pos)) {
		t.Fatal("after replay a read after the write does not see it")
	}
	if c := db.ReadCounts(); c.Replica-c1.Replica != 1 || c.Behind != c1.Behind {
		t.Fatalf("counts %+v then %+v: once replayed, the read should have been the standby's", c1, c)
	}
	t.Logf("the standby replayed past %v %v after replay resumed; the read after the write moved from the primary to the standby", pos, waited)
}
