package accountdb_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

func TestUserRepoUsers(t *testing.T) {
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			u := accountdbtest.MustCreateUser(t, r, "aigerim@example.kz")
			if u.ID <= 0 || u.Verification != account.NotSubmitted || u.CreatedAt.IsZero() {
				t.Fatalf("created user = %+v", u)
			}
			byEmail, err := r.ByEmail(ctx, "aigerim@example.kz")
			if err != nil {
				t.Fatal(err)
			}
			byID, err := r.ByID(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, got := range []account.User{byEmail, byID} {
				if got != u {
					t.Fatalf("read back %+v, want %+v", got, u)
				}
			}

			t.Run("email taken", func(t *testing.T) {
				for _, email := range []string{"aigerim@example.kz", "Aigerim@Example.KZ"} {
					_, err := r.Create(ctx, accountdbtest.NewUser(email))
					errstest.Is(t, err, errs.Conflict, "EMAIL_TAKEN")
				}
			})
			t.Run("not found", func(t *testing.T) {
				_, err := r.ByEmail(ctx, "nobody@example.kz")
				errstest.Code(t, err, errs.NotFound)
				_, err = r.ByID(ctx, u.ID+100)
				errstest.Code(t, err, errs.NotFound)
				err = r.SetPasswordHash(ctx, u.ID+100, "x")
				errstest.Code(t, err, errs.NotFound)
				_, err = r.SetRole(ctx, u.ID+100, account.Admin, account.AuditEntry{Action: "ROLE_CHANGED"})
				errstest.Code(t, err, errs.NotFound)
			})
			t.Run("password hash", func(t *testing.T) {
				if err := r.SetPasswordHash(ctx, u.ID, "$argon2id$new"); err != nil {
					t.Fatal(err)
				}
				got, err := r.ByID(ctx, u.ID)
				if err != nil || got.PasswordHash != "$argon2id$new" {
					t.Fatalf("after SetPasswordHash: %+v, %v", got, err)
				}
			})
			t.Run("role with audit", func(t *testing.T) {
				admin := accountdbtest.MustCreateUser(t, r, "admin@example.kz")
				got, err := r.SetRole(ctx, u.ID, account.Affiliate, account.AuditEntry{ActorID: admin.ID, Action: "ROLE_CHANGED", SubjectID: u.ID, Detail: "AFFILIATE"})
				if err != nil || got.Role != account.Affiliate || got.ID != u.ID {
					t.Fatalf("SetRole = %+v, %v", got, err)
				}
				list, _, err := r.ListAudit(ctx, account.AuditFilter{}, account.Page{Limit: 1})
				if err != nil || len(list) != 1 || list[0].Action != "ROLE_CHANGED" || list[0].SubjectID != u.ID || list[0].ActorID != admin.ID {
					t.Fatalf("audit after SetRole = %+v, %v", list, err)
				}
			})
		})
	}
}

// TestUserRepoConcurrentRegistration races one email: exactly one account.
func TestUserRepoConcurrentRegistration(t *testing.T) {
	const n = 20
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			var ok, taken atomic.Int64
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					_, err := r.Create(context.Background(), accountdbtest.NewUser("race@example.kz"))
					switch {
					case err == nil:
						ok.Add(1)
					case errs.ReasonOf(err) == "EMAIL_TAKEN":
						taken.Add(1)
					default:
						t.Errorf("Create: %v", err)
					}
				})
			}
			wg.Wait()
			if ok.Load() != 1 || taken.Load() != n-1 {
				t.Fatalf("%d created, %d taken; want 1 and %d", ok.Load(), taken.Load(), n-1)
			}
		})
	}
}

func submission(userID int64) account.Verification {
	return account.Verification{
		UserID:       userID,
		DocumentType: account.IDCard,
		DocumentHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		DateOfBirth:  account.MustParseDate("1990-02-28"),
		Status:       account.Pending,
		SubmittedAt:  time.Date(2025, 6, 14, 19, 30, 0, 123456789, time.UTC),
	}
}

func TestUserRepoVerificationLifecycle(t *testing.T) {
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			u := accountdbtest.MustCreateUser(t, r, "player@example.kz")
			admin := accountdbtest.MustCreateUser(t, r, "admin@example.kz")

			_, err := r.Verification(ctx, u.ID)
			errstest.Code(t, err, errs.NotFound)
			_, err = r.VerificationByID(ctx, 12345)
			errstest.Code(t, err, errs.NotFound)
			_, err = r.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID + 100), From: account.NotSubmitted})
			errstest.Code(t, err, errs.NotFound)

			// Submit.
			v, err := r.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID), From: account.NotSubmitted})
			if err != nil {
				t.Fatal(err)
			}
			if v.ID <= 0 || v.Status != account.Pending || !v.SubmittedAt.Equal(submission(0).SubmittedAt.Truncate(time.Microsecond)) {
				t.Fatalf("submitted = %+v", v)
			}
			if got, err := r.Verification(ctx, u.ID); err != nil || got != v {
				t.Fatalf("Verification = %+v, %v; want %+v", got, err, v)
			}
			if got, err := r.ByID(ctx, u.ID); err != nil || got.Verification != account.Pending {
				t.Fatalf("user after submission: %+v, %v", got, err)
			}
			// A second submission racing the first sees the status changed.
			_, err = r.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID), From: account.NotSubmitted})
			errstest.Is(t, err, errs.Conflict, account.ReasonVerificationChanged)

			// Reject, with audit.
			rejected := v
			rejected.Status = account.Rejected
			rejected.Reason = "photo unreadable"
			rejected.DecidedAt = time.Date(2025, 6, 15, 8, 0, 0, 0, time.UTC)
			rejected.DecidedBy = admin.ID
			audit := &account.AuditEntry{ActorID: admin.ID, Action: account.ActionVerificationRejected, SubjectID: u.ID, Detail: "photo unreadable"}
			got, err := r.SaveVerification(ctx, account.VerificationChange{Verification: rejected, From: account.Pending, Audit: audit})
			if err != nil || got != rejected {
				t.Fatalf("rejected = %+v, %v; want %+v", got, err, rejected)
			}
			if got, err := r.VerificationByID(ctx, v.ID); err != nil || got != rejected {
				t.Fatalf("VerificationByID = %+v, %v", got, err)
			}
			list, _, err := r.ListAudit(ctx, account.AuditFilter{}, account.Page{})
			if err != nil || len(list) != 1 || list[0].Action != account.ActionVerificationRejected || list[0].Detail != "photo unreadable" {
				t.Fatalf("audit = %+v, %v", list, err)
			}

			// Resubmit: a new latest verification.
			again, err := r.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID), From: account.Rejected})
			if err != nil || again.ID <= v.ID {
				t.Fatalf("resubmitted = %+v, %v", again, err)
			}
			// The old one can no longer change, whatever From says.
			stale := rejected
			stale.Status = account.Approved
			_, err = r.SaveVerification(ctx, account.VerificationChange{Verification: stale, From: account.Pending})
			errstest.Is(t, err, errs.Conflict, account.ReasonVerificationChanged)
			if got, err := r.ByID(ctx, u.ID); err != nil || got.Verification != account.Pending {
				t.Fatalf("a refused change left the user at %+v, %v", got, err)
			}

			// Approve the latest.
			approved := again
			approved.Status = account.Approved
			approved.DecidedAt = time.Date(2025, 6, 16, 8, 0, 0, 0, time.UTC)
			approved.DecidedBy = admin.ID
			if _, err := r.SaveVerification(ctx, account.VerificationChange{Verification: approved, From: account.Pending}); err != nil {
				t.Fatal(err)
			}
			if got, err := r.ByID(ctx, u.ID); err != nil || got.Verification != account.Approved {
				t.Fatalf("user after approval: %+v, %v", got, err)
			}
			if got, err := r.Verification(ctx, u.ID); err != nil || got != approved {
				t.Fatalf("latest = %+v, %v; want %+v", got, err, approved)
			}
		})
	}
}

// TestUserRepoConcurrentDecisions has many admins decide one pending
// verification at once: exactly one decision lands.
func TestUserRepoConcurrentDecisions(t *testing.T) {
	const n = 20
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			u := accountdbtest.MustCreateUser(t, r, "player@example.kz")
			admin := accountdbtest.MustCreateUser(t, r, "admin@example.kz")
			v, err := r.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID), From: account.NotSubmitted})
			if err != nil {
				t.Fatal(err)
			}
			var won, lost atomic.Int64
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					d := v
					d.Status, d.DecidedBy, d.DecidedAt = account.Approved, admin.ID, time.Now()
					if i%2 == 1 {
						d.Status, d.Reason = account.Rejected, "no"
					}
					_, err := r.SaveVerification(ctx, account.VerificationChange{
						Verification: d, From: account.Pending,
						Audit: &account.AuditEntry{ActorID: admin.ID, Action: "DECIDED", SubjectID: u.ID},
					})
					switch {
					case err == nil:
						won.Add(1)
					case errs.ReasonOf(err) == account.ReasonVerificationChanged:
						lost.Add(1)
					default:
						t.Errorf("SaveVerification: %v", err)
					}
				})
			}
			wg.Wait()
			if won.Load() != 1 || lost.Load() != n-1 {
				t.Fatalf("%d decisions landed, %d refused; want 1 and %d", won.Load(), lost.Load(), n-1)
			}
			if list, _, err := r.ListAudit(ctx, account.AuditFilter{}, account.Page{}); err != nil || len(list) != 1 {
				t.Fatalf("audit has %d entries (%v), want 1: refused decisions leave none", len(list), err)
			}
		})
	}
}

func TestUserRepoPendingPaging(t *testing.T) {
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			var want []int64
			for i := range 7 {
				u := accountdbtest.MustCreateUser(t, r, fmt.Sprintf("p%d@example.kz", i))
				v, err := r.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID), From: account.NotSubmitted})
				if err != nil {
					t.Fatal(err)
				}
				if i == 3 { // decided: not pending any more
					v.Status, v.DecidedAt, v.DecidedBy = account.Approved, time.Now(), u.ID
					if _, err := r.SaveVerification(ctx, account.VerificationChange{Verification: v, From: account.Pending}); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want = append(want, v.ID)
			}
			var got []int64
			p := account.Page{Limit: 2}
			for pages := 0; ; pages++ {
				if pages > 4 {
					t.Fatal("paging does not end")
				}
				list, next, err := r.ListPendingVerifications(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				if len(list) > 2 {
					t.Fatalf("page of %d, limit 2", len(list))
				}
				for _, v := range list {
					if v.Status != account.Pending {
						t.Fatalf("listed %+v", v)
					}
					got = append(got, v.ID)
				}
				if next == 0 {
					break
				}
				p.After = next
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("pending ids %v, want %v (oldest first)", got, want)
			}
		})
	}
}

func TestUserRepoAudit(t *testing.T) {
	ctx := context.Background()
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			admin := accountdbtest.MustCreateUser(t, r, "admin@example.kz")
			at := time.Date(2025, 1, 2, 3, 4, 5, 6000, time.UTC)
			var want []account.AuditEntry
			for i := range 5 {
				e := account.AuditEntry{ActorID: admin.ID, Action: fmt.Sprintf("ACTION_%d", i), SubjectID: int64(i), Detail: "détail"}
				if i%2 == 0 {
					e.At = at.Add(time.Duration(i) * time.Minute)
				}
				got, err := r.AppendAudit(ctx, e)
				if err != nil {
					t.Fatal(err)
				}
				if got.ID <= 0 || got.At.IsZero() || (i%2 == 0 && !got.At.Equal(e.At)) {
					t.Fatalf("appended %+v from %+v", got, e)
				}
				want = append(want, got)
			}
			var got []account.AuditEntry
			p := account.Page{Limit: 2}
			for pages := 0; ; pages++ {
				if pages > 4 {
					t.Fatal("paging does not end")
				}
				list, next, err := r.ListAudit(ctx, account.AuditFilter{}, p)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, list...)
				if next == 0 {
					break
				}
				p.After = next
			}
			if len(got) != len(want) {
				t.Fatalf("listed %d entries, want %d", len(got), len(want))
			}
			for i, g := range got {
				w := want[len(want)-1-i]
				if g.ID != w.ID || !g.At.Equal(w.At) || g.ActorID != w.ActorID || g.Action != w.Action || g.SubjectID != w.SubjectID || g.Detail != w.Detail {
					t.Fatalf("entry %d = %+v, want %+v (newest first)", i, g, w)
				}
			}
		})
	}
}
