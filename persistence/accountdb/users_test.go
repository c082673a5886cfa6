package accountdb_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/accountdb/accountdbtest"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// The user store's behaviour is account.UserStore's conformance suite,
// run on both databases in conformance_test.go. What is left here is what
// only a database does.

// TestUserRepoKeepsMicroseconds: both dialects store times to the
// microsecond, so a verification reads back its submission time truncated,
// never rounded up past the moment it was made.
func TestUserRepoKeepsMicroseconds(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2025, 6, 14, 19, 30, 0, 123456789, time.UTC)
	for _, dialect := range sqldbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			r := accountdb.NewUserRepo(sqldbtest.Open(t, dialect))
			u := accountdbtest.MustCreateUser(t, r, "player@example.kz")
			v, err := r.SaveVerification(ctx, account.VerificationChange{From: account.NotSubmitted, Verification: account.Verification{
				UserID:       u.ID,
				DocumentType: account.IDCard,
				DocumentHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
				DateOfBirth:  account.MustParseDate("1990-02-28"),
				Status:       account.Pending,
				SubmittedAt:  at,
			}})
			if err != nil {
				t.Fatal(err)
			}
			want := at.Truncate(time.Microsecond)
			if !v.SubmittedAt.Equal(want) {
				t.Fatalf("saved SubmittedAt %v, want %v", v.SubmittedAt, want)
			}
			if got, err := r.VerificationByID(ctx, v.ID); err != nil || !got.SubmittedAt.Equal(want) || got != v {
				t.Fatalf("read back %+v, %v; want %+v", got, err, v)
			}
		})
	}
}
