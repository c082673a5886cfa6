package auth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// DefaultRefreshTTL is how long an unused refresh token lives. Each rotation
// issues a token with a fresh TTL, so an active session slides forward.
const DefaultRefreshTTL = 30 * 24 * time.Hour

// refreshTokenBytes is the entropy of a refresh token; its text form is 43
// characters of unpadded base64url.
const refreshTokenBytes = 32

// TokenHash is the SHA-256 of a refresh token's text: all the store keeps.
type TokenHash [32]byte

// HashRefreshToken checks that token looks like a refresh token (43
// characters of unpadded base64url encoding 32 bytes) and returns its hash.
// Anything else is an Unauthenticated error with reason INVALID_TOKEN.
func HashRefreshToken(token string) (TokenHash, error) {
	if len(token) != base64.RawURLEncoding.EncodedLen(refreshTokenBytes) {
		return TokenHash{}, invalidToken(nil)
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(b) != refreshTokenBytes {
		return TokenHash{}, invalidToken(err)
	}
	return sha256.Sum256([]byte(token)), nil
}

// RefreshRecord is a refresh token as stored.
type RefreshRecord struct {
	Hash TokenHash
	// FamilyID groups the tokens descended from one login.
	FamilyID  string
	UserID    int64
	IssuedAt  time.Time
	ExpiresAt time.Time
	// UsedAt is when the token was exchanged; zero while unused.
	UsedAt time.Time
	// Revoked reports that the token's family was revoked; the store
	// computes it from the family when reading.
	Revoked bool
}

// RefreshStore keeps refresh tokens. Implementations must be safe for
// concurrent use.
type RefreshStore interface {
	// Create stores a new, unused token. Its Revoked field is ignored.
	Create(ctx context.Context, r RefreshRecord) error
	// Get finds a token by hash (errs.NotFound when unknown), with Revoked
	// set when its family has been revoked.
	Get(ctx context.Context, h TokenHash) (RefreshRecord, error)
	// MarkUsed sets UsedAt if and only if the token is still unused, and
	// reports whether this call did it. It must be atomic (for SQL: UPDATE
	// ... SET used_at = $2 WHERE hash = $1 AND used_at IS NULL, then check
	// the row count), so that of two concurrent exchanges of one token
	// exactly one sees true. An unknown hash is errs.NotFound.
	MarkUsed(ctx context.Context, h TokenHash, at time.Time) (bool, error)
	// RevokeFamily revokes a family for good: every token in it, including
	// tokens created in it later, reads as Revoked (for SQL: a row in a
	// revoked-families table that Get joins). Revoking twice is fine.
	RevokeFamily(ctx context.Context, familyID string, at time.Time) error
	// RevokeUser revokes every family the user has a token in, as
	// RevokeFamily does each (a disabled account's sessions end for good).
	RevokeUser(ctx context.Context, userID int64, at time.Time) error
}

// RefreshConfig configures refresh tokens. Zero fields take the defaults.
type RefreshConfig struct {
	TTL time.Duration
	Now func() time.Time
}

// RefreshTokens issues, rotates and revokes refresh tokens. It is safe for
// concurrent use.
type RefreshTokens struct {
	store    RefreshStore
	ttl      time.Duration
	now      func() time.Time
	onRevoke func(ctx context.Context, userID int64) error
}

// NewRefreshTokens returns a RefreshTokens on store.
func NewRefreshTokens(store RefreshStore, cfg RefreshConfig) *RefreshTokens {
	if cfg.TTL <= 0 {
		cfg.TTL = DefaultRefreshTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &RefreshTokens{store: store, ttl: cfg.TTL, now: cfg.Now}
}

func sessionEnded(reason string) error {
	return errs.R(errs.Unauthenticated, reason, "your session has ended; please sign in again")
}

// Issue starts a new family for a user who has just signed in and returns
// its first token (to hand to the client once) and its record.
func (r *RefreshTokens) Issue(ctx context.Context, userID int64) (string, RefreshRecord, error) {
	return r.create(ctx, userID, randomToken(16))
}

func (r *RefreshTokens) create(ctx context.Context, userID int64, family string) (string, RefreshRecord, error) {
	token := randomToken(refreshTokenBytes)
	now := r.now()
	rec := RefreshRecord{
		Hash:      sha256.Sum256([]byte(token)),
		FamilyID:  family,
		UserID:    userID,
		IssuedAt:  now,
		ExpiresAt: now.Add(r.ttl),
	}
	if err := r.store.Create(ctx, rec); err != nil {
		return "", RefreshRecord{}, err
	}
	return token, rec, nil
}

// Rotate exchanges a refresh token for a new one in the same family and
// returns the new token and its record (whose UserID says whom to issue an
// access token for; the caller should also check that the user still
// exists). Errors, all Unauthenticated: INVALID_TOKEN (malformed or
// unknown), REFRESH_REVOKED, REFRESH_EXPIRED, and REFRESH_REUSED when the
// token had already been exchanged — which revokes the whole family. With
// REFRESH_REVOKED the token's record is returned too, so that the caller
// can say why (an account disabled by an admin has every family revoked).
//
// Two concurrent exchanges of one token are indistinguishable from theft:
// exactly one gets a new token, the other gets REFRESH_REUSED and revokes the
// family, so the winner's new token is dead too and the user signs in again.
func (r *RefreshTokens) Rotate(ctx context.Context, token string) (string, RefreshRecord, error) {
	h, err := HashRefreshToken(token)
	if err != nil {
		return "", RefreshRecord{}, err
	}
	rec, err := r.store.Get(ctx, h)
	if errs.Is(err, errs.NotFound) {
		return "", RefreshRecord{}, invalidToken(nil)
	}
	if err != nil {
		return "", RefreshRecord{}, err
	}
	now := r.now()
	switch {
	case rec.Revoked:
		return "", rec, sessionEnded(ReasonRefreshRevoked)
	case !rec.UsedAt.IsZero():
		return "", RefreshRecord{}, r.reused(ctx, rec, now)
	case !now.Before(rec.ExpiresAt):
		return "", RefreshRecord{}, sessionEnded(ReasonRefreshExpired)
	}
	won, err := r.store.MarkUsed(ctx, h, now)
	if err != nil {
		return "", RefreshRecord{}, err
	}
	if !won {
		return "", RefreshRecord{}, r.reused(ctx, rec, now)
	}
	return r.create(ctx, rec.UserID, rec.FamilyID)
}

func (r *RefreshTokens) reused(ctx context.Context, rec RefreshRecord, now time.Time) error {
	if err := r.revokeFamily(ctx, rec, now); err != nil {
		return err
	}
	return sessionEnded(ReasonRefreshReused)
}

// OnRevoke sets a function called after a family is revoked (logout, or
// reuse detected), with the family's user: the server revokes that user's
// access tokens there (Epochs.Revoke). Set it before use.
func (r *RefreshTokens) OnRevoke(fn func(ctx context.Context, userID int64) error) { r.onRevoke = fn }

func (r *RefreshTokens) revokeFamily(ctx context.Context, rec RefreshRecord, now time.Time) error {
	if err := r.store.RevokeFamily(ctx, rec.FamilyID, now); err != nil {
		return err
	}
	if r.onRevoke != nil {
		return r.onRevoke(ctx, rec.UserID)
	}
	return nil
}

// RevokeUser ends every session of the user (an admin disabled the
// account): each family they hold a token in is revoked for good. The
// caller revokes their access tokens with the cause it knows (onRevoke is
// not called).
func (r *RefreshTokens) RevokeUser(ctx context.Context, userID int64) error {
	return r.store.RevokeUser(ctx, userID, r.now())
}

// Revoke ends the session a refresh token belongs to (logout): its whole
// family is revoked, whatever state the token is in. A malformed or unknown
// token is Unauthenticated INVALID_TOKEN.
func (r *RefreshTokens) Revoke(ctx context.Context, token string) error {
	h, err := HashRefreshToken(token)
	if err != nil {
		return err
	}
	rec, err := r.store.Get(ctx, h)
	if errs.Is(err, errs.NotFound) {
		return invalidToken(nil)
	}
	if err != nil {
		return err
	}
	return r.revokeFamily(ctx, rec, r.now())
}
