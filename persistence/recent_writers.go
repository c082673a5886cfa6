package persistence

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// RecentWriters remembers the players who changed something within a
// window, for read-your-writes over a read replica: their reads stay on the
// primary until the window has passed. In memory it holds for one replica
// of the server; with Redis (NewRedisRecentWriters) for all of them, so a
// player whose write landed on one replica and whose read lands on another
// still sees it.
type RecentWriters struct {
	window time.Duration
	rdb    redis.UniversalClient // nil: this process only
	prefix string
	log    *slog.Logger

	mu   sync.Mutex
	last map[int64]time.Time // when this process last recorded each writer
	sent map[int64]time.Time // when it last refreshed each writer's Redis key
	now  func() time.Time
}

// NewRecentWriters returns the in-process set with the given window.
func NewRecentWriters(window time.Duration) *RecentWriters {
	return &RecentWriters{window: window, last: map[int64]time.Time{}, sent: map[int64]time.Time{}, now: time.Now}
}

// NewRedisRecentWriters returns the set shared through Redis: one key per
// writer under prefix+"recent:", expiring with the window.
func NewRedisRecentWriters(rdb redis.UniversalClient, prefix string, window time.Duration, log *slog.Logger) *RecentWriters {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	w := NewRecentWriters(window)
	w.rdb, w.prefix, w.log = rdb, prefix+"recent:", log
	return w
}

// Wrote records that userID wrote now. Through Redis the key is refreshed
// at most twice a window per writer and process (a bet burst costs one
// SET), so the shared window ends between window/2 and window after the
// last write; Recent adds this process's own record on top.
func (w *RecentWriters) Wrote(ctx context.Context, userID int64) {
	now := w.now()
	w.mu.Lock()
	w.last[userID] = now
	if len(w.last) > 100000 {
		w.pruneLocked(now)
	}
	sent, fresh := w.sent[userID]
	fresh = fresh && now.Sub(sent) < w.window/2
	if w.rdb != nil && !fresh {
		w.sent[userID] = now
	}
	w.mu.Unlock()
	if w.rdb == nil || fresh {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := w.rdb.Set(ctx, w.key(userID), "1", w.window).Err(); err != nil {
		w.log.Warn("read-your-writes: could not record a writer in redis", "err", err)
	}
}

// Recent reports whether userID wrote within the window. When Redis does
// not answer it says yes: the read goes to the primary, which is always
// fresh.
func (w *RecentWriters) Recent(ctx context.Context, userID int64) bool {
	now := w.now()
	w.mu.Lock()
	at, ok := w.last[userID]
	w.mu.Unlock()
	if ok && now.Sub(at) < w.window {
		return true
	}
	if w.rdb == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	n, err := w.rdb.Exists(ctx, w.key(userID)).Result()
	if err != nil {
		return true
	}
	return n > 0
}

func (w *RecentWriters) key(userID int64) string { return w.prefix + strconv.FormatInt(userID, 10) }

func (w *RecentWriters) pruneLocked(now time.Time) {
	for id, at := range w.last {
		if now.Sub(at) >= w.window {
			delete(w.last, id)
			delete(w.sent, id)
		}
	}
}
