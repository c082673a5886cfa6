// Package holdemtest is the conformance suite of holdem.Store: Casino
// Hold'em hands, their versions and pending seeds, with the hand's money
// committed in the same transaction. The in-memory twin (MemStore)
// runs it in its unit tests; persistence runs the very same tests against
// SQLite and Postgres.
//
//	holdemtest.Run(t, func(t *testing.T) holdemtest.Env { ... })
package holdemtest

import (
	"context"
	"fmt"
	"github.com/pokertote/pokertote/domain/paging"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// Env is one fresh world: an empty store, the ledger its transactions post
// to, and a way to make funded players.
type Env struct {
	Store  holdem.Store
	Ledger ledger.Store
	// NewPlayer creates a player (a user, where the store wants one) and
	// deposits kzt into their wallet.
	NewPlayer func(t *testing.T, name string, kzt money.Amount) int64
}

// Start is the suite's first instant.
var Start = time.Date(2026, 3, 4, 5, 0, 0, 123456000, time.UTC)

// Run runs the whole suite; newEnv is called once per subtest.
func Run(t *testing.T, newEnv func(t *testing.T) Env) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, w *world)
	}{
		{"StartedHandReadsBack", testReadBack},
		{"NotFound", testNotFound},
		{"VersionsAndStaleUpdates", testVersions},
		{"DuplicateStartKeyConflicts", testDuplicateKey},
		{"RollbackUndoesHandAndMoney", testRollback},
		{"InsufficientFundsStoresNoHand", testInsufficientFunds},
		{"DueMostOverdueFirst", testDue},
		{"HandsPageNewestFirst", testHandsPaging},
		{"PendingSeedsTakenOnce", testPendingSeeds},
		{"RetriedStartIsIdempotent", testRetriedStart},
		{"ReplicasSettleEachHandOnce", testReplicasSettleOnce},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each test has its own store and clock
			e := newEnv(t)
			w := &world{Env: e}
			w.clock.Store(Start.UnixMicro())
			tc.run(t, w)
		})
	}
}

var ctx = context.Background()

type world struct {
	Env
	clock atomic.Int64 // unix microseconds
}

func (w *world) now() time.Time          { return time.UnixMicro(w.clock.Load()).UTC() }
func (w *world) advance(d time.Duration) { w.clock.Add(d.Microseconds()) }

type allowAll struct{}

func (allowAll) EnsureCanStake(context.Context, ids.UserID) error { return nil }

// service is a Casino Hold'em service on the store, as one replica runs it.
func (w *world) service(t *testing.T) *holdem.Service {
	t.Helper()
	svc, err := holdem.NewService(w.Store, allowAll{}, holdem.DefaultConfig(), holdem.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func commitment(t *testing.T, svc *holdem.Service, user ids.UserID) string {
	t.Helper()
	pc, err := svc.Commit(ctx, user)
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	return cards.FormatCommitment(pc.Commitment)
}

func start(t *testing.T, svc *holdem.Service, user ids.UserID, key string, stakes ...holdem.Stake) holdem.Snapshot {
	t.Helper()
	sn, err := svc.Start(ctx, holdem.StartRequest{UserID: user, Stakes: stakes, Cut: "cut ✂", IdempotencyKey: key, Commitment: commitment(t, svc, user)})
	if err != nil {
		t.Fatalf("Start(%s): %v", key, err)
	}
	return sn
}

func (w *world) wallet(t *testing.T, user ids.UserID) money.Amount {
	t.Helper()
	b, err := w.Ledger.Balance(ctx, ledger.UserWallet(user))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (w *world) hand(t *testing.T, id int64) holdem.Record {
	t.Helper()
	r, err := w.Store.Hand(ctx, id)
	if err != nil {
		t.Fatalf("Hand(%d): %v", id, err)
	}
	return r
}

// sameRecord compares what a store must keep of a hand.
func sameRecord(t *testing.T, what string, got, want holdem.Record) {
	t.Helper()
	if got.ID != want.ID || got.UserID != want.UserID || got.Version != want.Version || got.Phase != want.Phase ||
		!got.Deadline.Equal(want.Deadline) || got.Staked != want.Staked || got.Returned != want.Returned ||
		!slices.Equal(got.Stakes, want.Stakes) || got.ServerSeed != want.ServerSeed || got.Commitment != want.Commitment ||
		got.Cut != want.Cut || got.StartKey != want.StartKey || got.StartHash != want.StartHash ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.SettledAt.Equal(want.SettledAt) || !got.ExpiredAt.Equal(want.ExpiredAt) ||
		got.Config != want.Config || len(got.Decisions) != len(want.Decisions) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
	for i := range got.Decisions {
		g, x := got.Decisions[i], want.Decisions[i]
		if g.Box != x.Box || g.Decision != x.Decision || !g.At.Equal(x.At) || g.Key != x.Key {
			t.Fatalf("%s: decision %d is %+v, want %+v", what, i, g, x)
		}
	}
}

func testReadBack(t *testing.T, w *world) {
	svc := w.service(t)
	p := ids.UserID(w.NewPlayer(t, "p", 10_000*money.KZT))
	sn := start(t, svc, p, "k1", holdem.Stake{Ante: 100 * money.KZT, Bonus: 25 * money.KZT}, holdem.Stake{Ante: 200 * money.KZT})
	r := w.hand(t, sn.ID)
	if r.ID != sn.ID || r.UserID != p || r.Version != 1 || r.Phase != holdem.Deciding || r.Staked != 325*money.KZT ||
		r.StartKey != "k1" || r.Cut != "cut ✂" || r.Commitment != sn.Commitment || !r.CreatedAt.Equal(Start) || r.Deadline.IsZero() {
		t.Fatalf("stored hand %+v does not match the started %+v", r, sn)
	}
	if got := w.wallet(t, p); got != 9_675*money.KZT {
		t.Fatalf("wallet %v after staking 325, want 9675", got)
	}
	byKey, err := w.Store.HandByStartKey(ctx, p, "k1")
	if err != nil {
		t.Fatal(err)
	}
	sameRecord(t, "HandByStartKey", byKey, r)

	w.advance(1500 * time.Millisecond)
	if _, err := svc.Decide(ctx, holdem.DecideRequest{UserID: p, HandID: sn.ID, Box: 0, Decision: holdem.Call, IdempotencyKey: "d1"}); err != nil {
		t.Fatal(err)
	}
	r2 := w.hand(t, sn.ID)
	if r2.Version != 2 || len(r2.Decisions) != 1 || r2.Decisions[0].Key != "d1" || !r2.Decisions[0].At.Equal(w.now()) || r2.Staked != 525*money.KZT {
		t.Fatalf("after one call: %+v", r2)
	}
	if _, err := svc.Decide(ctx, holdem.DecideRequest{UserID: p, HandID: sn.ID, Box: 1, Decision: holdem.Fold, IdempotencyKey: "d2"}); err != nil {
		t.Fatal(err)
	}
	done := w.hand(t, sn.ID)
	if done.Phase != holdem.Settled || done.Version != 3 || !done.Deadline.IsZero() || done.SettledAt.IsZero() {
		t.Fatalf("settled hand reads %+v", done)
	}
	if got := w.wallet(t, p); got != 10_000*money.KZT-done.Staked+done.Returned {
		t.Fatalf("wallet %v, want 10000 - %v + %v", got, done.Staked, done.Returned)
	}
	// What was stored rebuilds the very hand the service settled.
	snap, err := svc.Hand(ctx, p, sn.ID)
	if err != nil || snap.ServerSeed == nil || *snap.ServerSeed != done.ServerSeed || snap.Returned != done.Returned {
		t.Fatalf("replayed hand %+v, %v", snap, err)
	}
}

func testNotFound(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	q := ids.UserID(w.NewPlayer(t, "q", 1_000*money.KZT))
	sn := start(t, w.service(t), p, "mine", holdem.Stake{Ante: 100 * money.KZT})
	_, err := w.Store.Hand(ctx, sn.ID+1000)
	errstest.Code(t, err, errs.NotFound)
	_, err = w.Store.HandByStartKey(ctx, q, "mine")
	errstest.Code(t, err, errs.NotFound)
	_, err = w.Store.HandByStartKey(ctx, p, "other")
	errstest.Code(t, err, errs.NotFound)
	_, err = w.Store.PendingSeed(ctx, q)
	errstest.Code(t, err, errs.NotFound)
	err = w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
		_, err := tx.LockHand(ctx, sn.ID+1000)
		return err
	})
	errstest.Code(t, err, errs.NotFound)
	if hs, err := w.Store.Hands(ctx, q, paging.IDRange{}, 10); err != nil || len(hs) != 0 {
		t.Fatalf("Hands of a user with none = %d, %v", len(hs), err)
	}
}

func testVersions(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	sn := start(t, w.service(t), p, "k", holdem.Stake{Ante: 100 * money.KZT})
	orig := w.hand(t, sn.ID)
	later := orig.Deadline.Add(time.Minute)
	var updated holdem.Record
	err := w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
		r, err := tx.LockHand(ctx, sn.ID)
		if err != nil {
			return err
		}
		r.Deadline = later
		r.Cut = "not stored: a hand's cut never changes"
		if err := tx.UpdateHand(ctx, &r); err != nil {
			return err
		}
		if r.Version != 2 {
			return fmt.Errorf("UpdateHand set version %d, want 2", r.Version)
		}
		// The transaction reads its own write.
		again, err := tx.LockHand(ctx, sn.ID)
		if err != nil || !again.Deadline.Equal(later) || again.Version != 2 || again.Cut != orig.Cut {
			return fmt.Errorf("read own write: %+v, %v", again, err)
		}
		updated = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	updated.Cut = orig.Cut // what the hand started with stays as it was
	sameRecord(t, "after UpdateHand", w.hand(t, sn.ID), updated)
	// A writer holding version 1 has lost.
	err = w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
		r, err := tx.LockHand(ctx, sn.ID)
		if err != nil {
			return err
		}
		r.Version, r.Deadline = 1, later.Add(time.Hour)
		return tx.UpdateHand(ctx, &r)
	})
	errstest.Is(t, err, errs.Conflict, holdem.ReasonHandChanged)
	if r := w.hand(t, sn.ID); r.Version != 2 || !r.Deadline.Equal(later) {
		t.Fatalf("the stale update changed the hand: %+v", r)
	}
}

func testDuplicateKey(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	q := ids.UserID(w.NewPlayer(t, "q", 1_000*money.KZT))
	sn := start(t, w.service(t), p, "k", holdem.Stake{Ante: 100 * money.KZT})
	orig := w.hand(t, sn.ID)
	err := w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
		r := orig
		r.ID = 0
		return tx.InsertHand(ctx, &r)
	})
	errstest.Code(t, err, errs.Conflict)
	// The same key is another user's own.
	var other holdem.Record
	err = w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
		other = orig
		other.ID, other.UserID = 0, q
		return tx.InsertHand(ctx, &other)
	})
	if err != nil || other.ID == 0 || other.ID == orig.ID || other.Version != 1 {
		t.Fatalf("another user's hand with the same key: %+v, %v", other, err)
	}
	if got, err := w.Store.HandByStartKey(ctx, q, "k"); err != nil || got.ID != other.ID {
		t.Fatalf("HandByStartKey(q) = %d, %v; want %d", got.ID, err, other.ID)
	}
}

func testRollback(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	sn := start(t, w.service(t), p, "k", holdem.Stake{Ante: 100 * money.KZT})
	before := w.hand(t, sn.ID)
	var inserted int64
	err := w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
		if _, err := tx.Ledger().Post(ctx, ledger.Move("rolled-back", ledger.HoldemStake, "", ledger.UserWallet(p), ledger.HouseAccount, money.KZT)); err != nil {
			return err
		}
		r, err := tx.LockHand(ctx, sn.ID)
		if err != nil {
			return err
		}
		r.Deadline = r.Deadline.Add(time.Hour)
		if err := tx.UpdateHand(ctx, &r); err != nil {
			return err
		}
		n := before
		n.ID, n.StartKey = 0, "never"
		if err := tx.InsertHand(ctx, &n); err != nil {
			return err
		}
		inserted = n.ID
		return errs.E(errs.Conflict, "changed my mind")
	})
	errstest.Code(t, err, errs.Conflict)
	if got := w.wallet(t, p); got != 900*money.KZT {
		t.Fatalf("wallet %v after a rolled-back post, want 900", got)
	}
	sameRecord(t, "hand after rollback", w.hand(t, sn.ID), before)
	if _, err := w.Store.Hand(ctx, inserted); errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("a rolled-back insert is readable (%v)", err)
	}
	if _, err := w.Store.HandByStartKey(ctx, p, "never"); errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("a rolled-back insert is found by key (%v)", err)
	}
	// The ledger key was not used either: posting it now works.
	if _, err := w.Ledger.Post(ctx, ledger.Move("rolled-back", ledger.HoldemStake, "", ledger.UserWallet(p), ledger.HouseAccount, money.KZT)); err != nil {
		t.Fatalf("the rolled-back key: %v", err)
	}
}

func testInsufficientFunds(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	svc := w.service(t)
	_, err := svc.Start(ctx, holdem.StartRequest{UserID: p, Stakes: []holdem.Stake{{Ante: 10_000 * money.KZT}}, IdempotencyKey: "big", Cut: "cut c", Commitment: commitment(t, svc, p)})
	errstest.Is(t, err, errs.Conflict, ledger.ReasonInsufficientFunds)
	if _, err := w.Store.HandByStartKey(ctx, p, "big"); errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("a refused start stored a hand (%v)", err)
	}
	if got := w.wallet(t, p); got != 1_000*money.KZT {
		t.Fatalf("wallet %v after a refused start", got)
	}
	if hs, err := w.Store.Hands(ctx, p, paging.IDRange{}, 10); err != nil || len(hs) != 0 {
		t.Fatalf("Hands after a refused start: %d, %v", len(hs), err)
	}
}

func testDue(t *testing.T, w *world) {
	svc := w.service(t)
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	var ids []int64
	var deadlines []time.Time
	for i := range 3 {
		sn := start(t, svc, p, fmt.Sprint("k", i), holdem.Stake{Ante: 100 * money.KZT})
		ids = append(ids, sn.ID)
		deadlines = append(deadlines, w.hand(t, sn.ID).Deadline)
		w.advance(time.Second)
	}
	if _, err := svc.Decide(ctx, holdem.DecideRequest{UserID: p, HandID: ids[1], Box: 0, Decision: holdem.Fold, IdempotencyKey: "f"}); err != nil {
		t.Fatal(err)
	}
	due := func(at time.Time, limit int) []int64 {
		t.Helper()
		got, err := w.Store.Due(ctx, at, limit)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := due(deadlines[0].Add(-time.Microsecond), 10); len(got) != 0 {
		t.Fatalf("due before any deadline: %v", got)
	}
	if got := due(deadlines[0], 10); !slices.Equal(got, ids[:1]) {
		t.Fatalf("due at the first deadline (inclusive): %v, want %v", got, ids[:1])
	}
	later := deadlines[2].Add(time.Hour)
	if got := due(later, 10); !slices.Equal(got, []int64{ids[0], ids[2]}) {
		t.Fatalf("due later: %v, want %v (settled hands left out, most overdue first)", got, []int64{ids[0], ids[2]})
	}
	if got := due(later, 1); !slices.Equal(got, ids[:1]) {
		t.Fatalf("due with limit 1: %v, want %v", got, ids[:1])
	}
}

func testHandsPaging(t *testing.T, w *world) {
	svc := w.service(t)
	p := ids.UserID(w.NewPlayer(t, "p", 10_000*money.KZT))
	q := ids.UserID(w.NewPlayer(t, "q", 10_000*money.KZT))
	var mine []int64
	for i := range 5 {
		mine = append(mine, start(t, svc, p, fmt.Sprint("k", i), holdem.Stake{Ante: 100 * money.KZT}).ID)
		start(t, svc, q, fmt.Sprint("k", i), holdem.Stake{Ante: 100 * money.KZT})
	}
	slices.Reverse(mine)
	var got []int64
	before := int64(0)
	for range 4 {
		hs, err := w.Store.Hands(ctx, p, paging.IDRange{Before: before}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(hs) > 2 {
			t.Fatalf("a page of 2 has %d hands", len(hs))
		}
		for _, h := range hs {
			if h.UserID != p {
				t.Fatalf("listed user %d's hand", h.UserID)
			}
			got = append(got, h.ID)
		}
		if len(hs) < 2 {
			break
		}
		before = hs[len(hs)-1].ID
	}
	if !slices.Equal(got, mine) {
		t.Fatalf("hands %v, want %v (newest first)", got, mine)
	}
	// A range on both sides, oldest first (mine is newest first).
	hs, err := w.Store.Hands(ctx, p, paging.IDRange{After: mine[4], Before: mine[0], Ascending: true}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var inside []int64
	for _, h := range hs {
		inside = append(inside, h.ID)
	}
	if want := []int64{mine[3], mine[2], mine[1]}; !slices.Equal(inside, want) {
		t.Fatalf("hands between %d and %d, oldest first: %v, want %v", mine[4], mine[0], inside, want)
	}
}

func testPendingSeeds(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	first := holdem.PendingSeed{UserID: p, Seed: cards.Seed{1}, Commitment: cards.Commitment(cards.Seed{1}), CreatedAt: Start}
	second := holdem.PendingSeed{UserID: p, Seed: cards.Seed{2}, Commitment: cards.Commitment(cards.Seed{2}), CreatedAt: Start.Add(time.Second)}
	if got, err := w.Store.AddPendingSeed(ctx, first); err != nil || got != first {
		t.Fatalf("AddPendingSeed = %+v, %v", got, err)
	}
	if got, err := w.Store.AddPendingSeed(ctx, second); err != nil || got != first {
		t.Fatalf("a second AddPendingSeed = %+v, %v; want the first kept", got, err)
	}
	if got, err := w.Store.PendingSeed(ctx, p); err != nil || got != first {
		t.Fatalf("PendingSeed = %+v, %v", got, err)
	}
	take := func(c [cards.SeedSize]byte, fail bool) (holdem.PendingSeed, error) {
		var got holdem.PendingSeed
		err := w.Store.Within(ctx, func(ctx context.Context, tx holdem.Tx) error {
			var err error
			if got, err = tx.TakePendingSeed(ctx, p, c); err != nil {
				return err
			}
			if _, err := tx.TakePendingSeed(ctx, p, c); errs.CodeOf(err) != errs.NotFound {
				return fmt.Errorf("taking it twice in one transaction: %v", err)
			}
			if fail {
				return errs.E(errs.Conflict, "undo")
			}
			return nil
		})
		return got, err
	}
	_, err := take(second.Commitment, false)
	errstest.Code(t, err, errs.NotFound)
	_, err = take(first.Commitment, true)
	errstest.Code(t, err, errs.Conflict)
	if got, err := w.Store.PendingSeed(ctx, p); err != nil || got != first {
		t.Fatalf("after a rolled-back take PendingSeed = %+v, %v", got, err)
	}
	if got, err := take(first.Commitment, false); err != nil || got != first {
		t.Fatalf("take = %+v, %v", got, err)
	}
	_, err = take(first.Commitment, false)
	errstest.Code(t, err, errs.NotFound)
	_, err = w.Store.PendingSeed(ctx, p)
	errstest.Code(t, err, errs.NotFound)
	if got, err := w.Store.AddPendingSeed(ctx, second); err != nil || got != second {
		t.Fatalf("AddPendingSeed after the take = %+v, %v", got, err)
	}
}

func testRetriedStart(t *testing.T, w *world) {
	svc := w.service(t)
	p := ids.UserID(w.NewPlayer(t, "p", 1_000*money.KZT))
	req := holdem.StartRequest{UserID: p, Stakes: []holdem.Stake{{Ante: 100 * money.KZT}}, IdempotencyKey: "once", Cut: "cut c", Commitment: commitment(t, svc, p)}
	const n = 6
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sn, err := svc.Start(ctx, req)
			if err != nil {
				t.Errorf("Start: %v", err)
				return
			}
			ids[i] = sn.ID
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("one request started hands %v", ids)
		}
	}
	if got := w.wallet(t, p); got != 900*money.KZT {
		t.Fatalf("wallet %v after %d retries of one start, want 900", got, n)
	}
	if hs, err := w.Store.Hands(ctx, p, paging.IDRange{}, 10); err != nil || len(hs) != 1 {
		t.Fatalf("%d hands stored, %v", len(hs), err)
	}
}

func testReplicasSettleOnce(t *testing.T, w *world) {
	p := ids.UserID(w.NewPlayer(t, "p", 10_000*money.KZT))
	replicas := []*holdem.Service{w.service(t), w.service(t), w.service(t)}
	var ids []int64
	for i := range 4 {
		ids = append(ids, start(t, replicas[0], p, fmt.Sprint("k", i), holdem.Stake{Ante: 100 * money.KZT, Bonus: 100 * money.KZT}).ID)
	}
	w.advance(time.Minute)
	var settled atomic.Int64
	var wg sync.WaitGroup
	for _, svc := range replicas {
		wg.Go(func() {
			n, err := svc.ExpireDue(ctx)
			if err != nil {
				t.Error(err)
			}
			settled.Add(int64(n))
		})
	}
	wg.Wait()
	if settled.Load() != 4 {
		t.Fatalf("the replicas settled %d hands, want 4", settled.Load())
	}
	net := money.Amount(0)
	for _, id := range ids {
		r := w.hand(t, id)
		if r.Phase != holdem.Settled || r.Version != 2 || r.ExpiredAt.IsZero() {
			t.Fatalf("hand %d after expiry: phase %s version %d expired %v", id, r.Phase, r.Version, r.ExpiredAt)
		}
		net += r.Returned - r.Staked
	}
	if got := w.wallet(t, p); got != 10_000*money.KZT+net {
		t.Fatalf("wallet %v, want %v: some hand was paid twice or not at all", got, 10_000*money.KZT+net)
	}
}
