package auth

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// Access tokens live up to 15 minutes, but a revoked session, a role
// change or a self-exclusion must reach them within seconds, on every
// replica. Each user has a token epoch, a counter kept with the user; every
// access token carries the epoch it was issued at, and a token older than
// its user's epoch is refused. Revoke bumps the epoch in the database and
// tells every replica through the Notifier (Redis pub/sub, or nothing more
// when embedded); each replica keeps the epochs it has seen in a small cache
// whose entries also expire after EpochCacheTTL, so a lost message delays a
// revocation by seconds at worst.

// EpochStore keeps the users' token epochs.
type EpochStore interface {
	// TokenEpoch is the user's current epoch (NotFound for no such user).
	TokenEpoch(ctx context.Context, userID int64) (int64, error)
	// BumpTokenEpoch raises the user's epoch by one and returns it.
	BumpTokenEpoch(ctx context.Context, userID int64) (int64, error)
}

// EpochNotifier tells the other replicas that a user's epoch rose, and why.
type EpochNotifier interface {
	PublishEpoch(ctx context.Context, userID, epoch int64, cause Cause) error
}

// Cause says why a user's tokens were revoked, so that the connections
// they hold open can be told how to go on.
type Cause string

const (
	// CauseSession: the session ended (logout, a reused refresh token).
	CauseSession Cause = "session"
	// CauseRights: the user's rights changed (a role change, a time-out or
	// a self-exclusion); a refreshed token carries the new ones.
	CauseRights Cause = "rights"
	// CauseDisabled: an admin disabled the account; it cannot sign in again
	// until enabled.
	CauseDisabled Cause = "disabled"
)

// EpochCacheTTL bounds how long a replica trusts an epoch it has not heard
// about: the worst case of a revocation whose message was lost.
const EpochCacheTTL = 5 * time.Second

// Epochs checks access tokens against their users' epochs. Safe for
// concurrent use.
type Epochs struct {
	store  EpochStore
	notify EpochNotifier
	ttl    time.Duration
	now    func() time.Time

	// live says whether revocations reach this replica as they happen (the
	// invalidation channel is up); nil means always. While it is not, the
	// cache proves nothing and every check reads the store.
	live func() bool

	mu    sync.Mutex
	cache map[int64]epochEntry
}

type epochEntry struct {
	epoch int64
	until time.Time
}

// NewEpochs returns a checker on store; notify may be nil (one replica),
// ttl 0 means EpochCacheTTL, now nil means time.Now.
func NewEpochs(store EpochStore, notify EpochNotifier, ttl time.Duration, now func() time.Time) *Epochs {
	if ttl <= 0 {
		ttl = EpochCacheTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Epochs{store: store, notify: notify, ttl: ttl, now: now, cache: map[int64]epochEntry{}}
}

// SetLive makes the cache trusted only while live answers true: a replica
// cut from the invalidation channel would otherwise honour a revoked token
// until its entry expired. Call it before the checker is shared.
func (e *Epochs) SetLive(live func() bool) { e.live = live }

// maxCachedEpochs bounds the cache; past it, it is emptied (every entry is
// cheap to reload).
const maxCachedEpochs = 100_000

// Current is the user's epoch as this replica knows it (cached up to ttl).
func (e *Epochs) Current(ctx context.Context, userID int64) (int64, error) {
	if e.live != nil && !e.live() {
		return e.Fresh(ctx, userID)
	}
	now := e.now()
	e.mu.Lock()
	ent, ok := e.cache[userID]
	e.mu.Unlock()
	if ok && now.Before(ent.until) {
		return ent.epoch, nil
	}
	return e.Fresh(ctx, userID)
}

// Fresh reads the user's epoch from the store (for issuing a token) and
// caches it.
func (e *Epochs) Fresh(ctx context.Context, userID int64) (int64, error) {
	epoch, err := e.store.TokenEpoch(ctx, userID)
	if err != nil {
		return 0, err
	}
	e.Observe(userID, epoch)
	return epoch, nil
}

// Observe records that the user's epoch is at least epoch (a message from
// another replica, or a fresh read); it never lowers a cached epoch.
func (e *Epochs) Observe(userID, epoch int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.cache) >= maxCachedEpochs {
		clear(e.cache)
	}
	ent := e.cache[userID]
	ent.epoch = max(epoch, ent.epoch) // epochs only rise
	ent.until = e.now().Add(e.ttl)
	e.cache[userID] = ent
}

// Check refuses claims issued before their user's current epoch:
// Unauthenticated with reason TOKEN_REVOKED (the client refreshes, or signs
// in again when its session was the one revoked).
func (e *Epochs) Check(ctx context.Context, c Claims) error {
	cur, err := e.Current(ctx, c.UserID)
	if errs.Is(err, errs.NotFound) {
		return &errs.Error{Code: errs.Unauthenticated, Reason: ReasonTokenRevoked, Message: "this account no longer exists"}
	}
	if err != nil {
		return err
	}
	if c.Epoch < cur {
		return errs.R(errs.Unauthenticated, ReasonTokenRevoked, "your session was changed; refresh your token or sign in again")
	}
	return nil
}

// Revoke ends every access token the user holds because a session ended
// (RevokeFor with CauseSession).
func (e *Epochs) Revoke(ctx context.Context, userID int64) error {
	return e.RevokeFor(ctx, userID, CauseSession)
}

// RevokeRights ends every access token the user holds because their rights
// changed (RevokeFor with CauseRights).
func (e *Epochs) RevokeRights(ctx context.Context, userID int64) error {
	return e.RevokeFor(ctx, userID, CauseRights)
}

// RevokeFor ends every access token the user holds: the epoch rises in the
// store, in this replica at once, and in the others when the notifier's
// message arrives (or their cache entry expires).
func (e *Epochs) RevokeFor(ctx context.Context, userID int64, cause Cause) error {
	epoch, err := e.store.BumpTokenEpoch(ctx, userID)
	if err != nil {
		return err
	}
	e.Observe(userID, epoch)
	if e.notify != nil {
		// A lost message is covered by the cache TTL; the revocation itself
		// is stored, so it does not fail for this.
		_ = e.notify.PublishEpoch(ctx, userID, epoch, cause)
	}
	return nil
}

// EpochTopic is the broker topic on which replicas tell each other of
// raised epochs.
const EpochTopic = "auth:epochs"

// EncodeEpoch is the message of EpochTopic: "<user id>:<epoch>" for
// CauseSession, "<user id>:<epoch>:<cause>" for CauseRights and
// CauseDisabled.
func EncodeEpoch(userID, epoch int64, cause Cause) []byte {
	s := strconv.FormatInt(userID, 10) + ":" + strconv.FormatInt(epoch, 10)
	if cause == CauseRights || cause == CauseDisabled {
		s += ":" + string(cause)
	}
	return []byte(s)
}

// DecodeEpoch reads a message made by EncodeEpoch; ok is false for anything
// else.
func DecodeEpoch(b []byte) (userID, epoch int64, cause Cause, ok bool) {
	u, rest, found := strings.Cut(string(b), ":")
	if !found {
		return 0, 0, "", false
	}
	e, c, hasCause := strings.Cut(rest, ":")
	cause = CauseSession
	if hasCause {
		if Cause(c) != CauseRights && Cause(c) != CauseDisabled {
			return 0, 0, "", false
		}
		cause = Cause(c)
	}
	userID, err1 := strconv.ParseInt(u, 10, 64)
	epoch, err2 := strconv.ParseInt(e, 10, 64)
	return userID, epoch, cause, err1 == nil && err2 == nil && userID > 0 && epoch >= 0
}
