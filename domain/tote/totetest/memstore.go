package totetest

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/tote"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// MemStore is an in-memory Store and LeaseStore over a ledgertest.MemStore: the
// twin of the database adapter for fast tests. One mutex guards it; Within
// holds it for the whole transaction, so transactions run one at a time,
// and an undo log rolls a failed one back. It is safe for concurrent use.
type MemStore struct {
	mu      sync.Mutex
	led     *ledgertest.MemStore
	tables  map[int64]tote.Table
	draws   map[int64]tote.Draw
	byTable map[int64][]int64 // draw ids per table, oldest first
	bets    map[int64]tote.Bet
	betIDs  []int64 // every bet id, ascending
	keys    map[memBetKey]int64
	// totals are the pool totals as the bet paths wrote them
	// (AddPoolTotals), by draw, round and selection.
	totals map[memTotalKey]tote.SelectionTotal
	events map[int64][]tote.TableEvent
	leases map[int64]tote.Lease
	// firstSeq is each table's lowest retained event seq once pruned
	// (memstore_retention.go).
	firstSeq map[int64]int64
	jackpot  bool
	// chain is the jackpot chain, chain[i] holding seq i+1.
	chain []tote.JackpotEntry
	seq   int64 // last id handed out, shared by tables, draws and bets
	// watch hears of the transactions that may change the jackpot
	// (WatchJackpot); nil: none.
	watch tote.JackpotWatch
}

// WatchJackpot has w told of every transaction that may change the
// jackpot (tote.JackpotWatch); call it before the store is used.
func (s *MemStore) WatchJackpot(w tote.JackpotWatch) { s.watch = w }

type memTotalKey struct {
	draw  int64
	round parimutuel.Round
	sel   parimutuel.Selection
}

type memBetKey struct {
	user ids.UserID
	key  string
}

var (
	_ tote.Store      = (*MemStore)(nil)
	_ tote.LeaseStore = (*MemStore)(nil)
)

// NewMemStore returns an empty store whose transactions post to led.
func NewMemStore(led *ledgertest.MemStore) *MemStore {
	return &MemStore{
		led: led, tables: map[int64]tote.Table{}, draws: map[int64]tote.Draw{}, byTable: map[int64][]int64{},
		bets: map[int64]tote.Bet{}, keys: map[memBetKey]int64{}, totals: map[memTotalKey]tote.SelectionTotal{}, events: map[int64][]tote.TableEvent{},
		leases: map[int64]tote.Lease{}, jackpot: true,
	}
}

// Within implements Store.
func (s *MemStore) Within(ctx context.Context, fn func(ctx context.Context, tx tote.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return errs.Wrap(err, "transaction cancelled")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read under s.mu: no other transaction of this store can move the
	// jackpot before ours starts (ledger-only posts never take s.mu, so
	// this order cannot deadlock).
	jackpot, err := s.led.Balance(ctx, ledger.JackpotAccount)
	if err != nil {
		return err
	}
	tx := &memTx{s: s, jackpot: jackpot}
	done := false
	defer func() {
		if !done {
			tx.rollback()
		}
		if tx.watched {
			s.watch.End()
		}
	}()
	err = s.led.InTx(ctx, func(ctx context.Context, p ledger.Poster) error {
		tx.poster = p
		return fn(ctx, tx)
	})
	if err != nil {
		return err
	}
	done = true
	return nil
}

// cloneDraw copies a draw's slices so stored and returned copies never
// share memory.
func cloneDraw(d tote.Draw) tote.Draw {
	d.PublicSeed = slices.Clone(d.PublicSeed)
	d.Pockets = slices.Clone(d.Pockets)
	d.Board = slices.Clone(d.Board)
	d.Burns = slices.Clone(d.Burns)
	d.Beacons = d.Beacons.Clone()
	d.BetRoots = slices.Clone(d.BetRoots)
	d.Chances = slices.Clone(d.Chances)
	return d
}

func notFound(what string) error {
	return errs.R(errs.NotFound, tote.ReasonNotFound, "%s not found", what)
}

// Table implements Store.
func (s *MemStore) Table(_ context.Context, id int64) (tote.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[id]
	if !ok {
		return tote.Table{}, notFound("table")
	}
	return t, nil
}

// Tables implements Store.
func (s *MemStore) Tables(context.Context) ([]tote.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]tote.Table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b tote.Table) int { return int(a.ID - b.ID) })
	return out, nil
}

// Draw implements Store.
func (s *MemStore) Draw(_ context.Context, id int64) (tote.Draw, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.draws[id]
	if !ok {
		return tote.Draw{}, notFound("draw")
	}
	return cloneDraw(d), nil
}

// TablesByID implements Store.
func (s *MemStore) TablesByID(_ context.Context, ids []int64) ([]tote.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tote.Table
	for _, id := range ids {
		if t, ok := s.tables[id]; ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// DrawsByID implements Store.
func (s *MemStore) DrawsByID(_ context.Context, ids []int64) ([]tote.Draw, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tote.Draw
	for _, id := range ids {
		if d, ok := s.draws[id]; ok {
			out = append(out, cloneDraw(d))
		}
	}
	return out, nil
}

// LatestDraw implements Store.
func (s *MemStore) LatestDraw(_ context.Context, tableID int64) (tote.Draw, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latestLocked(tableID)
}

func (s *MemStore) latestLocked(tableID int64) (tote.Draw, error) {
	ids := s.byTable[tableID]
	if len(ids) == 0 {
		return tote.Draw{}, notFound("draw")
	}
	return cloneDraw(s.draws[ids[len(ids)-1]]), nil
}

// Bet implements Store.
func (s *MemStore) Bet(_ context.Context, id int64) (tote.Bet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bets[id]
	if !ok {
		return tote.Bet{}, notFound("bet")
	}
	return b, nil
}

// BetByKey implements Store.
func (s *MemStore) BetByKey(_ context.Context, userID ids.UserID, key string) (tote.Bet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.keys[memBetKey{userID, key}]
	if !ok {
		return tote.Bet{}, notFound("bet")
	}
	return s.bets[id], nil
}

// Bets implements Store.
func (s *MemStore) Bets(_ context.Context, q tote.BetQuery) ([]tote.Bet, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tote.Bet
	for n := range s.betIDs {
		i := len(s.betIDs) - 1 - n
		if q.Oldest {
			i = n
		}
		if len(out) == q.Limit {
			break
		}
		b := s.bets[s.betIDs[i]]
		if q.Matches(b) && (q.Before == 0 || b.ID < q.Before) && (q.After == 0 || b.ID > q.After) {
			out = append(out, b)
		}
	}
	return out, nil
}

// DrawBets implements Store.
func (s *MemStore) DrawBets(_ context.Context, drawID int64) ([]tote.Bet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drawBetsLocked(drawID), nil
}

// RoundLeaves implements Store.
func (s *MemStore) RoundLeaves(_ context.Context, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roundLeavesLocked(drawID, round), nil
}

func (s *MemStore) roundLeavesLocked(drawID int64, round parimutuel.Round) []betroot.Leaf {
	var out []betroot.Leaf
	for _, b := range s.drawBetsLocked(drawID) {
		if b.Round == round {
			out = append(out, tote.LeafOf(b))
		}
	}
	return out
}

// EachLeaf implements Store.
func (s *MemStore) EachLeaf(_ context.Context, drawID int64, round parimutuel.Round, fn func(betroot.Leaf) error) error {
	s.mu.Lock()
	bets := s.drawBetsLocked(drawID)
	s.mu.Unlock()
	slices.SortStableFunc(bets, func(a, b tote.Bet) int { return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.ID, b.ID)) })
	for _, b := range bets {
		if round != 0 && b.Round != round {
			continue
		}
		if err := fn(tote.LeafOf(b)); err != nil {
			return err
		}
	}
	return nil
}

func (s *MemStore) drawBetsLocked(drawID int64) []tote.Bet {
	var out []tote.Bet
	for _, id := range s.betIDs {
		if b := s.bets[id]; b.DrawID == drawID {
			out = append(out, b)
		}
	}
	return out
}

// PoolTotals implements Store.
func (s *MemStore) PoolTotals(_ context.Context, drawID int64, round parimutuel.Round) ([]tote.SelectionTotal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.poolTotalsLocked(drawID, round), nil
}

// poolTotalsLocked are the stored totals of draw drawID (of round round
// unless 0) that count bets, in PoolKeyOrder.
func (s *MemStore) poolTotalsLocked(drawID int64, round parimutuel.Round) []tote.SelectionTotal {
	var incs []tote.PoolIncrement
	for k, t := range s.totals {
		if k.draw == drawID && (round == 0 || k.round == round) && t.Bets > 0 {
			incs = append(incs, tote.PoolIncrement{DrawID: drawID, Total: t})
		}
	}
	slices.SortFunc(incs, tote.PoolKeyOrder)
	out := make([]tote.SelectionTotal, len(incs))
	for i, p := range incs {
		out[i] = p.Total
	}
	return out
}

// Results implements Store.
func (s *MemStore) Results(_ context.Context, q tote.ResultQuery) ([]tote.Draw, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []tote.Draw
	for _, d := range s.draws {
		if !d.Phase.Finished() || (q.TableID != 0 && d.TableID != q.TableID) || (q.Before != 0 && d.ID >= q.Before) || (q.After != 0 && d.ID <= q.After) ||
			(!q.From.IsZero() && d.SettledAt.Before(q.From)) || (!q.To.IsZero() && !d.SettledAt.Before(q.To)) {
			continue
		}
		out = append(out, cloneDraw(d))
	}
	slices.SortFunc(out, func(a, b tote.Draw) int { return int(b.ID - a.ID) })
	if q.Oldest {
		slices.Reverse(out)
	}
	return out[:min(len(out), q.Limit)], nil
}

// VoidCounts implements Store.
func (s *MemStore) VoidCounts(_ context.Context, tableID int64) ([]tote.VoidCount, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := map[tote.VoidKind]int64{}
	for _, d := range s.draws {
		if d.TableID == tableID && d.Phase == tote.PhaseVoid {
			n[d.VoidKind]++
		}
	}
	var out []tote.VoidCount
	for k, c := range n {
		out = append(out, tote.VoidCount{Kind: k, Count: c})
	}
	return out, nil
}

// EventsAfter implements Store.
func (s *MemStore) EventsAfter(_ context.Context, tableID, after int64, limit int) ([]tote.TableEvent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	evs := s.events[tableID]
	start := int(min(max(after, s.firstRetained(tableID)-1), int64(len(evs)))) // event seq n is at index n-1; pruned ones are skipped
	return slices.Clone(evs[start:min(len(evs), start+limit)]), nil
}

// JackpotEnabled implements Store.
func (s *MemStore) JackpotEnabled(context.Context) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jackpot, nil
}

// AcquireLease implements LeaseStore.
func (s *MemStore) AcquireLease(_ context.Context, tableID int64, owner string, now time.Time, ttl time.Duration) (tote.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.leases[tableID]
	switch {
	case ok && l.Owner == owner:
	case !ok || !now.Before(l.ExpiresAt):
		l = tote.Lease{TableID: tableID, Owner: owner, Fence: l.Fence + 1}
	default:
		return tote.Lease{}, errs.R(errs.Conflict, tote.ReasonLeaseHeld, "table %d is dealt by %s", tableID, l.Owner)
	}
	l.ExpiresAt = now.Add(ttl)
	s.leases[tableID] = l
	return l, nil
}

// RenewLease implements LeaseStore.
func (s *MemStore) RenewLease(_ context.Context, l tote.Lease, now time.Time, ttl time.Duration) (tote.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.leases[l.TableID]
	if !ok || cur.Owner != l.Owner || cur.Fence != l.Fence {
		return tote.Lease{}, tote.ErrLeaseLost(l.TableID)
	}
	cur.ExpiresAt = now.Add(ttl)
	s.leases[l.TableID] = cur
	return cur, nil
}

// ReleaseLease implements LeaseStore.
func (s *MemStore) ReleaseLease(_ context.Context, l tote.Lease) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.leases[l.TableID]; ok && cur.Owner == l.Owner && cur.Fence == l.Fence {
		cur.ExpiresAt = time.Time{}
		s.leases[l.TableID] = cur
	}
	return nil
}

// memTx is the Tx of a MemStore transaction; s.mu is held while it lives.
type memTx struct {
	s       *MemStore
	poster  ledger.Poster
	jackpot money.Amount // the JACKPOT balance, kept current by Ledger's posts
	undo    []func()
	watched bool // the store's watch was told this transaction may change the jackpot
}

// changesJackpot tells the store's watch, once, that tx may change the
// jackpot.
func (tx *memTx) changesJackpot() {
	if tx.s.watch != nil && !tx.watched {
		tx.watched = true
		tx.s.watch.Begin()
	}
}

func (tx *memTx) rollback() {
	for i := len(tx.undo) - 1; i >= 0; i-- {
		tx.undo[i]()
	}
	tx.undo = nil
}

func (tx *memTx) nextID() int64 {
	tx.s.seq++
	tx.undo = append(tx.undo, func() { tx.s.seq-- })
	return tx.s.seq
}

// MemEnv is a fresh in-memory store over a fresh in-memory ledger, the Env
// that runs the conformance suite on the twin.
func MemEnv(t *testing.T) Env {
	led := ledgertest.NewMemStore(nil)
	s := NewMemStore(led)
	return Env{Store: s, Leases: s, Ledger: led, WatchJackpot: s.WatchJackpot}
}
