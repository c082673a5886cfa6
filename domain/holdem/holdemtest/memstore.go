package holdemtest

import (
	"cmp"
	"context"
	"github.com/pokertote/pokertote/domain/paging"
	"slices"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
)

// MemStore is an in-memory holdem.Store over a ledgertest.MemStore: the embedded twin
// of the database store, used by fast tests. One mutex serialises every
// transaction; a transaction's changes are kept aside and applied only when
// it commits, together with its ledger posts. It is safe for concurrent use.
type MemStore struct {
	mu     sync.Mutex
	ledger *ledgertest.MemStore
	hands  map[int64]holdem.Record
	seeds  map[ids.UserID]holdem.PendingSeed
	nextID int64
}

var _ holdem.Store = (*MemStore)(nil)

// NewMemStore returns an empty store whose transactions post to l.
func NewMemStore(l *ledgertest.MemStore) *MemStore {
	return &MemStore{ledger: l, hands: make(map[int64]holdem.Record), seeds: make(map[ids.UserID]holdem.PendingSeed), nextID: 1}
}

// Within implements holdem.Store.
func (s *MemStore) Within(ctx context.Context, fn func(ctx context.Context, tx holdem.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ledger.InTx(ctx, func(ctx context.Context, p ledger.Poster) error {
		tx := &memTx{s: s, poster: p, hands: make(map[int64]holdem.Record), taken: make(map[ids.UserID]bool), nextID: s.nextID}
		if err := fn(ctx, tx); err != nil {
			return err
		}
		for id, r := range tx.hands {
			s.hands[id] = r
		}
		for id := range tx.taken {
			delete(s.seeds, id)
		}
		s.nextID = tx.nextID
		return nil
	})
}

// Hand implements holdem.Store.
func (s *MemStore) Hand(_ context.Context, id int64) (holdem.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.hands[id]
	if !ok {
		return holdem.Record{}, holdem.HandNotFound()
	}
	return r.Clone(), nil
}

// HandByStartKey implements holdem.Store.
func (s *MemStore) HandByStartKey(_ context.Context, userID ids.UserID, key string) (holdem.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byKeyLocked(nil, userID, key)
}

func (s *MemStore) byKeyLocked(tx *memTx, userID ids.UserID, key string) (holdem.Record, error) {
	find := func(m map[int64]holdem.Record) (holdem.Record, bool) {
		for _, r := range m {
			if r.UserID == userID && r.StartKey == key {
				return r.Clone(), true
			}
		}
		return holdem.Record{}, false
	}
	if tx != nil {
		if r, ok := find(tx.hands); ok {
			return r, nil
		}
	}
	if r, ok := find(s.hands); ok {
		return r, nil
	}
	return holdem.Record{}, holdem.HandNotFound()
}

// Hands implements holdem.Store.
func (s *MemStore) Hands(_ context.Context, userID ids.UserID, rg paging.IDRange, limit int) ([]holdem.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []holdem.Record
	for _, r := range s.hands {
		if r.UserID == userID && rg.Holds(r.ID) {
			out = append(out, r.Clone())
		}
	}
	slices.SortFunc(out, func(a, b holdem.Record) int { return cmp.Compare(b.ID, a.ID) })
	if rg.Ascending {
		slices.Reverse(out)
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Due implements holdem.Store.
func (s *MemStore) Due(_ context.Context, now time.Time, limit int) ([]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []holdem.Record
	for _, r := range s.hands {
		if r.Phase == holdem.Deciding && !r.Deadline.After(now) {
			due = append(due, r)
		}
	}
	slices.SortFunc(due, func(a, b holdem.Record) int { return a.Deadline.Compare(b.Deadline) })
	ids := make([]int64, 0, min(len(due), limit))
	for _, r := range due[:min(len(due), limit)] {
		ids = append(ids, r.ID)
	}
	return ids, nil
}

// PendingSeed implements holdem.Store.
func (s *MemStore) PendingSeed(_ context.Context, userID ids.UserID) (holdem.PendingSeed, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.seeds[userID]
	if !ok {
		return holdem.PendingSeed{}, errs.R(errs.NotFound, holdem.ReasonNoPendingSeed, "no pending shuffle")
	}
	return p, nil
}

// AddPendingSeed implements holdem.Store.
func (s *MemStore) AddPendingSeed(_ context.Context, p holdem.PendingSeed) (holdem.PendingSeed, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.seeds[p.UserID]; ok {
		return old, nil
	}
	s.seeds[p.UserID] = p
	return p, nil
}

// memTx is the holdem.Tx of one MemStore transaction; s.mu is held throughout.
type memTx struct {
	s      *MemStore
	poster ledger.Poster
	hands  map[int64]holdem.Record // written in this transaction
	taken  map[ids.UserID]bool     // users whose pending seed was taken
	nextID int64
}

func (tx *memTx) Ledger() ledger.Poster { return tx.poster }

func (tx *memTx) HandByStartKey(_ context.Context, userID ids.UserID, key string) (holdem.Record, error) {
	return tx.s.byKeyLocked(tx, userID, key)
}

func (tx *memTx) InsertHand(_ context.Context, r *holdem.Record) error {
	if _, err := tx.s.byKeyLocked(tx, r.UserID, r.StartKey); err == nil {
		return errs.R(errs.Conflict, holdem.ReasonAlreadyExists, "a hand with this idempotency key already exists")
	}
	r.ID, r.Version = tx.nextID, 1
	tx.nextID++
	tx.hands[r.ID] = r.Clone()
	return nil
}

func (tx *memTx) LockHand(_ context.Context, id int64) (holdem.Record, error) {
	if r, ok := tx.hands[id]; ok {
		return r.Clone(), nil
	}
	if r, ok := tx.s.hands[id]; ok {
		return r.Clone(), nil
	}
	return holdem.Record{}, holdem.HandNotFound()
}

func (tx *memTx) UpdateHand(ctx context.Context, r *holdem.Record) error {
	cur, err := tx.LockHand(ctx, r.ID)
	if err != nil {
		return err
	}
	if cur.Version != r.Version {
		return errs.R(errs.Conflict, holdem.ReasonHandChanged, "the hand changed meanwhile; try again")
	}
	r.Version++
	// As the database does, only what play changes is stored; what the
	// hand was started with (user, config, stakes, seed, cut, key) stays.
	next := r.Clone()
	cur.Version, cur.Phase, cur.Deadline, cur.Decisions = next.Version, next.Phase, next.Deadline, next.Decisions
	cur.ExpiredAt, cur.Staked, cur.Returned, cur.Settlement = next.ExpiredAt, next.Staked, next.Returned, next.Settlement
	cur.UpdatedAt, cur.SettledAt = next.UpdatedAt, next.SettledAt
	tx.hands[r.ID] = cur
	return nil
}

func (tx *memTx) TakePendingSeed(_ context.Context, userID ids.UserID, c [cards.SeedSize]byte) (holdem.PendingSeed, error) {
	p, ok := tx.s.seeds[userID]
	if !ok || tx.taken[userID] || p.Commitment != c {
		return holdem.PendingSeed{}, errs.R(errs.NotFound, holdem.ReasonNoPendingSeed, "no such pending shuffle")
	}
	tx.taken[userID] = true
	return p, nil
}
