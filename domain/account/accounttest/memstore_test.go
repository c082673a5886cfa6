package accounttest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/errs"
)

func TestMemStoreEmailUniqueUnderConcurrency(t *testing.T) {
	s := accounttest.NewMemStore(nil)
	var wg sync.WaitGroup
	errsSeen := make([]error, 50)
	for i := range errsSeen {
		wg.Go(func() {
			_, errsSeen[i] = s.Create(context.Background(), account.User{Email: "same@x.kz", Role: account.Player})
		})
	}
	wg.Wait()
	created := 0
	for _, err := range errsSeen {
		switch {
		case err == nil:
			created++
		case errs.ReasonOf(err) != "EMAIL_TAKEN" || !errs.Is(err, errs.Conflict):
			t.Fatalf("unexpected error %v", err)
		}
	}
	if created != 1 {
		t.Fatalf("%d accounts created for one email, want 1", created)
	}
}

func TestMemStoreSaveVerificationChecksFrom(t *testing.T) {
	ctx := context.Background()
	s := accounttest.NewMemStore(nil)
	u, _ := s.Create(ctx, account.User{Email: "p@x.kz", Role: account.Player})
	v := account.Verification{UserID: u.ID, Status: account.Pending}
	if _, err := s.SaveVerification(ctx, account.VerificationChange{Verification: v, From: account.Rejected}); errs.ReasonOf(err) != account.ReasonVerificationChanged {
		t.Fatalf("wrong From accepted: %v", err)
	}
	first, err := s.SaveVerification(ctx, account.VerificationChange{Verification: v, From: account.NotSubmitted})
	if err != nil {
		t.Fatal(err)
	}
	first.Status = account.Rejected
	if _, err := s.SaveVerification(ctx, account.VerificationChange{Verification: first, From: account.Pending}); err != nil {
		t.Fatal(err)
	}
	second, err := s.SaveVerification(ctx, account.VerificationChange{Verification: v, From: account.Rejected})
	if err != nil {
		t.Fatal(err)
	}
	// An older verification can no longer change.
	first.Status = account.Approved
	if _, err := s.SaveVerification(ctx, account.VerificationChange{Verification: first, From: account.Pending}); errs.ReasonOf(err) != account.ReasonVerificationChanged {
		t.Fatalf("update of a superseded verification: %v", err)
	}
	if got, _ := s.Verification(ctx, u.ID); got.ID != second.ID {
		t.Fatalf("latest = %d, want %d", got.ID, second.ID)
	}
	if _, err := s.Verification(ctx, 999); !errs.Is(err, errs.NotFound) {
		t.Fatalf("Verification of unknown user: %v", err)
	}
}

func TestMemStoreAuditPaging(t *testing.T) {
	ctx := context.Background()
	s := accounttest.NewMemStore(nil)
	for i := range 7 {
		e, err := s.AppendAudit(ctx, account.AuditEntry{ActorID: 1, Action: "X", Detail: string(rune('a' + i))})
		if err != nil || e.ID != int64(i+1) || e.At.IsZero() {
			t.Fatalf("AppendAudit = %+v, %v", e, err)
		}
	}
	var got string
	page := account.Page{Limit: 3}
	for range 5 {
		es, next, err := s.ListAudit(ctx, account.AuditFilter{}, page)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			got += e.Detail
		}
		if next == 0 {
			break
		}
		page.After = next
	}
	if got != "gfedcba" {
		t.Fatalf("audit newest first = %q, want gfedcba", got)
	}
}

// TestMemStoreConformance runs the UserStore suite against the in-memory
// twin; persistence runs it against SQLite and Postgres.
func TestMemStoreConformance(t *testing.T) {
	accounttest.Run(t, func(t *testing.T, now func() time.Time) account.UserStore {
		return accounttest.NewMemStore(now)
	})
}
