package account_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/internal/clocktest"
)

// TestTerms: a player registered under one version of the terms has
// accepted it at registration; once the operator puts a new version in
// force they have not accepted it until they do, and only that version is
// taken. Staff provisioned without terms have accepted none.
func TestTerms(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.New(birthdayInstant)
	store := accounttest.NewMemStore(clk.Now)
	svc := func(version string) *account.Service {
		s, err := account.NewService(store, account.Config{DocumentPepper: pepper, Now: clk.Now, TermsVersion: version}, account.WithCheapHashing)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	v1 := svc("v1")
	p, err := v1.Register(ctx, account.Registration{Email: "p@example.kz", Password: "long enough password", Name: "P", DateOfBirth: account.MustParseDate("1990-01-01"), AcceptedTerms: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v1.Terms(ctx, p.ID); err != nil || got.Version != "v1" || got.AcceptedAt == nil || !got.AcceptedAt.Equal(birthdayInstant) {
		t.Fatalf("after registering: %+v, %v", got, err)
	}
	if got, _ := v1.Terms(ctx, 0); got.Version != "v1" || got.AcceptedAt != nil {
		t.Fatalf("signed out: %+v", got)
	}

	v2 := svc("v2")
	if got, _ := v2.Terms(ctx, p.ID); got.Version != "v2" || got.AcceptedAt != nil {
		t.Fatalf("a new version reads accepted: %+v", got)
	}
	_, err = v2.AcceptTerms(ctx, p.ID, "v1")
	errstest.Is(t, err, errs.Invalid, account.ReasonTermsOutdated)
	_, err = v2.AcceptTerms(ctx, p.ID, "")
	errstest.Is(t, err, errs.Invalid, account.ReasonTermsNotAccepted)
	_, err = v2.AcceptTerms(ctx, 999, "v2")
	errstest.Is(t, err, errs.NotFound, "")
	clk.Advance(time.Hour)
	got, err := v2.AcceptTerms(ctx, p.ID, "v2")
	if err != nil || got.AcceptedAt == nil || !got.AcceptedAt.Equal(birthdayInstant.Add(time.Hour)) {
		t.Fatalf("accepting v2: %+v, %v", got, err)
	}
	if got, _ := v2.Terms(ctx, p.ID); got.AcceptedAt == nil {
		t.Fatal("v2 accepted but reads not accepted")
	}

	admin, err := v2.Provision(ctx, account.Registration{Email: "boss@example.kz", Password: "long enough password", Name: "Boss", DateOfBirth: account.MustParseDate("1980-01-01")}, account.Admin)
	if err != nil {
		t.Fatalf("staff need no terms to be provisioned: %v", err)
	}
	if got, _ := v2.Terms(ctx, admin.ID); got.AcceptedAt != nil {
		t.Fatalf("provisioned staff read as having accepted: %+v", got)
	}
	for _, bad := range []string{"with space", "ünicode", string(make([]byte, 65))} {
		if _, err := account.NewService(store, account.Config{DocumentPepper: pepper, TermsVersion: bad}, account.WithCheapHashing); !errs.Is(err, errs.Invalid) {
			t.Errorf("terms version %q: %v, want Invalid", bad, err)
		}
	}
}
