// Package apikey is affiliate access by API key: keys made and revoked by
// admins for partners' servers, shown once and stored only as a hash, each
// limited to a number of requests per minute.
//
// A key reads "ptk_<id>_<secret>": id is a public 12-hex-digit name (it
// appears in logs, metrics and the admin list); secret is 32 random bytes in
// unpadded base64url. The store keeps SHA-256(secret): the secret is 256
// random bits, so a fast hash leaves nothing to guess, and lookups by id
// make the comparison a single constant-time check.
package apikey

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
)

// Prefix starts every key, so that a leaked key is recognisable by secret
// scanners and cannot be confused with an access token.
const Prefix = "ptk_"

// Limits of a key's settings.
const (
	DefaultPerMinute = 600
	MaxPerMinute     = 60000
	maxNameRunes     = 100
	idBytes          = 6
	secretBytes      = 32
)

// Key is an API key as stored: everything but its secret.
type Key struct {
	ID        string // public id, 12 hex digits
	Name      string // whose key it is, e.g. the affiliate's company
	PerMinute int    // requests allowed per minute
	CreatedBy int64  // admin user id
	CreatedAt time.Time
	RevokedAt *time.Time
}

// Active reports whether the key may still be used.
func (k Key) Active() bool { return k.RevokedAt == nil }

// Store keeps keys. Create and Revoke also append their audit entry, in the
// same transaction.
type Store interface {
	// CreateKey stores k with the hash of its secret.
	CreateKey(ctx context.Context, k Key, hash []byte) (Key, error)
	// KeyByID returns a key and its secret's hash; NotFound when unknown.
	KeyByID(ctx context.Context, id string) (Key, []byte, error)
	// RevokeKey marks the key revoked at `at` by admin `by`; revoking an
	// already revoked key returns it unchanged. NotFound when unknown.
	RevokeKey(ctx context.Context, id string, by int64, at time.Time) (Key, error)
	// ListKeys lists every key, newest first.
	ListKeys(ctx context.Context) ([]Key, error)
}

// Service makes, checks and revokes keys.
type Service struct {
	store Store
	now   func() time.Time
}

// NewService returns a Service over store; now is the clock (nil: time.Now).
func NewService(store Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, now: now}
}

// Create makes a key for name allowing perMinute requests a minute (0 takes
// DefaultPerMinute) and returns it with the full key string, which is shown
// once and never again.
func (s *Service) Create(ctx context.Context, adminID int64, name string, perMinute int) (Key, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxNameRunes {
		return Key{}, "", errs.R(errs.Invalid, ReasonInvalidName, "the key's name must be 1 to %d characters", maxNameRunes)
	}
	if perMinute == 0 {
		perMinute = DefaultPerMinute
	}
	if perMinute < 1 || perMinute > MaxPerMinute {
		return Key{}, "", errs.R(errs.Invalid, ReasonInvalidRate, "requests per minute must be from 1 to %d", MaxPerMinute)
	}
	var idb [idBytes]byte
	var secret [secretBytes]byte
	if _, err := rand.Read(idb[:]); err != nil {
		return Key{}, "", errs.Wrap(err, "no randomness for a key")
	}
	if _, err := rand.Read(secret[:]); err != nil {
		return Key{}, "", errs.Wrap(err, "no randomness for a key")
	}
	k := Key{ID: hex.EncodeToString(idb[:]), Name: name, PerMinute: perMinute, CreatedBy: adminID, CreatedAt: s.now().UTC()}
	enc := base64.RawURLEncoding.EncodeToString(secret[:])
	stored, err := s.store.CreateKey(ctx, k, Hash(enc))
	if err != nil {
		return Key{}, "", err
	}
	return stored, Prefix + k.ID + "_" + enc, nil
}

// Authenticate returns the active key a raw key string names, or
// Unauthenticated (INVALID_API_KEY for a malformed, unknown or wrong key,
// API_KEY_REVOKED for a revoked one).
func (s *Service) Authenticate(ctx context.Context, raw string) (Key, error) {
	id, secret, ok := Parse(raw)
	if !ok {
		return Key{}, invalidKey()
	}
	k, hash, err := s.store.KeyByID(ctx, id)
	if errs.Is(err, errs.NotFound) {
		return Key{}, invalidKey()
	}
	if err != nil {
		return Key{}, err
	}
	if subtle.ConstantTimeCompare(Hash(secret), hash) != 1 {
		return Key{}, invalidKey()
	}
	if !k.Active() {
		return Key{}, errs.R(errs.Unauthenticated, ReasonRevoked, "this API key has been revoked")
	}
	return k, nil
}

// Revoke revokes a key at once (every replica checks the store on each
// request).
func (s *Service) Revoke(ctx context.Context, adminID int64, id string) (Key, error) {
	if !validID(id) {
		return Key{}, errs.R(errs.NotFound, ReasonNotFound, "API key not found")
	}
	return s.store.RevokeKey(ctx, id, adminID, s.now().UTC())
}

// List lists every key, newest first.
func (s *Service) List(ctx context.Context) ([]Key, error) { return s.store.ListKeys(ctx) }

// Parse splits "ptk_<id>_<secret>" into its id and secret, checking their
// shapes (and nothing else).
func Parse(raw string) (id, secret string, ok bool) {
	rest, ok := strings.CutPrefix(raw, Prefix)
	if !ok {
		return "", "", false
	}
	id, secret, ok = strings.Cut(rest, "_")
	if !ok || !validID(id) {
		return "", "", false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(secret)
	if err != nil || len(b) != secretBytes {
		return "", "", false
	}
	return id, secret, true
}

// Hash is what the store keeps of a secret.
func Hash(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

func validID(id string) bool {
	if len(id) != 2*idBytes {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func invalidKey() error {
	return errs.R(errs.Unauthenticated, ReasonInvalidKey, "the API key is not valid")
}

// String shows a key without its secret, for logs.
func (k Key) String() string { return fmt.Sprintf("apikey %s (%s)", k.ID, k.Name) }
