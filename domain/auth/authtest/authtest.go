// Package authtest is the conformance suite of auth.RefreshStore: refresh
// tokens, their single use and their families' revocation. The in-memory
// twin (MemRefreshStore) runs it in its unit tests; persistence runs
// the very same tests against SQLite and Postgres.
//
//	authtest.Run(t, func(t *testing.T) authtest.Env { ... })
package authtest

import (
	"context"
	"crypto/sha256"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
)

// Env is one fresh, empty store and what the suite needs around it.
type Env struct {
	Store auth.RefreshStore
	// Prune drops the tokens that expired before now, then the revocations
	// of families with no token left, and reports how many tokens it
	// dropped.
	Prune func(now time.Time) (int64, error)
	// Users are two distinct users the tokens may belong to (the database
	// wants them to exist).
	Users [2]int64
}

// Start is the suite's first instant.
var Start = time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)

// Run runs the whole suite; newEnv is called once per subtest.
func Run(t *testing.T, newEnv func(t *testing.T) Env) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, e Env)
	}{
		{"CreateAndGet", testCreateGet},
		{"CreateIgnoresUsedAndRevoked", testCreateIgnores},
		{"DuplicateHashConflicts", testDuplicate},
		{"NotFound", testNotFound},
		{"MarkUsedOnce", testMarkUsed},
		{"MarkUsedRaceOneWins", testMarkUsedRace},
		{"RevokeFamily", testRevokeFamily},
		{"RevokeUser", testRevokeUser},
		{"PruneExpired", testPrune},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each test has its own store
			tc.run(t, newEnv(t))
		})
	}
}

var ctx = context.Background()

// Record is a token of user in family, issued at issued for a day.
func Record(user int64, family, token string, issued time.Time) auth.RefreshRecord {
	return auth.RefreshRecord{
		Hash:      sha256.Sum256([]byte(token)),
		FamilyID:  family,
		UserID:    user,
		IssuedAt:  issued,
		ExpiresAt: issued.Add(24 * time.Hour),
	}
}

func create(t *testing.T, e Env, r auth.RefreshRecord) {
	t.Helper()
	if err := e.Store.Create(ctx, r); err != nil {
		t.Fatalf("Create(%s): %v", r.FamilyID, err)
	}
}

func get(t *testing.T, e Env, h auth.TokenHash) auth.RefreshRecord {
	t.Helper()
	r, err := e.Store.Get(ctx, h)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	return r
}

func same(a, b auth.RefreshRecord) bool {
	return a.Hash == b.Hash && a.FamilyID == b.FamilyID && a.UserID == b.UserID && a.IssuedAt.Equal(b.IssuedAt) &&
		a.ExpiresAt.Equal(b.ExpiresAt) && a.UsedAt.Equal(b.UsedAt) && a.Revoked == b.Revoked
}

func testCreateGet(t *testing.T, e Env) {
	a := Record(e.Users[0], "fam-a", "t1", Start)
	b := Record(e.Users[1], "fam-b", "t2", Start.Add(time.Minute))
	create(t, e, a)
	create(t, e, b)
	if got := get(t, e, a.Hash); !same(got, a) {
		t.Fatalf("Get = %+v, want %+v", got, a)
	}
	if got := get(t, e, b.Hash); !same(got, b) {
		t.Fatalf("Get = %+v, want %+v", got, b)
	}
}

func testCreateIgnores(t *testing.T, e Env) {
	r := Record(e.Users[0], "fam", "t1", Start)
	r.UsedAt, r.Revoked = Start.Add(time.Second), true
	create(t, e, r)
	got := get(t, e, r.Hash)
	if !got.UsedAt.IsZero() || got.Revoked {
		t.Fatalf("a new token reads %+v: want unused and not revoked", got)
	}
	if ok, err := e.Store.MarkUsed(ctx, r.Hash, Start.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("first MarkUsed of a new token = %v, %v", ok, err)
	}
}

func testDuplicate(t *testing.T, e Env) {
	r := Record(e.Users[0], "fam", "t1", Start)
	create(t, e, r)
	other := Record(e.Users[1], "other", "t1", Start.Add(time.Hour))
	if err := e.Store.Create(ctx, other); errs.CodeOf(err) != errs.Conflict {
		t.Fatalf("second Create of one hash: %v (code %s), want Conflict", err, errs.CodeOf(err))
	}
	if got := get(t, e, r.Hash); !same(got, r) {
		t.Fatalf("after the refused Create the token reads %+v, want %+v", got, r)
	}
}

func testNotFound(t *testing.T, e Env) {
	h := sha256.Sum256([]byte("never issued"))
	if _, err := e.Store.Get(ctx, h); errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("Get unknown: %v, want NotFound", err)
	}
	if ok, err := e.Store.MarkUsed(ctx, h, Start); ok || errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("MarkUsed unknown = %v, %v; want false, NotFound", ok, err)
	}
	if err := e.Store.RevokeFamily(ctx, "no-such-family", Start); err != nil {
		t.Fatalf("revoking a family with no tokens: %v", err)
	}
}

func testMarkUsed(t *testing.T, e Env) {
	r := Record(e.Users[0], "fam", "t1", Start)
	other := Record(e.Users[0], "fam", "t2", Start)
	create(t, e, r)
	create(t, e, other)
	first := Start.Add(time.Minute)
	if ok, err := e.Store.MarkUsed(ctx, r.Hash, first); err != nil || !ok {
		t.Fatalf("first MarkUsed = %v, %v; want true", ok, err)
	}
	if ok, err := e.Store.MarkUsed(ctx, r.Hash, first.Add(time.Minute)); err != nil || ok {
		t.Fatalf("second MarkUsed = %v, %v; want false", ok, err)
	}
	if got := get(t, e, r.Hash); !got.UsedAt.Equal(first) {
		t.Fatalf("UsedAt %v, want the first use %v", got.UsedAt, first)
	}
	if got := get(t, e, other.Hash); !got.UsedAt.IsZero() {
		t.Fatalf("another token of the family reads used at %v", got.UsedAt)
	}
}

func testMarkUsedRace(t *testing.T, e Env) {
	r := Record(e.Users[0], "fam", "t1", Start)
	create(t, e, r)
	const n = 12
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			ok, err := e.Store.MarkUsed(ctx, r.Hash, Start.Add(time.Duration(i+1)*time.Second))
			if err != nil {
				t.Errorf("MarkUsed: %v", err)
			}
			if ok {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d concurrent exchanges of one token succeeded, want 1", wins.Load())
	}
}

func testRevokeFamily(t *testing.T, e Env) {
	a1 := Record(e.Users[0], "fam-a", "a1", Start)
	a2 := Record(e.Users[0], "fam-a", "a2", Start)
	b := Record(e.Users[0], "fam-b", "b1", Start)
	for _, r := range []auth.RefreshRecord{a1, a2, b} {
		create(t, e, r)
	}
	for range 2 { // twice is fine
		if err := e.Store.RevokeFamily(ctx, "fam-a", Start.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range []auth.TokenHash{a1.Hash, a2.Hash} {
		if !get(t, e, h).Revoked {
			t.Fatal("a token of the revoked family reads not revoked")
		}
	}
	if get(t, e, b.Hash).Revoked {
		t.Fatal("a token of another family reads revoked")
	}
	later := Record(e.Users[0], "fam-a", "a3", Start.Add(time.Hour))
	create(t, e, later)
	if !get(t, e, later.Hash).Revoked {
		t.Fatal("a token created in a revoked family later reads not revoked")
	}
}

func testRevokeUser(t *testing.T, e Env) {
	a1 := Record(e.Users[0], "fam-a", "a1", Start)
	a2 := Record(e.Users[0], "fam-b", "a2", Start)
	other := Record(e.Users[1], "fam-c", "c1", Start)
	for _, r := range []auth.RefreshRecord{a1, a2, other} {
		create(t, e, r)
	}
	if err := e.Store.RevokeFamily(ctx, "fam-b", Start); err != nil {
		t.Fatal(err)
	}
	for range 2 { // twice is fine, and so is a family revoked already
		if err := e.Store.RevokeUser(ctx, e.Users[0], Start.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range []auth.TokenHash{a1.Hash, a2.Hash} {
		if !get(t, e, h).Revoked {
			t.Fatal("a token of the revoked user reads not revoked")
		}
	}
	if get(t, e, other.Hash).Revoked {
		t.Fatal("another user's token reads revoked")
	}
	later := Record(e.Users[0], "fam-a", "a3", Start.Add(time.Hour))
	create(t, e, later)
	if !get(t, e, later.Hash).Revoked {
		t.Fatal("a token created later in a family of the revoked user reads not revoked")
	}
}

func testPrune(t *testing.T, e Env) {
	old := Record(e.Users[0], "fam-old", "old", Start)                   // expires Start+24h
	edge := Record(e.Users[1], "fam-edge", "edge", Start.Add(time.Hour)) // expires exactly at the prune time
	live := Record(e.Users[1], "fam-live", "live", Start.Add(2*time.Hour))
	for _, r := range []auth.RefreshRecord{old, edge, live} {
		create(t, e, r)
	}
	for _, f := range []string{"fam-old", "fam-live"} {
		if err := e.Store.RevokeFamily(ctx, f, Start); err != nil {
			t.Fatal(err)
		}
	}
	n, err := e.Prune(edge.ExpiresAt)
	if err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1 (only the token expired before now)", n, err)
	}
	if _, err := e.Store.Get(ctx, old.Hash); errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("the expired token is still there (%v)", err)
	}
	if got := get(t, e, edge.Hash); got.Revoked {
		t.Fatal("a token expiring exactly now was pruned or revoked")
	}
	if !get(t, e, live.Hash).Revoked {
		t.Fatal("pruning forgot the revocation of a family that still has a token")
	}
	// The revocation of a family with no token left is forgotten with it.
	again := Record(e.Users[0], "fam-old", "old-again", Start.Add(3*time.Hour))
	create(t, e, again)
	if get(t, e, again.Hash).Revoked {
		t.Fatal("the revocation of a pruned family outlived its tokens")
	}
	if n, err := e.Prune(edge.ExpiresAt); err != nil || n != 0 {
		t.Fatalf("second Prune = %d, %v; want 0", n, err)
	}
}
