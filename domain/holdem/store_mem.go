package holdem

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
)

// MemStore is an in-memory Store over a ledger.MemStore: the embedded twin
// of the database store, used by fast tests. One mutex serialises every
// transaction; a transaction's changes are kept aside and applied only when
// it commits, together with its ledger posts. It is safe for concurrent use.
type MemStore struct {
	mu     sync.Mutex
	ledger *ledger.MemStore
	hands  map[int64]Record
	seeds  map[ids.UserID]PendingSeed
	nextID int64
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty store whose transactions post to l.
func NewMemStore(l *ledger.MemStore) *MemStore {
	return &MemStore{ledger: l, hands: make(map[int64]Record), seeds: make(map[ids.UserID]PendingSeed), nextID: 1}
}

// cloneRecord copies r so that no slice or pointer is shared with the store.
func cloneRecord(r Record) Record {
	r.Stakes = slices.Clone(r.Stakes)
	r.Decisions = slices.Clone(r.Decisions)
	if r.Settlement != nil {
		s := r.Settlement.clone()
		r.Settlement = &s
	}
	return r
}

// Within implements Store.
func (s *MemStore) Within(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ledger.InTx(ctx, func(ctx context.Context, p ledger.Poster) error {
		tx := &memTx{s: s, poster: p, hands: make(map[int64]Record), taken: make(map[ids.UserID]bool), nextID: s.nextID}
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

// Hand implements Store.
func (s *MemStore) Hand(_ context.Context, id int64) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.hands[id]
	if !ok {
		return Record{}, handNotFound()
	}
	return cloneRecord(r), nil
}

// HandByStartKey implements Store.
func (s *MemStore) HandByStartKey(_ context.Context, userID ids.UserID, key string) (Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byKeyLocked(nil, userID, key)
}

func (s *MemStore) byKeyLocked(tx *memTx, userID ids.UserID, key string) (Record, error) {
	find := func(m map[int64]Record) (Record, bool) {
		for _, r := range m {
			if r.UserID == userID && r.StartKey == key {
				return cloneRecord(r), true
			}
		}
		return Record{}, false
	}
	if tx != nil {
		if r, ok := find(tx.hands); ok {
			return r, nil
		}
	}
	if r, ok := find(s.hands); ok {
		return r, nil
	}
	return Record{}, handNotFound()
}

// Hands implements Store.
func (s *MemStore) Hands(_ context.Context, userID ids.UserID, beforeID int64, limit int) ([]Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Record
	for _, r := range s.hands {
		if r.UserID == userID && (beforeID <= 0 || r.ID < beforeID) {
			out = append(out, cloneRecord(r))
		}
	}
	slices.SortFunc(out, func(a, b Record) int { return cmp.Compare(b.ID, a.ID) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Due implements Store.
func (s *MemStore) Due(_ context.Context, now time.Time, limit int) ([]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []Record
	for _, r := range s.hands {
		if r.Phase == Deciding && !r.Deadline.After(now) {
			due = append(due, r)
		}
	}
	slices.SortFunc(due, func(a, b Record) int { return a.Deadline.Compare(b.Deadline) })
	ids := make([]int64, 0, min(len(due), limit))
	for _, r := range due[:min(len(due), limit)] {
		ids = append(ids, r.ID)
	}
	return ids, nil
}

// PendingSeed implements Store.
func (s *MemStore) PendingSeed(_ context.Context, userID ids.UserID) (PendingSeed, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.seeds[userID]
	if !ok {
		return PendingSeed{}, errs.R(errs.NotFound, ReasonNoPendingSeed, "no pending shuffle")
	}
	return p, nil
}

// AddPendingSeed implements Store.
func (s *MemStore) AddPendingSeed(_ context.Context, p PendingSeed) (PendingSeed, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.seeds[p.UserID]; ok {
		return old, nil
	}
	s.seeds[p.UserID] = p
	return p, nil
}

// memTx is the Tx of one MemStore transaction; s.mu is held throughout.
type memTx struct {
	s      *MemStore
	poster ledger.Poster
	hands  map[int64]Record    // written in this transaction
	taken  map[ids.UserID]bool // users whose pending seed was taken
	nextID int64
}

func (tx *memTx) Ledger() ledger.Poster { return tx.poster }

func (tx *memTx) HandByStartKey(_ context.Context, userID ids.UserID, key string) (Record, error) {
	return tx.s.byKeyLocked(tx, userID, key)
}

func (tx *memTx) InsertHand(_ context.Context, r *Record) error {
	if _, err := tx.s.byKeyLocked(tx, r.UserID, r.StartKey); err == nil {
		return errs.R(errs.Conflict, ReasonAlreadyExists, "a hand with this idempotency key already exists")
	}
	r.ID, r.Version = tx.nextID, 1
	tx.nextID++
	tx.hands[r.ID] = cloneRecord(*r)
	return nil
}

func (tx *memTx) LockHand(_ context.Context, id int64) (Record, error) {
	if r, ok := tx.hands[id]; ok {
		return cloneRecord(r), nil
	}
	if r, ok := tx.s.hands[id]; ok {
		return cloneRecord(r), nil
	}
	return Record{}, handNotFound()
}

func (tx *memTx) UpdateHand(ctx context.Context, r *Record) error {
	cur, err := tx.LockHand(ctx, r.ID)
	if err != nil {
		return err
	}
	if cur.Version != r.Version {
		return errs.R(errs.Conflict, ReasonHandChanged, "the hand changed meanwhile; try again")
	}
	r.Version++
	// As the database does, only what play changes is stored; what the
	// hand was started with (user, config, stakes, seed, cut, key) stays.
	next := cloneRecord(*r)
	cur.Version, cur.Phase, cur.Deadline, cur.Decisions = next.Version, next.Phase, next.Deadline, next.Decisions
	cur.ExpiredAt, cur.Staked, cur.Returned, cur.Settlement = next.ExpiredAt, next.Staked, next.Returned, next.Settlement
	cur.UpdatedAt, cur.SettledAt = next.UpdatedAt, next.SettledAt
	tx.hands[r.ID] = cur
	return nil
}

func (tx *memTx) TakePendingSeed(_ context.Context, userID ids.UserID, c [cards.SeedSize]byte) (PendingSeed, error) {
	p, ok := tx.s.seeds[userID]
	if !ok || tx.taken[userID] || p.Commitment != c {
		return PendingSeed{}, errs.R(errs.NotFound, ReasonNoPendingSeed, "no such pending shuffle")
	}
	tx.taken[userID] = true
	return p, nil
}
