package ledger

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// MemStore is an in-memory Store guarded by one mutex: the ledger of the
// embedded mode and of fast tests. It is safe for concurrent use.
type MemStore struct {
	mu        sync.Mutex
	now       func() time.Time
	balances  map[AccountRef]money.Amount
	transfers []memTransfer // transfer id = index + 1
	byKey     map[string]int
	entries   []memEntry // entry id = index + 1
	byAccount map[AccountRef][]int64
	guard     Guard
}

type memTransfer struct {
	posted Posted
	hash   [32]byte
	undo   func() // the guard's, nil when none
}

// Guard is consulted by a store for every new (not replayed) transfer,
// inside the atomic step that moves its money: it may refuse the transfer
// (nothing moves) or record what the transfer means to it. A guard's
// refusal of an excluded player (Forbidden) comes before a short wallet's
// INSUFFICIENT_FUNDS, which comes before its other refusals (a limit), as
// in every store. The player-protection rules (limits,
// exclusions) are a Guard; see package protection.
type Guard interface {
	// Admit checks t at now and records its effects; undo reverts them when
	// the store rolls the transfer back (InTx failing later).
	Admit(t Transfer, now time.Time) (undo func(), err error)
}

// SetGuard makes every later post consult g (nil: none). Call it before the
// store is shared.
func (s *MemStore) SetGuard(g Guard) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guard = g
}

type memEntry struct {
	transfer int // index into transfers
	entry    PostedEntry
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty ledger. now stamps PostedAt; nil means time.Now.
func NewMemStore(now func() time.Time) *MemStore {
	if now == nil {
		now = time.Now
	}
	return &MemStore{
		now:       now,
		balances:  make(map[AccountRef]money.Amount),
		byKey:     make(map[string]int),
		byAccount: make(map[AccountRef][]int64),
	}
}

// Post implements Poster.
func (s *MemStore) Post(ctx context.Context, t Transfer) (Posted, error) {
	if err := t.Validate(); err != nil {
		return Posted{}, err
	}
	if err := ctx.Err(); err != nil {
		return Posted{}, errs.Wrap(err, "posting the transfer was cancelled")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.postLocked(t)
}

// postLocked posts a validated transfer; s.mu is held.
func (s *MemStore) postLocked(t Transfer) (Posted, error) {
	hash := t.RequestHash()
	if i, ok := s.byKey[t.IdempotencyKey]; ok {
		if s.transfers[i].hash != hash {
			return Posted{}, KeyReused(t.IdempotencyKey)
		}
		p := clonePosted(s.transfers[i].posted)
		p.Replayed = true
		return p, nil
	}
	// The balances are applied to a copy first: the refusals come in the
	// order every store gives them (an exclusion, then a short wallet,
	// then a limit), and nothing moves unless both Apply and the guard
	// admit the transfer.
	moved := make(Balances, len(t.Entries))
	for _, e := range t.Entries {
		moved[e.Account] = s.balances[e.Account]
	}
	after, applyErr := Apply(t, moved)
	var undo func()
	if s.guard != nil {
		var err error
		undo, err = s.guard.Admit(t, s.now())
		if err != nil && (applyErr == nil || errs.CodeOf(err) == errs.Forbidden) {
			return Posted{}, err
		}
		if err != nil {
			undo = nil // refused: the guard moved nothing
		}
	}
	if applyErr != nil {
		if undo != nil {
			undo()
		}
		return Posted{}, applyErr
	}
	for a, b := range moved {
		s.balances[a] = b
	}
	p := Posted{
		ID:             int64(len(s.transfers) + 1),
		IdempotencyKey: t.IdempotencyKey,
		Kind:           t.Kind,
		Memo:           t.Memo,
		Entries:        make([]PostedEntry, len(t.Entries)),
		PostedAt:       s.now(),
	}
	ti := len(s.transfers)
	for i, e := range t.Entries {
		pe := PostedEntry{ID: int64(len(s.entries) + 1), Account: e.Account, Amount: e.Amount, BalanceAfter: after[i]}
		p.Entries[i] = pe
		s.entries = append(s.entries, memEntry{transfer: ti, entry: pe})
		s.byAccount[e.Account] = append(s.byAccount[e.Account], pe.ID)
	}
	s.transfers = append(s.transfers, memTransfer{posted: p, hash: hash, undo: undo})
	s.byKey[t.IdempotencyKey] = ti
	return clonePosted(p), nil
}

func clonePosted(p Posted) Posted {
	p.Entries = append([]PostedEntry(nil), p.Entries...)
	return p
}

// Balance implements Store.
func (s *MemStore) Balance(_ context.Context, a AccountRef) (money.Amount, error) {
	if err := a.Validate(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.balances[a], nil
}

// History implements Store.
func (s *MemStore) History(_ context.Context, a AccountRef, p Page) (HistoryPage, error) {
	if err := a.Validate(); err != nil {
		return HistoryPage{}, err
	}
	before, err := DecodeCursor(p.After)
	if err != nil {
		return HistoryPage{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.byAccount[a]
	end := len(ids)
	if before > 0 {
		end = sort.Search(len(ids), func(i int) bool { return ids[i] >= before })
	}
	size := p.Size()
	var page HistoryPage
	for i := end - 1; i >= 0 && len(page.Items) < size; i-- {
		me := s.entries[ids[i]-1]
		tr := s.transfers[me.transfer].posted
		page.Items = append(page.Items, HistoryItem{
			EntryID:      me.entry.ID,
			TransferID:   tr.ID,
			Kind:         tr.Kind,
			Memo:         tr.Memo,
			Amount:       me.entry.Amount,
			BalanceAfter: me.entry.BalanceAfter,
			PostedAt:     tr.PostedAt,
		})
	}
	if end-len(page.Items) > 0 && len(page.Items) > 0 {
		page.Next = EncodeCursor(page.Items[len(page.Items)-1].EntryID)
	}
	return page, nil
}

// Reconcile implements Store.
func (s *MemStore) Reconcile(_ context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var problems []string
	sums := make(map[AccountRef]money.Amount, len(s.balances))
	var total money.Amount
	for _, t := range s.transfers {
		var ts money.Amount
		for _, e := range t.posted.Entries {
			ts += e.Amount
			sums[e.Account] += e.Amount
		}
		total += ts
		if ts != 0 {
			problems = append(problems, fmt.Sprintf("transfer %d sums to %s", t.posted.ID, ts))
		}
	}
	if total != 0 {
		problems = append(problems, fmt.Sprintf("all entries sum to %s", total))
	}
	for a, b := range s.balances {
		if sums[a] != b {
			problems = append(problems, fmt.Sprintf("%s: balance %s but entries sum to %s", a, b, sums[a]))
		}
		if b < 0 && !a.Kind.MayGoNegative() {
			problems = append(problems, fmt.Sprintf("%s is negative: %s", a, b))
		}
	}
	for a, sum := range sums {
		if _, ok := s.balances[a]; !ok {
			problems = append(problems, fmt.Sprintf("%s has entries summing to %s but no balance", a, sum))
		}
	}
	return inconsistent(problems)
}

// inconsistent turns reconciliation problems into one error, nil when there
// are none.
func inconsistent(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	if len(problems) > 10 {
		problems = append(problems[:10], fmt.Sprintf("and %d more", len(problems)-10))
	}
	return errs.R(errs.Internal, ReasonInconsistent, "ledger does not reconcile: %s", strings.Join(problems, "; "))
}

// InTx runs fn with a Poster whose posts commit together when fn returns nil
// and are all undone when it returns an error or panics. The store is locked
// for the whole of fn: fn must post through tx only (calling s.Post inside fn
// deadlocks) and should be quick. tx is dead once fn returns.
func (s *MemStore) InTx(ctx context.Context, fn func(ctx context.Context, tx Poster) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx := &memTx{s: s}
	nt, ne := len(s.transfers), len(s.entries)
	committed := false
	defer func() {
		tx.mu.Lock()
		tx.done = true
		tx.mu.Unlock()
		if !committed {
			s.rollbackLocked(nt, ne)
		}
	}()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	committed = true
	return nil
}

// rollbackLocked undoes every transfer and entry recorded after the given
// counts; s.mu is held.
func (s *MemStore) rollbackLocked(nTransfers, nEntries int) {
	for i := len(s.entries) - 1; i >= nEntries; i-- {
		e := s.entries[i].entry
		s.balances[e.Account] -= e.Amount
		ids := s.byAccount[e.Account]
		s.byAccount[e.Account] = ids[:len(ids)-1]
	}
	for i := len(s.transfers) - 1; i >= nTransfers; i-- {
		t := s.transfers[i]
		delete(s.byKey, t.posted.IdempotencyKey)
		if t.undo != nil {
			t.undo()
		}
	}
	clear(s.entries[nEntries:])
	s.entries = s.entries[:nEntries]
	clear(s.transfers[nTransfers:])
	s.transfers = s.transfers[:nTransfers]
}

// memTx is the Poster handed to InTx's fn.
type memTx struct {
	mu   sync.Mutex
	s    *MemStore
	done bool
}

// Balance reads account a's balance inside the transaction (the store is
// locked for all of it), for a caller that reads a snapshot before it posts
// (the tote twin's bet batch).
func (tx *memTx) Balance(_ context.Context, a AccountRef) (money.Amount, error) {
	if err := a.Validate(); err != nil {
		return 0, err
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return 0, errs.E(errs.Internal, "ledger transaction already finished")
	}
	return tx.s.balances[a], nil
}

func (tx *memTx) Post(ctx context.Context, t Transfer) (Posted, error) {
	if err := t.Validate(); err != nil {
		return Posted{}, err
	}
	if err := ctx.Err(); err != nil {
		return Posted{}, errs.Wrap(err, "posting the transfer was cancelled")
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return Posted{}, errs.E(errs.Internal, "ledger transaction already finished")
	}
	return tx.s.postLocked(t)
}
