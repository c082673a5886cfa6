package accountdb_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/auth"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// refreshFixture is a refresh store on a fresh database with one user.
func refreshFixture(t *testing.T, dialect string) (*accountdb.RefreshRepo, int64) {
	t.Helper()
	db := sqldbtest.Open(t, dialect)
	u := accountdbtest.MustCreateUser(t, accountdb.NewUserRepo(db), "player@example.kz")
	return accountdb.NewRefreshRepo(db), u.ID
}

// The refresh store's behaviour is auth.RefreshStore's conformance suite,
// run on both databases in conformance_test.go; these tests add what only
// a database shows: many connections racing one token, the domain's
// rotation over the real store, and the stored times' rounding.

func record(userID int64, family, token string, issued time.Time) auth.RefreshRecord {
	return auth.RefreshRecord{
		Hash:      sha256.Sum256([]byte(token)),
		FamilyID:  family,
		UserID:    userID,
		IssuedAt:  issued,
		ExpiresAt: issued.Add(auth.DefaultRefreshTTL),
	}
}

// TestRefreshRepoMarkUsedIsAtomic races 20 exchanges of one token: the
// database lets exactly one win.
func TestRefreshRepoMarkUsedIsAtomic(t *testing.T) {
	const n = 20
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			s, userID := refreshFixture(t, dialect)
			for round := range 5 {
				rec := record(userID, "fam", fmt.Sprintf("token-%d", round), time.Now())
				if err := s.Create(context.Background(), rec); err != nil {
					t.Fatal(err)
				}
				var won atomic.Int64
				var wg sync.WaitGroup
				start := make(chan struct{})
				for range n {
					wg.Go(func() {
						<-start
						ok, err := s.MarkUsed(context.Background(), rec.Hash, time.Now())
						if err != nil {
							t.Errorf("MarkUsed: %v", err)
						}
						if ok {
							won.Add(1)
						}
					})
				}
				close(start)
				wg.Wait()
				if won.Load() != 1 {
					t.Fatalf("round %d: %d of %d concurrent MarkUsed won, want exactly 1", round, won.Load(), n)
				}
			}
		})
	}
}

// TestRefreshRepoWithRotation drives the domain's RefreshTokens over the
// database store: rotation, then reuse of the rotated token revoking the
// whole family.
func TestRefreshRepoWithRotation(t *testing.T) {
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			s, userID := refreshFixture(t, dialect)
			tokens := auth.NewRefreshTokens(s, auth.RefreshConfig{})
			first, _, err := tokens.Issue(ctx, userID)
			if err != nil {
				t.Fatal(err)
			}
			second, rec, err := tokens.Rotate(ctx, first)
			if err != nil || rec.UserID != userID {
				t.Fatalf("Rotate = %+v, %v", rec, err)
			}
			_, _, err = tokens.Rotate(ctx, first)
			errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshReused)
			_, _, err = tokens.Rotate(ctx, second)
			errstest.Is(t, err, errs.Unauthenticated, auth.ReasonRefreshRevoked)
		})
	}
}

func TestRefreshRepoPrune(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2025, 6, 14, 12, 0, 0, 0, time.UTC)
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			s, userID := refreshFixture(t, dialect)
			old := record(userID, "old", "old", now.Add(-40*24*time.Hour))
			live := record(userID, "live", "live", now.Add(-time.Hour))
			// Expires 1.5 microseconds after now: stored rounding must not drop it.
			edge := record(userID, "edge", "edge", now)
			edge.ExpiresAt = now.Add(1500 * time.Nanosecond)
			for _, r := range []auth.RefreshRecord{old, live, edge} {
				if err := s.Create(ctx, r); err != nil {
					t.Fatal(err)
				}
				if err := s.RevokeFamily(ctx, r.FamilyID, now); err != nil {
					t.Fatal(err)
				}
			}
			n, err := s.Prune(ctx, now)
			if err != nil || n != 1 {
				t.Fatalf("Prune = %d, %v; want 1", n, err)
			}
			_, err = s.Get(ctx, old.Hash)
			errstest.Code(t, err, errs.NotFound)
			for _, r := range []auth.RefreshRecord{live, edge} {
				if got, err := s.Get(ctx, r.Hash); err != nil || !got.Revoked {
					t.Fatalf("Get(%s) after Prune = %+v, %v", r.FamilyID, got, err)
				}
			}
		})
	}
}
