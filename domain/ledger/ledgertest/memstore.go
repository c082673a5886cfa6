package ledgertest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// MemStore is an in-memory ledger.Store guarded by one mutex: the ledger of the
// embedded mode and of fast tests. It is safe for concurrent use.
type MemStore struct {
	mu        sync.Mutex
	now       func() time.Time
	balances  map[ledger.AccountRef]money.Amount
	transfers []memTransfer // transfer id = index + 1
	byKey     map[string]int
	entries   []memEntry // entry id = index + 1
	byAccount map[ledger.AccountRef][]int64
	guard     ledger.Guard
}

type memTransfer struct {
	posted ledger.Posted
	hash   [32]byte
	undo   func() // the guard's, nil when none
}

// SetGuard makes every later post consult g (nil: none). Call it before the
// store is shared.
func (s *MemStore) SetGuard(g ledger.Guard) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guard = g
}

type memEntry struct {
	transfer int // index into transfers
	entry    ledger.PostedEntry
}

var _ ledger.Store = (*MemStore)(nil)

// NewMemStore returns an empty ledger. now stamps PostedAt; nil means time.Now.
func NewMemStore(now func() time.Time) *MemStore {
	if now == nil {
		now = time.Now
	}
	return &MemStore{
		now:       now,
		balances:  make(map[ledger.AccountRef]money.Amount),
		byKey:     make(map[string]int),
		byAccount: make(map[ledger.AccountRef][]int64),
	}
}

// Post implements ledger.Poster.
func (s *MemStore) Post(ctx context.Context, t ledger.Transfer) (ledger.Posted, error) {
	if err := t.Validate(); err != nil {
		return ledger.Posted{}, err
	}
	if err := ctx.Err(); err != nil {
		return ledger.Posted{}, errs.Wrap(err, "posting the transfer was cancelled")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.postLocked(t)
}

// postLocked posts a validated transfer; s.mu is held.
func (s *MemStore) postLocked(t ledger.Transfer) (ledger.Posted, error) {
	hash := t.RequestHash()
	if i, ok := s.byKey[t.IdempotencyKey]; ok {
		if s.transfers[i].hash != hash {
			return ledger.Posted{}, ledger.KeyReused(t.IdempotencyKey)
		}
		p := clonePosted(s.transfers[i].posted)
		p.Replayed = true
		return p, nil
	}
	// The balances are applied to a copy first: the refusals come in the
	// order every store gives them (an exclusion, then a short wallet,
	// then a limit), and nothing moves unless both ledger.Apply and the guard
	// admit the transfer.
	moved := make(ledger.Balances, len(t.Entries))
	for _, e := range t.Entries {
		moved[e.Account] = s.balances[e.Account]
	}
	after, applyErr := ledger.Apply(t, moved)
	var undo func()
	if s.guard != nil {
		var err error
		undo, err = s.guard.Admit(t, s.now())
		if err != nil && (applyErr == nil || errs.CodeOf(err) == errs.Forbidden) {
			return ledger.Posted{}, err
		}
		if err != nil {
			undo = nil // refused: the guard moved nothing
		}
	}
	if applyErr != nil {
		if undo != nil {
			undo()
		}
		return ledger.Posted{}, applyErr
	}
	for a, b := range moved {
		s.balances[a] = b
	}
	p := ledger.Posted{
		ID:             int64(len(s.transfers) + 1),
		IdempotencyKey: t.IdempotencyKey,
		Kind:           t.Kind,
		Memo:           t.Memo,
		Entries:        make([]ledger.PostedEntry, len(t.Entries)),
		PostedAt:       s.now(),
	}
	ti := len(s.transfers)
	for i, e := range t.Entries {
		pe := ledger.PostedEntry{ID: int64(len(s.entries) + 1), Account: e.Account, Amount: e.Amount, BalanceAfter: after[i]}
		p.Entries[i] = pe
		s.entries = append(s.entries, memEntry{transfer: ti, entry: pe})
		s.byAccount[e.Account] = append(s.byAccount[e.Account], pe.ID)
	}
	s.transfers = append(s.transfers, memTransfer{posted: p, hash: hash, undo: undo})
	s.byKey[t.IdempotencyKey] = ti
	return clonePosted(p), nil
}

func clonePosted(p ledger.Posted) ledger.Posted {
	p.Entries = append([]ledger.PostedEntry(nil), p.Entries...)
	return p
}

// Balance implements ledger.Store.
func (s *MemStore) Balance(_ context.Context, a ledger.AccountRef) (money.Amount, error) {
	if err := a.Validate(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.balances[a], nil
}

// History implements ledger.Store.
func (s *MemStore) History(_ context.Context, a ledger.AccountRef, p ledger.Page) (ledger.HistoryPage, error) {
	if err := a.Validate(); err != nil {
		return ledger.HistoryPage{}, err
	}
	before, err := ledger.DecodeCursor(p.After)
	if err != nil {
		return ledger.HistoryPage{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.byAccount[a]
	end := len(ids)
	if p.Backward {
		return s.historyBackLocked(ids, before, p.Size()), nil
	}
	if before > 0 {
		end = sort.Search(len(ids), func(i int) bool { return ids[i] >= before })
	}
	size := p.Size()
	var page ledger.HistoryPage
	for i := end - 1; i >= 0 && len(page.Items) < size; i-- {
		me := s.entries[ids[i]-1]
		tr := s.transfers[me.transfer].posted
		page.Items = append(page.Items, ledger.HistoryItem{
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
		page.Next = ledger.EncodeCursor(page.Items[len(page.Items)-1].EntryID)
	}
	return page, nil
}

// historyBackLocked is the backward page of History: the size entries
// just newer than entry id after (the oldest without one), newest first.
func (s *MemStore) historyBackLocked(ids []int64, after int64, size int) ledger.HistoryPage {
	start := 0
	if after > 0 {
		start = sort.Search(len(ids), func(i int) bool { return ids[i] > after })
	}
	var page ledger.HistoryPage
	end := min(len(ids), start+size)
	for i := end - 1; i >= start; i-- {
		me := s.entries[ids[i]-1]
		tr := s.transfers[me.transfer].posted
		page.Items = append(page.Items, ledger.HistoryItem{
			EntryID: me.entry.ID, TransferID: tr.ID, Kind: tr.Kind, Memo: tr.Memo,
			Amount: me.entry.Amount, BalanceAfter: me.entry.BalanceAfter, PostedAt: tr.PostedAt,
		})
	}
	if end < len(ids) && len(page.Items) > 0 {
		page.Next = ledger.EncodeCursor(page.Items[0].EntryID)
	}
	return page
}

// Reconcile implements ledger.Store.
func (s *MemStore) Reconcile(_ context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var problems []string
	sums := make(map[ledger.AccountRef]money.Amount, len(s.balances))
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

// InTx runs fn with a ledger.Poster whose posts commit together when fn returns nil
// and are all undone when it returns an error or panics. The store is locked
// for the whole of fn: fn must post through tx only (calling s.Post inside fn
// deadlocks) and should be quick. tx is dead once fn returns.
func (s *MemStore) InTx(ctx context.Context, fn func(ctx context.Context, tx ledger.Poster) error) error {
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

// memTx is the ledger.Poster handed to InTx's fn.
type memTx struct {
	mu   sync.Mutex
	s    *MemStore
	done bool
}

// Balance reads account a's balance inside the transaction (the store is
// locked for all of it), for a caller that reads a snapshot before it posts
// (the tote twin's bet batch).
func (tx *memTx) Balance(_ context.Context, a ledger.AccountRef) (money.Amount, error) {
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

func (tx *memTx) Post(ctx context.Context, t ledger.Transfer) (ledger.Posted, error) {
	if err := t.Validate(); err != nil {
		return ledger.Posted{}, err
	}
	if err := ctx.Err(); err != nil {
		return ledger.Posted{}, errs.Wrap(err, "posting the transfer was cancelled")
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return ledger.Posted{}, errs.E(errs.Internal, "ledger transaction already finished")
	}
	return tx.s.postLocked(t)
}

// inconsistent turns reconciliation problems into one Internal error with
// ledger.ReasonInconsistent (at most ten named), nil when there are none.
func inconsistent(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	if len(problems) > 10 {
		problems = append(problems[:10], fmt.Sprintf("and %d more", len(problems)-10))
	}
	return errs.R(errs.Internal, ledger.ReasonInconsistent, "ledger does not reconcile: %s", strings.Join(problems, "; "))
}
