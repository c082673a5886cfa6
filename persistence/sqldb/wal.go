package sqldb

// WAL positions for read-your-writes over a read replica: after
// a player's mutation the server asks the primary how far its WAL reaches
// (WALPosition); that position is at or past the end of every commit the
// mutation made. A later read of that player may use a replica only once
// the replica has replayed past it (replica.go).

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// LSN is a position in Postgres's write-ahead log (pg_lsn).
type LSN uint64

// NoLSN is no position at all: nothing to wait for.
const NoLSN LSN = 0

// UnknownLSN stands for a position that could not be learnt: no replica
// can be shown to have passed it, so the read goes to the primary.
const UnknownLSN LSN = math.MaxUint64

// ParseLSN reads Postgres's text form of a pg_lsn, "16/B374D848": two
// hexadecimal numbers of up to 32 bits each, the high and low halves.
func ParseLSN(s string) (LSN, error) {
	hi, lo, ok := strings.Cut(s, "/")
	if !ok || hi == "" || lo == "" || len(hi) > 8 || len(lo) > 8 {
		return 0, fmt.Errorf("persistence: %q is not a WAL position (want XXXXXXXX/XXXXXXXX)", s)
	}
	h, err := strconv.ParseUint(hi, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("persistence: %q is not a WAL position: %w", s, err)
	}
	l, err := strconv.ParseUint(lo, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("persistence: %q is not a WAL position: %w", s, err)
	}
	return LSN(h<<32 | l), nil
}

// String is Postgres's text form (ParseLSN reads it back).
func (l LSN) String() string {
	return strconv.FormatUint(uint64(l)>>32, 16) + "/" + strconv.FormatUint(uint64(l)&0xFFFFFFFF, 16)
}

// walRound is one asking of the primary's WAL position, shared by every
// caller that joined it.
type walRound struct {
	done chan struct{}
	lsn  LSN
	err  error
}

// walRounds coalesces WALPosition calls: at most one query is in flight,
// and a caller that arrives while one runs joins the next one, which
// starts after it (a query sent before the caller's commit might not
// cover it). At a thousand mutations a second that is one query per round
// trip, not one per mutation.
type walRounds struct {
	mu      sync.Mutex
	running bool
	next    *walRound
}

// WALPosition reports the primary's current WAL insert position, which is
// at or past the end of every transaction committed before the call. On
// SQLite (no replicas) it is NoLSN.
func (db *DB) WALPosition(ctx context.Context) (LSN, error) {
	if db.dialect != Postgres {
		return NoLSN, nil
	}
	w := &db.wal
	w.mu.Lock()
	var r *walRound
	if !w.running {
		w.running = true
		r = &walRound{done: make(chan struct{})}
		go db.runWALRound(r)
	} else {
		if w.next == nil {
			w.next = &walRound{done: make(chan struct{})}
		}
		r = w.next
	}
	w.mu.Unlock()
	select {
	case <-r.done:
		return r.lsn, r.err
	case <-ctx.Done():
		return UnknownLSN, ctx.Err()
	}
}

// runWALRound asks the primary for r, then runs the round callers joined
// meanwhile, until none is waiting.
func (db *DB) runWALRound(r *walRound) {
	for r != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		var s string
		r.err = db.sql.QueryRowContext(ctx, "SELECT pg_current_wal_insert_lsn()::text").Scan(&s)
		cancel()
		if r.err == nil {
			r.lsn, r.err = ParseLSN(s)
		}
		if r.err != nil {
			r.lsn, r.err = UnknownLSN, errors.Join(errors.New("persistence: the primary's WAL position"), r.err)
		}
		close(r.done)
		db.wal.mu.Lock()
		r, db.wal.next = db.wal.next, nil
		if r == nil {
			db.wal.running = false
		}
		db.wal.mu.Unlock()
	}
}
