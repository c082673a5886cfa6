package sqldb

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// WritePositions remembers, per player, the primary's WAL position after
// their last write, for read-your-writes over a read replica: their
// lag-tolerant reads go to the replica only once it has replayed past that
// position (LagTolerantAfter), to the primary before. In memory it holds
// for one replica of the server; with Redis (NewRedisWritePositions) for
// all of them, so a player whose bet landed on one replica and whose read
// lands on another still sees it. A position is kept for keep after the
// write: a replica further behind than that may serve the player a read
// older than their write.
type WritePositions struct {
	position func(context.Context) (LSN, error)
	keep     time.Duration
	rdb      redis.UniversalClient // nil: this process only
	prefix   string
	log      *slog.Logger

	mu   sync.Mutex
	last map[int64]writeAt // this process's own records
	now  func() time.Time
}

// writeAt is a player's highest known position and when it was last
// raised, and when a write of theirs last had no known position.
type writeAt struct {
	lsn       LSN
	at        time.Time
	unknownAt time.Time
}

// UnknownHold is how long a write whose position the primary did not give
// (a failover, a partition) keeps its player's reads on the primary. It
// is not extended by the player's later writes, whose known positions
// cover it once asked after it (a position is asked after the mutation
// answered).
const UnknownHold = 10 * time.Second

// NewWritePositions returns the in-process set; position is the primary's
// WAL position now (DB.WALPosition).
func NewWritePositions(position func(context.Context) (LSN, error), keep time.Duration, log *slog.Logger) *WritePositions {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &WritePositions{position: position, keep: keep, log: log, last: map[int64]writeAt{}, now: time.Now}
}

// NewRedisWritePositions returns the set shared through Redis: per
// writer, prefix+"wal:<id>" holds the highest position recorded by any
// replica, expiring keep after the last write, and prefix+"walx:<id>"
// marks a write of unknown position for UnknownHold.
func NewRedisWritePositions(rdb redis.UniversalClient, prefix string, position func(context.Context) (LSN, error), keep time.Duration, log *slog.Logger) *WritePositions {
	w := NewWritePositions(position, keep, log)
	w.rdb, w.prefix = rdb, prefix
	return w
}

// raiseScript stores ARGV[1] unless the key holds a later position (fixed-
// width hexadecimal compares as the numbers do), and restarts the expiry.
var raiseScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`)

// Wrote records that userID's writes so far are done: it asks the primary
// for its WAL position and keeps the highest seen for the player. When the
// primary does not answer, the player's reads stay on the primary for
// UnknownHold (After answers UnknownLSN).
func (w *WritePositions) Wrote(ctx context.Context, userID int64) {
	// A primary that does not answer within a second (a failover) must not
	// hold the mutation's answer longer: the player then reads on it.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	lsn, err := w.position(pctx)
	if err != nil {
		w.log.Warn("read-your-writes: no WAL position after a write; the player reads on the primary", "err", err)
		lsn = UnknownLSN
	}
	if lsn == NoLSN {
		return // no replication (SQLite)
	}
	now := w.now()
	w.mu.Lock()
	rec := w.last[userID]
	switch {
	case lsn == UnknownLSN:
		rec.unknownAt = now
	case rec.at.IsZero() || now.Sub(rec.at) >= w.keep || rec.lsn < lsn:
		rec.lsn, rec.at = lsn, now
	default:
		rec.at = now
	}
	w.last[userID] = rec
	if len(w.last) > 100000 {
		w.pruneLocked(now)
	}
	w.mu.Unlock()
	if w.rdb == nil {
		return
	}
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer rcancel()
	if lsn == UnknownLSN {
		err = w.rdb.Set(rctx, w.key("walx:", userID), "1", min(UnknownHold, w.keep)).Err()
	} else {
		err = raiseScript.Run(rctx, w.rdb, []string{w.key("wal:", userID)}, fmt.Sprintf("%016x", uint64(lsn)), w.keep.Milliseconds()).Err()
	}
	if err != nil {
		w.log.Warn("read-your-writes: could not record a write position in redis", "err", err)
	}
}

// After is the WAL position userID's reads must see: NoLSN when they wrote
// nothing within keep. ok is false when Redis does not answer: the read
// then goes to the primary, which is always fresh.
func (w *WritePositions) After(ctx context.Context, userID int64) (lsn LSN, ok bool) {
	now := w.now()
	w.mu.Lock()
	rec, found := w.last[userID]
	w.mu.Unlock()
	if found && !rec.unknownAt.IsZero() && now.Sub(rec.unknownAt) < min(UnknownHold, w.keep) {
		return UnknownLSN, true
	}
	if found && now.Sub(rec.at) < w.keep {
		lsn = rec.lsn
	}
	if w.rdb == nil {
		return lsn, true
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	vals, err := w.rdb.MGet(ctx, w.key("wal:", userID), w.key("walx:", userID)).Result()
	if err != nil || len(vals) != 2 {
		return UnknownLSN, false
	}
	if vals[1] != nil {
		return UnknownLSN, true
	}
	if vals[0] == nil {
		return lsn, true
	}
	s, _ := vals[0].(string)
	shared, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		return UnknownLSN, false
	}
	return max(lsn, LSN(shared)), true
}

// ReadAfter is ctx marked for userID's lag-tolerant reads
// (LagTolerantAfter their last write position); ok is false when the
// position is not known (the reads then stay on the primary).
func (w *WritePositions) ReadAfter(ctx context.Context, userID int64) (context.Context, bool) {
	lsn, ok := w.After(ctx, userID)
	if !ok {
		return ctx, false
	}
	return LagTolerantAfter(ctx, lsn), true
}

func (w *WritePositions) key(kind string, userID int64) string {
	return w.prefix + kind + strconv.FormatInt(userID, 10)
}

func (w *WritePositions) pruneLocked(now time.Time) {
	for id, rec := range w.last {
		if now.Sub(rec.at) >= w.keep && now.Sub(rec.unknownAt) >= UnknownHold {
			delete(w.last, id)
		}
	}
}
