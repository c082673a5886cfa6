package authtest

import (
	"context"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
)

// MemRefreshStore is an in-memory auth.RefreshStore guarded by one mutex: the
// store of the embedded mode and of fast tests. It is safe for concurrent
// use; call Prune now and then to drop expired tokens.
type MemRefreshStore struct {
	mu      sync.Mutex
	records map[auth.TokenHash]auth.RefreshRecord
	revoked map[string]time.Time // family id → when
}

var _ auth.RefreshStore = (*MemRefreshStore)(nil)

// NewMemRefreshStore returns an empty store.
func NewMemRefreshStore() *MemRefreshStore {
	return &MemRefreshStore{records: make(map[auth.TokenHash]auth.RefreshRecord), revoked: make(map[string]time.Time)}
}

// Create implements auth.RefreshStore.
func (s *MemRefreshStore) Create(_ context.Context, r auth.RefreshRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.records[r.Hash]; dup {
		return errs.E(errs.Conflict, "refresh token already exists")
	}
	r.Revoked = false
	r.UsedAt = time.Time{} // a new token is unused, as the interface says
	s.records[r.Hash] = r
	return nil
}

// Get implements auth.RefreshStore.
func (s *MemRefreshStore) Get(_ context.Context, h auth.TokenHash) (auth.RefreshRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[h]
	if !ok {
		return auth.RefreshRecord{}, errs.E(errs.NotFound, "refresh token not found")
	}
	_, r.Revoked = s.revoked[r.FamilyID]
	return r, nil
}

// MarkUsed implements auth.RefreshStore.
func (s *MemRefreshStore) MarkUsed(_ context.Context, h auth.TokenHash, at time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.records[h]
	if !ok {
		return false, errs.E(errs.NotFound, "refresh token not found")
	}
	if !r.UsedAt.IsZero() {
		return false, nil
	}
	r.UsedAt = at
	s.records[h] = r
	return true, nil
}

// RevokeFamily implements auth.RefreshStore.
func (s *MemRefreshStore) RevokeFamily(_ context.Context, familyID string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, done := s.revoked[familyID]; !done {
		s.revoked[familyID] = at
	}
	return nil
}

// RevokeUser implements auth.RefreshStore.
func (s *MemRefreshStore) RevokeUser(_ context.Context, userID int64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.records {
		if _, done := s.revoked[r.FamilyID]; r.UserID == userID && !done {
			s.revoked[r.FamilyID] = at
		}
	}
	return nil
}

// Prune forgets tokens that expired before now, and the revocation of
// families that have no token left, so memory follows live sessions. It
// returns how many tokens it dropped.
func (s *MemRefreshStore) Prune(now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	live := make(map[string]bool)
	for h, r := range s.records {
		if r.ExpiresAt.Before(now) {
			delete(s.records, h)
			n++
			continue
		}
		live[r.FamilyID] = true
	}
	for f := range s.revoked {
		if !live[f] {
			delete(s.revoked, f)
		}
	}
	return n
}

// Len is the number of tokens held.
func (s *MemRefreshStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.records)
}

// MemEpochStore is the in-memory auth.EpochStore for the embedded twin and
// tests; unknown users are at epoch 0.
type MemEpochStore struct {
	mu     sync.Mutex
	epochs map[int64]int64
}

// NewMemEpochStore returns an empty store.
func NewMemEpochStore() *MemEpochStore { return &MemEpochStore{epochs: map[int64]int64{}} }

// TokenEpoch implements auth.EpochStore.
func (s *MemEpochStore) TokenEpoch(_ context.Context, userID int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epochs[userID], nil
}

// BumpTokenEpoch implements auth.EpochStore.
func (s *MemEpochStore) BumpTokenEpoch(_ context.Context, userID int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epochs[userID]++
	return s.epochs[userID], nil
}
