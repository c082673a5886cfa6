package sqldb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// positions is a WAL position source the test moves by hand.
type positions struct {
	lsn sqldb.LSN
	err error
}

func (p *positions) at(context.Context) (sqldb.LSN, error) { return p.lsn, p.err }

// TestWritePositionsAcrossReplicas records a write through one replica's
// set and finds its position through another's sharing the Redis; a later
// record of an earlier position (a slower replica answering late) does not
// lower it; a player who wrote nothing needs nothing; the key expires with
// the window. The in-process set knows only its own writes.
func TestWritePositionsAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	c, prefix := testenv.RedisClient(t)
	pa, pb := &positions{lsn: 0x1_0000_0100}, &positions{lsn: 0x1_0000_0050}
	a := sqldb.NewRedisWritePositions(c, prefix, pa.at, time.Minute, nil)
	b := sqldb.NewRedisWritePositions(c, prefix, pb.at, time.Minute, nil)
	a.Wrote(ctx, 7)
	if got, ok := b.After(ctx, 7); !ok || got != 0x1_0000_0100 {
		t.Fatalf("replica b reads player 7 after %v (ok %v), want the position of a's write 1/100", got, ok)
	}
	b.Wrote(ctx, 7) // an earlier position, recorded later
	if got, _ := a.After(ctx, 7); got != 0x1_0000_0100 {
		t.Fatalf("an earlier position lowered the stored one to %v", got)
	}
	pb.lsn = 0x2_0000_0000
	b.Wrote(ctx, 7)
	if got, _ := a.After(ctx, 7); got != 0x2_0000_0000 {
		t.Fatalf("a later write through b: a reads after %v, want 2/0", got)
	}
	if got, ok := b.After(ctx, 8); !ok || got != sqldb.NoLSN {
		t.Fatalf("a player who wrote nothing must see %v (ok %v), want nothing", got, ok)
	}
	ttl, err := c.PTTL(ctx, prefix+"wal:7").Result()
	if err != nil || ttl <= 0 || ttl > time.Minute {
		t.Fatalf("the writer's key lives %v (%v), want up to the window", ttl, err)
	}
	local := sqldb.NewWritePositions(pa.at, time.Minute, nil)
	local.Wrote(ctx, 9)
	if got, _ := local.After(ctx, 9); got != 0x1_0000_0100 {
		t.Fatalf("the in-process set: player 9 after %v", got)
	}
	if got, _ := local.After(ctx, 7); got != sqldb.NoLSN {
		t.Fatalf("the in-process set knows another replica's write (%v)", got)
	}
}

// TestWritePositionsUnknown: when the primary does not give its position,
// the player's reads stay on the primary (UnknownLSN) for the hold, which
// later known writes do not extend; when Redis does not answer, After says
// it cannot tell; once the window has passed, the player needs nothing.
func TestWritePositionsUnknown(t *testing.T) {
	ctx := context.Background()
	p := &positions{err: errors.New("no primary")}
	w := sqldb.NewWritePositions(p.at, 50*time.Millisecond, nil)
	w.Wrote(ctx, 1)
	if got, ok := w.After(ctx, 1); !ok || got != sqldb.UnknownLSN {
		t.Fatalf("after a write of unknown position: %v (ok %v), want UnknownLSN", got, ok)
	}
	time.Sleep(60 * time.Millisecond)
	if got, _ := w.After(ctx, 1); got != sqldb.NoLSN {
		t.Fatalf("after the window: %v, want nothing", got)
	}
	// An unknown position holds the reads on the primary for its hold only:
	// later writes of known position do not extend it, and once it has
	// passed their position applies (here through another replica's set,
	// sharing the Redis).
	c, prefix := testenv.RedisClient(t)
	p.lsn, p.err = 0, errors.New("failover")
	const keep = 400 * time.Millisecond
	a := sqldb.NewRedisWritePositions(c, prefix, p.at, keep, nil)
	b := sqldb.NewRedisWritePositions(c, prefix, p.at, keep, nil)
	start := time.Now()
	a.Wrote(ctx, 3)
	p.lsn, p.err = 0x42, nil
	time.Sleep(100 * time.Millisecond)
	a.Wrote(ctx, 3)
	if got, ok := b.After(ctx, 3); !ok || got != sqldb.UnknownLSN {
		t.Fatalf("within the hold of an unknown write: %v (ok %v), want UnknownLSN", got, ok)
	}
	time.Sleep(keep - time.Since(start) + 50*time.Millisecond)
	a.Wrote(ctx, 3) // keeps the known position alive past the first keep
	if got, ok := b.After(ctx, 3); !ok || got != 0x42 {
		t.Fatalf("after the hold of the unknown write: %v (ok %v), want the later known position 0/42", got, ok)
	}
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	defer dead.Close()
	r := sqldb.NewRedisWritePositions(dead, "x:", (&positions{lsn: 5}).at, time.Minute, nil)
	if _, ok := r.After(ctx, 2); ok {
		t.Fatal("with Redis down After claims to know the position")
	}
}

// TestLSNText reads and writes Postgres's text form of WAL positions.
func TestLSNText(t *testing.T) {
	for s, want := range map[string]sqldb.LSN{"0/0": 0, "16/B374D848": 0x16_B374D848, "FFFFFFFF/FFFFFFFF": sqldb.UnknownLSN, "0/1": 1} {
		got, err := sqldb.ParseLSN(s)
		if err != nil || got != want {
			t.Errorf("ParseLSN(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, bad := range []string{"", "/", "1/", "/1", "12", "G/0", "1/2/3", "100000000/0", "-1/0", "+1/0"} {
		if _, err := sqldb.ParseLSN(bad); err == nil {
			t.Errorf("ParseLSN(%q) accepted", bad)
		}
	}
}

// FuzzParseLSN: whatever ParseLSN accepts prints back to a text it reads
// as the same position.
func FuzzParseLSN(f *testing.F) {
	for _, s := range []string{"0/0", "16/B374D848", "FFFFFFFF/FFFFFFFF", "1/", "0/00000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := sqldb.ParseLSN(s)
		if err != nil {
			return
		}
		back, err := sqldb.ParseLSN(l.String())
		if err != nil || back != l {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, l, l.String(), back, err)
		}
	})
}
