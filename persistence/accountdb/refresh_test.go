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

func record(userID int64, family, token string, issued time.Time) auth.RefreshRecord {
	return auth.RefreshRecord{
		Hash:      sha256.Sum256([]byte(token)),
		FamilyID:  family,
		UserID:    userID,
		IssuedAt:  issued,
		ExpiresAt: issued.Add(auth.DefaultRefreshTTL),
	}
}

func TestRefreshRepoCreateGet(t *testing.T) {
	ctx := context.Background()
	issued := time.Date(2025, 6, 14, 19, 30, 0, 0, time.UTC)
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			s, userID := refreshFixture(t, dialect)
			rec := record(userID, "fam-1", "token-1", issued)
			rec.Revoked = true  // ignored by Create
			rec.UsedAt = issued // a new token is unused whatever it says
			if err := s.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, rec.Hash)
			if err != nil {
				t.Fatal(err)
			}
			want := rec
			want.Revoked, want.UsedAt = false, time.Time{}
			if got != want {
				t.Fatalf("Get = %+v, want %+v", got, want)
			}
			errstest.Code(t, s.Create(ctx, rec), errs.Conflict)
			_, err = s.Get(ctx, sha256.Sum256([]byte("unknown")))
			errstest.Code(t, err, errs.NotFound)
			_, err = s.MarkUsed(ctx, sha256.Sum256([]byte("unknown")), issued)
			errstest.Code(t, err, errs.NotFound)

			used := issued.Add(time.Hour)
			if won, err := s.MarkUsed(ctx, rec.Hash, used); err != nil || !won {
				t.Fatalf("MarkUsed = %v, %v; want true", won, err)
			}
			if won, err := s.MarkUsed(ctx, rec.Hash, used.Add(time.Second)); err != nil || won {
				t.Fatalf("second MarkUsed = %v, %v; want false", won, err)
			}
			if got, err := s.Get(ctx, rec.Hash); err != nil || !got.UsedAt.Equal(used) {
				t.Fatalf("after MarkUsed: %+v, %v", got, err)
			}
		})
	}
}

// TestRefreshRepoMarkUsedIsAtomic races 20 exchanges of one token: the
// database lets exactly one win.
func TestRefreshRepoMarkUsedIsAtomic(t *testing.T) {
	const n = 20
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
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

func TestRefreshRepoRevokeFamily(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			s, userID := refreshFixture(t, dialect)
			a1, b1 := record(userID, "fam-a", "a1", now), record(userID, "fam-b", "b1", now)
			for _, r := range []auth.RefreshRecord{a1, b1} {
				if err := s.Create(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			for range 2 { // revoking twice is fine
				if err := s.RevokeFamily(ctx, "fam-a", now); err != nil {
					t.Fatal(err)
				}
			}
			// A token created in the family afterwards is revoked too.
			a2 := record(userID, "fam-a", "a2", now)
			if err := s.Create(ctx, a2); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				rec     auth.RefreshRecord
				revoked bool
			}{{a1, true}, {a2, true}, {b1, false}} {
				got, err := s.Get(ctx, tc.rec.Hash)
				if err != nil || got.Revoked != tc.revoked {
					t.Fatalf("Get(%s) = %+v, %v; want Revoked %v", tc.rec.FamilyID, got, err, tc.revoked)
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
