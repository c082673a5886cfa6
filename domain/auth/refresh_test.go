package auth_test

import (
	"context"
	"crypto/sha256"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/auth/authtest"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/internal/clocktest"
)

type refreshFixture struct {
	rt    *auth.RefreshTokens
	store *authtest.MemRefreshStore
	clk   *clocktest.Clock
}

func newRefresh(t *testing.T) refreshFixture {
	t.Helper()
	clk := clocktest.New(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	store := authtest.NewMemRefreshStore()
	return refreshFixture{rt: auth.NewRefreshTokens(store, auth.RefreshConfig{Now: clk.Now}), store: store, clk: clk}
}

func TestRefreshRotation(t *testing.T) {
	ctx := context.Background()
	f := newRefresh(t)
	t1, r1, err := f.rt.Issue(ctx, 42)
	if err != nil {
		t.Fatal(err)
	}
	if len(t1) != 43 || r1.UserID != 42 || r1.FamilyID == "" || r1.Hash != sha256.Sum256([]byte(t1)) ||
		!r1.ExpiresAt.Equal(f.clk.Now().Add(auth.DefaultRefreshTTL)) {
		t.Fatalf("issued %q, %+v", t1, r1)
	}
	f.clk.Advance(time.Hour)
	t2, r2, err := f.rt.Rotate(ctx, t1)
	if err != nil {
		t.Fatal(err)
	}
	if t2 == t1 || r2.FamilyID != r1.FamilyID || r2.UserID != 42 {
		t.Fatalf("rotated to %q, %+v", t2, r2)
	}
	used, _ := f.store.Get(ctx, r1.Hash)
	if !used.UsedAt.Equal(f.clk.Now()) {
		t.Fatalf("old token not marked used: %+v", used)
	}
	t3, _, err := f.rt.Rotate(ctx, t2)
	if err != nil || t3 == t2 {
		t.Fatalf("second rotation: %q, %v", t3, err)
	}
	if f.store.Len() != 3 {
		t.Fatalf("store holds %d tokens, want 3", f.store.Len())
	}
}

func TestRefreshReuseRevokesFamily(t *testing.T) {
	ctx := context.Background()
	f := newRefresh(t)
	t1, _, _ := f.rt.Issue(ctx, 42)
	other, _, _ := f.rt.Issue(ctx, 42) // another device, another family
	t2, _, err := f.rt.Rotate(ctx, t1)
	if err != nil {
		t.Fatal(err)
	}
	// A thief replays the rotated token.
	_, _, err = f.rt.Rotate(ctx, t1)
	errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshReused)
	// The legitimate holder's current token is dead too.
	_, _, err = f.rt.Rotate(ctx, t2)
	errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshRevoked)
	_, _, err = f.rt.Rotate(ctx, t1)
	errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshRevoked)
	// The other family is untouched.
	if _, _, err := f.rt.Rotate(ctx, other); err != nil {
		t.Fatalf("unrelated family: %v", err)
	}
}

func TestRefreshConcurrentUse(t *testing.T) {
	ctx := context.Background()
	f := newRefresh(t)
	t1, _, _ := f.rt.Issue(ctx, 42)
	const n = 32
	tokens := make([]string, n)
	results := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { tokens[i], _, results[i] = f.rt.Rotate(ctx, t1) })
	}
	wg.Wait()
	winner := ""
	for i, err := range results {
		switch {
		case err == nil:
			if winner != "" {
				t.Fatal("two concurrent rotations of one token both succeeded")
			}
			winner = tokens[i]
		case errs.ReasonOf(err) != auth.ReasonRefreshReused && errs.ReasonOf(err) != auth.ReasonRefreshRevoked:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if winner == "" {
		t.Fatal("no rotation succeeded")
	}
	// The losers saw reuse and revoked the family, the winner's token included.
	_, _, err := f.rt.Rotate(ctx, winner)
	errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshRevoked)
}

func TestRefreshExpiry(t *testing.T) {
	ctx := context.Background()
	f := newRefresh(t)
	t1, _, _ := f.rt.Issue(ctx, 42)
	f.clk.Advance(auth.DefaultRefreshTTL - time.Second)
	t2, _, err := f.rt.Rotate(ctx, t1)
	if err != nil {
		t.Fatalf("rotation a second before expiry: %v", err)
	}
	// Rotation slides the session: the new token has a fresh 30 days.
	f.clk.Advance(auth.DefaultRefreshTTL)
	_, _, err = f.rt.Rotate(ctx, t2)
	errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshExpired)

	if n := f.store.Prune(f.clk.Now()); n != 1 || f.store.Len() != 1 {
		t.Fatalf("Prune dropped %d, %d left; want 1 and 1", n, f.store.Len())
	}
	f.clk.Advance(time.Second)
	if n := f.store.Prune(f.clk.Now()); n != 1 || f.store.Len() != 0 {
		t.Fatalf("second Prune dropped %d, %d left", n, f.store.Len())
	}
}

func TestRefreshLogout(t *testing.T) {
	ctx := context.Background()
	f := newRefresh(t)
	t1, _, _ := f.rt.Issue(ctx, 42)
	t2, _, _ := f.rt.Rotate(ctx, t1)
	other, _, _ := f.rt.Issue(ctx, 42)
	if err := f.rt.Revoke(ctx, t2); err != nil {
		t.Fatal(err)
	}
	_, _, err := f.rt.Rotate(ctx, t2)
	errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshRevoked)
	if err := f.rt.Revoke(ctx, t2); err != nil {
		t.Fatalf("second logout: %v", err)
	}
	if _, _, err := f.rt.Rotate(ctx, other); err != nil {
		t.Fatalf("other session ended by logout: %v", err)
	}
	errstest.Is(t, f.rt.Revoke(ctx, "nonsense"), errs.Unauthenticated, auth.ReasonInvalidToken)
}

func TestRefreshMalformed(t *testing.T) {
	ctx := context.Background()
	f := newRefresh(t)
	issued, _, _ := f.rt.Issue(ctx, 1)
	unknown, _, _ := auth.NewRefreshTokens(authtest.NewMemRefreshStore(), auth.RefreshConfig{}).Issue(ctx, 1)
	for _, tok := range []string{"", "abc", strings.Repeat("!", 43), issued + "A", issued[:42], issued + "=", strings.Repeat("A", 1<<20), unknown} {
		_, _, err := f.rt.Rotate(ctx, tok)
		errstest.Is(t, err, errs.Unauthenticated, auth.ReasonInvalidToken)
	}
}

func TestMemRefreshStore(t *testing.T) {
	ctx := context.Background()
	s := authtest.NewMemRefreshStore()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	rec := auth.RefreshRecord{Hash: sha256.Sum256([]byte("x")), FamilyID: "f", UserID: 1, IssuedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, rec); !errs.Is(err, errs.Conflict) {
		t.Fatalf("duplicate Create: %v", err)
	}
	if _, err := s.Get(ctx, auth.TokenHash{}); !errs.Is(err, errs.NotFound) {
		t.Fatalf("Get unknown: %v", err)
	}
	if _, err := s.MarkUsed(ctx, auth.TokenHash{}, now); !errs.Is(err, errs.NotFound) {
		t.Fatalf("MarkUsed unknown: %v", err)
	}

	t.Run("MarkUsed is atomic", func(t *testing.T) {
		var wg sync.WaitGroup
		wins := make(chan bool, 50)
		for range 50 {
			wg.Go(func() {
				ok, err := s.MarkUsed(ctx, rec.Hash, now)
				if err != nil {
					t.Error(err)
				}
				wins <- ok
			})
		}
		wg.Wait()
		close(wins)
		n := 0
		for ok := range wins {
			if ok {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d MarkUsed calls won, want 1", n)
		}
	})

	t.Run("revocation covers tokens created later", func(t *testing.T) {
		if err := s.RevokeFamily(ctx, "f", now); err != nil {
			t.Fatal(err)
		}
		late := auth.RefreshRecord{Hash: sha256.Sum256([]byte("y")), FamilyID: "f", UserID: 1, IssuedAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := s.Create(ctx, late); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, late.Hash)
		if err != nil || !got.Revoked {
			t.Fatalf("late token in a revoked family: %+v, %v", got, err)
		}
	})
}
