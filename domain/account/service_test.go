package account_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/internal/clocktest"
)

// birthdayInstant is 00:30 on 2025-06-15 in Almaty (UTC+5) and still
// 2025-06-14 in UTC: someone born on 2004-06-15 has just turned 21.
var birthdayInstant = time.Date(2025, 6, 14, 19, 30, 0, 0, time.UTC)

var pepper = bytes.Repeat([]byte("p"), 32)

type fixture struct {
	svc   *account.Service
	store *accounttest.MemStore
	clk   *clocktest.Clock
}

func newFixture(t *testing.T, opts ...account.Option) fixture {
	t.Helper()
	clk := clocktest.New(birthdayInstant)
	store := accounttest.NewMemStore(clk.Now)
	opts = append([]account.Option{account.WithCheapHashing}, opts...)
	svc, err := account.NewService(store, account.Config{DocumentPepper: pepper, Now: clk.Now}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{svc: svc, store: store, clk: clk}
}

func reg(email, dob string) account.Registration {
	return account.Registration{Email: email, Password: "long enough password", Name: "Test Player", DateOfBirth: account.MustParseDate(dob), AcceptedTerms: account.DefaultTermsVersion}
}

func (f fixture) player(t *testing.T, email string) account.User {
	t.Helper()
	u, err := f.svc.Register(context.Background(), reg(email, "1990-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func (f fixture) admin(t *testing.T, email string) account.User {
	t.Helper()
	u, err := f.svc.Provision(context.Background(), reg(email, "1980-01-01"), account.Admin)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestNewServiceConfig(t *testing.T) {
	store := accounttest.NewMemStore(nil)
	if _, err := account.NewService(store, account.Config{DocumentPepper: pepper[:31]}, account.WithCheapHashing); err == nil {
		t.Error("short pepper accepted")
	}
	if _, err := account.NewService(store, account.Config{DocumentPepper: pepper, MinAge: 16}, account.WithCheapHashing); err == nil {
		t.Error("minimum age 16 accepted")
	}
	weak := account.DefaultArgon2Params()
	weak.Memory = 1024
	if _, err := account.NewService(store, account.Config{DocumentPepper: pepper, Argon2: weak}); err == nil {
		t.Error("weak Argon2 parameters accepted")
	}
	svc, err := account.NewService(store, account.Config{DocumentPepper: pepper}, account.WithCheapHashing)
	if err != nil {
		t.Fatal(err)
	}
	if svc.Location().String() != "Asia/Almaty" {
		t.Errorf("default zone %s, want Asia/Almaty", svc.Location())
	}
}

func TestRegister(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	u, err := f.svc.Register(ctx, account.Registration{
		Email: " Aigerim@Example.KZ ", Password: "long enough password", Name: " Айгерим ", DateOfBirth: account.MustParseDate("2004-06-15"),
		AcceptedTerms: account.DefaultTermsVersion,
	})
	if err != nil {
		t.Fatalf("Register on the 21st birthday in Almaty (UTC still the day before): %v", err)
	}
	if u.ID == 0 || u.Email != "aigerim@example.kz" || u.Name != "Айгерим" || u.Role != account.Player ||
		u.Verification != account.NotSubmitted || !u.CreatedAt.Equal(birthdayInstant) {
		t.Fatalf("registered user = %+v", u)
	}
	if !strings.HasPrefix(u.PasswordHash, "$argon2id$v=19$") || strings.Contains(u.PasswordHash, "long enough") {
		t.Fatalf("password hash %q", u.PasswordHash)
	}
	stored, err := f.store.ByEmail(ctx, "aigerim@example.kz")
	if err != nil || stored.ID != u.ID {
		t.Fatalf("stored user = %+v, %v", stored, err)
	}

	_, err = f.svc.Register(ctx, reg("AIGERIM@example.kz", "1990-01-01"))
	errstest.Is(t, err, errs.Conflict, "EMAIL_TAKEN")

	tests := []struct {
		name   string
		r      account.Registration
		reason string
	}{
		{"bad email", reg("not an email", "1990-01-01"), "INVALID_EMAIL"},
		{"short password", func() account.Registration { r := reg("a@x.kz", "1990-01-01"); r.Password = "short"; return r }(), "INVALID_PASSWORD"},
		{"empty password", func() account.Registration { r := reg("a@x.kz", "1990-01-01"); r.Password = ""; return r }(), "INVALID_PASSWORD"},
		{"empty name", func() account.Registration { r := reg("a@x.kz", "1990-01-01"); r.Name = " "; return r }(), "INVALID_NAME"},
		{"no date of birth", account.Registration{Email: "a@x.kz", Password: "long enough password", Name: "A"}, "INVALID_DATE_OF_BIRTH"},
		{"born tomorrow in Almaty", reg("a@x.kz", "2025-06-16"), "INVALID_DATE_OF_BIRTH"},
		{"born today in Almaty", reg("a@x.kz", "2025-06-15"), "UNDER_AGE"},
		{"turns 21 tomorrow", reg("a@x.kz", "2004-06-16"), "UNDER_AGE"},
		{"20 years old", reg("a@x.kz", "2005-01-01"), "UNDER_AGE"},
		{"older than 130", reg("a@x.kz", "1890-01-01"), "INVALID_DATE_OF_BIRTH"},
		{"terms not accepted", func() account.Registration { r := reg("a@x.kz", "1990-01-01"); r.AcceptedTerms = ""; return r }(), "TERMS_NOT_ACCEPTED"},
		{"other terms accepted", func() account.Registration {
			r := reg("a@x.kz", "1990-01-01")
			r.AcceptedTerms = "2020-01-01"
			return r
		}(), "TERMS_OUTDATED"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.Register(ctx, tc.r)
			errstest.Is(t, err, errs.Invalid, tc.reason)
			if _, err := f.store.ByEmail(ctx, "a@x.kz"); !errs.Is(err, errs.NotFound) {
				t.Fatalf("a refused registration created an account")
			}
		})
	}
	if _, err := f.svc.Provision(ctx, reg("b@x.kz", "1990-01-01"), "ROOT"); !errs.Is(err, errs.Invalid) {
		t.Fatalf("Provision with an unknown role: %v", err)
	}
}

func TestLogin(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	u := f.player(t, "p@x.kz")

	got, err := f.svc.Login(ctx, " P@X.kz", "long enough password", "10.0.0.1")
	if err != nil || got.ID != u.ID {
		t.Fatalf("Login = %+v, %v", got, err)
	}
	_, err = f.svc.Login(ctx, "p@x.kz", "wrong password!", "10.0.0.1")
	errstest.Is(t, err, errs.Unauthenticated, "INVALID_CREDENTIALS")
	_, errUnknown := f.svc.Login(ctx, "nobody@x.kz", "long enough password", "10.0.0.1")
	errstest.Is(t, errUnknown, errs.Unauthenticated, "INVALID_CREDENTIALS")
	if err.Error() != errUnknown.Error() {
		t.Fatalf("unknown email and wrong password answer differently: %q vs %q", errUnknown, err)
	}
	_, err = f.svc.Login(ctx, "p@x.kz", strings.Repeat("x", 5000), "")
	errstest.Is(t, err, errs.Unauthenticated, "INVALID_CREDENTIALS")
}

func TestLoginThrottled(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.player(t, "p@x.kz")
	for i := range 5 {
		_, err := f.svc.Login(ctx, "p@x.kz", "wrong password!", fmt.Sprintf("10.0.0.%d", i))
		errstest.Is(t, err, errs.Unauthenticated, "INVALID_CREDENTIALS")
	}
	// Locked by email, even with the right password from a fresh address.
	_, err := f.svc.Login(ctx, "P@x.kz", "long enough password", "10.9.9.9")
	errstest.Is(t, err, errs.Forbidden, account.ReasonTooManyAttempts)
	f.clk.Advance(time.Minute)
	if _, err := f.svc.Login(ctx, "p@x.kz", "long enough password", "10.9.9.9"); err != nil {
		t.Fatalf("Login after the lockout: %v", err)
	}
	// Success cleared the email's failures: four more do not lock it.
	for i := range 4 {
		_, _ = f.svc.Login(ctx, "p@x.kz", "wrong password!", fmt.Sprintf("10.1.0.%d", i))
	}
	if _, err := f.svc.Login(ctx, "p@x.kz", "long enough password", "10.9.9.8"); err != nil {
		t.Fatalf("Login after success and 4 failures: %v", err)
	}
}

// TestLoginThrottledByIP: a flood from one address locks that address, for
// every account, and nothing else: the same accounts sign in from other
// addresses.
func TestLoginThrottledByIP(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.player(t, "victim@x.kz")
	for i := range account.AddressThrottle.WithDefaults().MaxFailures {
		_, _ = f.svc.Login(ctx, fmt.Sprintf("guess%d@x.kz", i), "some password!", "203.0.113.7")
	}
	_, err := f.svc.Login(ctx, "victim@x.kz", "long enough password", "203.0.113.7")
	errstest.Is(t, err, errs.Forbidden, account.ReasonTooManyAttempts)
	if _, err := f.svc.Login(ctx, "victim@x.kz", "long enough password", "198.51.100.1"); err != nil {
		t.Fatalf("Login from another address: %v", err)
	}
}

// TestLoginCannotLockOthersOut: a few failures from an address (behind a
// NAT, say) lock neither the address nor another account; failures
// against one account from many addresses delay its owner, on a fresh
// device, by at most the account's progressive delay, not an hour; the
// guesser's own address is locked for that account.
func TestLoginCannotLockOthersOut(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.player(t, "owner@x.kz")
	f.player(t, "colleague@x.kz")
	for range 5 {
		_, err := f.svc.Login(ctx, "owner@x.kz", "wrong password!", "203.0.113.7")
		errstest.Is(t, err, errs.Unauthenticated, "INVALID_CREDENTIALS")
	}
	if _, err := f.svc.Login(ctx, "colleague@x.kz", "long enough password", "203.0.113.7"); err != nil {
		t.Fatalf("another account from the same address after 5 failures: %v", err)
	}
	// The guesser's address is locked for that account, even with the
	// right password.
	_, err := f.svc.Login(ctx, "owner@x.kz", "long enough password", "203.0.113.7")
	errstest.Is(t, err, errs.Forbidden, account.ReasonTooManyAttempts)
	// Six more addresses keep failing on the owner's account.
	for i := range 30 {
		_, _ = f.svc.Login(ctx, "owner@x.kz", "wrong password!", fmt.Sprintf("10.0.%d.%d", i%6, i))
		f.clk.Advance(time.Second)
	}
	maxDelay := account.AccountThrottle.WithDefaults().MaxLockout
	f.clk.Advance(maxDelay)
	if _, err := f.svc.Login(ctx, "owner@x.kz", "long enough password", "198.51.100.9"); err != nil {
		t.Fatalf("the owner on a fresh device %v after the last failure: %v", maxDelay, err)
	}
}

func TestLoginRehashesOutdatedHash(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	u := f.player(t, "p@x.kz")
	upgraded := account.DefaultArgon2Params()
	upgraded.Memory, upgraded.Time = 128, 2
	svc2, err := account.NewService(f.store, account.Config{DocumentPepper: pepper, Now: f.clk.Now}, account.WithArgon2ForTest(upgraded))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc2.Login(ctx, "p@x.kz", "long enough password", ""); err != nil {
		t.Fatal(err)
	}
	after, _ := f.store.ByID(ctx, u.ID)
	if !strings.Contains(after.PasswordHash, "$m=128,t=2,p=1$") {
		t.Fatalf("hash not upgraded: %s", after.PasswordHash)
	}
	// The old service still verifies the new hash (parameters are in it).
	if _, err := f.svc.Login(ctx, "p@x.kz", "long enough password", ""); err != nil {
		t.Fatal(err)
	}
}

func submission(dob string) account.Submission {
	return account.Submission{DocumentType: account.IDCard, DocumentNumber: "n 1234-5678", DateOfBirth: account.MustParseDate(dob)}
}

func TestVerificationFlow(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	p := f.player(t, "p@x.kz")
	admin := f.admin(t, "admin@x.kz")

	v, err := f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	if v.ID == 0 || v.Status != account.Pending || v.UserID != p.ID || len(v.DocumentHash) != 64 || strings.Contains(v.DocumentHash, "12345678") {
		t.Fatalf("submitted = %+v", v)
	}
	if u, _ := f.store.ByID(ctx, p.ID); u.Verification != account.Pending {
		t.Fatalf("user status %s, want PENDING", u.Verification)
	}
	_, err = f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
	errstest.Is(t, err, errs.Conflict, "VERIFICATION_PENDING")

	pending, next, err := f.svc.PendingVerifications(ctx, admin.ID, account.Page{})
	if err != nil || len(pending) != 1 || pending[0].ID != v.ID || next != 0 {
		t.Fatalf("pending = %+v, %d, %v", pending, next, err)
	}
	_, _, err = f.svc.PendingVerifications(ctx, p.ID, account.Page{})
	errstest.Is(t, err, errs.Forbidden, "NOT_ADMIN")

	_, err = f.svc.DecideVerification(ctx, p.ID, v.ID, account.Decision{Approve: true})
	errstest.Is(t, err, errs.Forbidden, "NOT_ADMIN")
	_, err = f.svc.DecideVerification(ctx, admin.ID, v.ID, account.Decision{Approve: false, Reason: "  "})
	errstest.Is(t, err, errs.Invalid, "INVALID_REASON")
	_, err = f.svc.DecideVerification(ctx, admin.ID, 999, account.Decision{Approve: true})
	errstest.Is(t, err, errs.NotFound, "")

	f.clk.Advance(time.Hour)
	rej, err := f.svc.DecideVerification(ctx, admin.ID, v.ID, account.Decision{Reason: "photo unreadable"})
	if err != nil || rej.Status != account.Rejected || rej.Reason != "photo unreadable" || rej.DecidedBy != admin.ID || !rej.DecidedAt.Equal(f.clk.Now()) {
		t.Fatalf("rejected = %+v, %v", rej, err)
	}
	_, err = f.svc.DecideVerification(ctx, admin.ID, v.ID, account.Decision{Approve: true})
	errstest.Is(t, err, errs.Conflict, "NOT_PENDING")
	u, _ := f.store.ByID(ctx, p.ID)
	latest, _ := f.store.Verification(ctx, p.ID)
	errstest.Is(t, f.svc.CanStake(u, latest, f.clk.Now()), errs.Forbidden, "NOT_VERIFIED")

	// A rejected player submits again; the admin approves.
	v2, err := f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
	if err != nil || v2.ID == v.ID || v2.Status != account.Pending {
		t.Fatalf("resubmitted = %+v, %v", v2, err)
	}
	ok, err := f.svc.DecideVerification(ctx, admin.ID, v2.ID, account.Decision{Approve: true})
	if err != nil || ok.Status != account.Approved {
		t.Fatalf("approved = %+v, %v", ok, err)
	}
	u, _ = f.store.ByID(ctx, p.ID)
	latest, _ = f.store.Verification(ctx, p.ID)
	if u.Verification != account.Approved || latest.ID != v2.ID {
		t.Fatalf("after approval: user %s, latest %+v", u.Verification, latest)
	}
	if err := f.svc.CanStake(u, latest, f.clk.Now()); err != nil {
		t.Fatalf("CanStake after approval: %v", err)
	}
	_, err = f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
	errstest.Is(t, err, errs.Conflict, "ALREADY_VERIFIED")

	audit, _, err := f.svc.AuditLog(ctx, admin.ID, account.AuditFilter{}, account.Page{})
	if err != nil || len(audit) != 2 {
		t.Fatalf("audit = %+v, %v", audit, err)
	}
	if audit[0].Action != account.ActionVerificationApproved || audit[1].Action != account.ActionVerificationRejected ||
		audit[1].Detail != "Verification rejected: photo unreadable" || audit[0].ActorID != admin.ID || audit[0].SubjectID != p.ID {
		t.Fatalf("audit entries = %+v", audit)
	}
}

func TestSubmitVerificationRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	p := f.player(t, "p@x.kz")
	admin := f.admin(t, "admin@x.kz")
	tests := []struct {
		name   string
		user   int64
		sub    account.Submission
		code   errs.Code
		reason string
	}{
		{"date of birth differs from the account", p.ID, submission("1990-01-02"), errs.Invalid, "DOB_MISMATCH"},
		{"unknown document type", p.ID, account.Submission{DocumentType: "LIBRARY_CARD", DocumentNumber: "12345678", DateOfBirth: account.MustParseDate("1990-01-01")}, errs.Invalid, "INVALID_DOCUMENT_TYPE"},
		{"bad number", p.ID, account.Submission{DocumentType: account.Passport, DocumentNumber: "№ 12", DateOfBirth: account.MustParseDate("1990-01-01")}, errs.Invalid, "INVALID_DOCUMENT_NUMBER"},
		{"no date", p.ID, account.Submission{DocumentType: account.Passport, DocumentNumber: "12345678"}, errs.Invalid, "INVALID_DATE"},
		{"admin", admin.ID, submission("1980-01-01"), errs.Forbidden, "NOT_A_PLAYER"},
		{"no such user", 999, submission("1990-01-01"), errs.NotFound, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.SubmitVerification(ctx, tc.user, tc.sub)
			errstest.Is(t, err, tc.code, tc.reason)
		})
	}
	if u, _ := f.store.ByID(ctx, p.ID); u.Verification != account.NotSubmitted {
		t.Fatalf("a refused submission changed the status to %s", u.Verification)
	}
}

func TestAdminCannotDecideOwnVerification(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	admin := f.admin(t, "admin@x.kz")
	v, err := f.store.SaveVerification(ctx, account.VerificationChange{
		Verification: account.Verification{UserID: admin.ID, DocumentType: account.Passport, Status: account.Pending, DateOfBirth: admin.DateOfBirth},
		From:         account.NotSubmitted,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.DecideVerification(ctx, admin.ID, v.ID, account.Decision{Approve: true})
	errstest.Is(t, err, errs.Forbidden, "SELF_DECISION")
}

func TestConcurrentDecisions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	p := f.player(t, "p@x.kz")
	var admins []account.User
	for i := range 10 {
		admins = append(admins, f.admin(t, fmt.Sprintf("admin%d@x.kz", i)))
	}
	v, err := f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]error, len(admins))
	for i, a := range admins {
		wg.Go(func() {
			_, results[i] = f.svc.DecideVerification(ctx, a.ID, v.ID, account.Decision{Approve: i%2 == 0, Reason: "checked"})
		})
	}
	wg.Wait()
	wins := 0
	for _, err := range results {
		switch {
		case err == nil:
			wins++
		case errs.ReasonOf(err) != "NOT_PENDING":
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d admins decided the same verification, want exactly 1", wins)
	}
	audit, _, _ := f.svc.AuditLog(ctx, admins[0].ID, account.AuditFilter{}, account.Page{})
	if len(audit) != 1 {
		t.Fatalf("audit has %d entries, want 1", len(audit))
	}
}

func TestCanStake(t *testing.T) {
	f := newFixture(t)
	dob := account.MustParseDate("2004-06-15")
	player := account.User{ID: 7, Role: account.Player, DateOfBirth: dob, Verification: account.Approved}
	approved := account.Verification{ID: 1, UserID: 7, Status: account.Approved, DateOfBirth: dob}
	with := func(f func(*account.Verification)) account.Verification { v := approved; f(&v); return v }
	affiliate := player
	affiliate.Role = account.Affiliate
	tests := []struct {
		name   string
		u      account.User
		v      account.Verification
		now    time.Time
		reason string
	}{
		{"approved, turned 21 at 00:30 Almaty", player, approved, birthdayInstant, ""},
		{"approved, 23:59 Almaty the evening before", player, approved, birthdayInstant.Add(-31 * time.Minute), "UNDER_AGE"},
		{"no verification", player, account.Verification{}, birthdayInstant, "NOT_VERIFIED"},
		{"pending", player, with(func(v *account.Verification) { v.Status = account.Pending }), birthdayInstant, "NOT_VERIFIED"},
		{"rejected", player, with(func(v *account.Verification) { v.Status = account.Rejected }), birthdayInstant, "NOT_VERIFIED"},
		{"someone else's verification", player, with(func(v *account.Verification) { v.UserID = 8 }), birthdayInstant, "NOT_VERIFIED"},
		{"verified for another date of birth", player, with(func(v *account.Verification) { v.DateOfBirth = account.MustParseDate("2000-01-01") }), birthdayInstant, "NOT_VERIFIED"},
		{"affiliate", affiliate, approved, birthdayInstant, "NOT_A_PLAYER"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := f.svc.CanStake(tc.u, tc.v, tc.now)
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("CanStake = %v, want nil", err)
				}
				return
			}
			errstest.Is(t, err, errs.Forbidden, tc.reason)
		})
	}
}

func TestPendingVerificationsPaging(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	admin := f.admin(t, "admin@x.kz")
	var ids []int64
	for i := range 5 {
		p := f.player(t, fmt.Sprintf("p%d@x.kz", i))
		v, err := f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	// Deciding one removes it from the queue.
	if _, err := f.svc.DecideVerification(ctx, admin.ID, ids[1], account.Decision{Approve: true}); err != nil {
		t.Fatal(err)
	}
	want := []int64{ids[0], ids[2], ids[3], ids[4]}
	var got []int64
	page := account.Page{Limit: 2}
	for range 5 {
		vs, next, err := f.svc.PendingVerifications(ctx, admin.ID, page)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			got = append(got, v.ID)
		}
		if next == 0 {
			break
		}
		page.After = next
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("pending ids %v, want %v", got, want)
	}
}

func TestEnsureCanStake(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	p := f.player(t, "p@x.kz")
	admin := f.admin(t, "admin@x.kz")
	errstest.Is(t, f.svc.EnsureCanStake(ctx, ids.UserID(p.ID)), errs.Forbidden, "NOT_VERIFIED")
	v, err := f.svc.SubmitVerification(ctx, p.ID, submission("1990-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	errstest.Is(t, f.svc.EnsureCanStake(ctx, ids.UserID(p.ID)), errs.Forbidden, "NOT_VERIFIED")
	if _, err := f.svc.DecideVerification(ctx, admin.ID, v.ID, account.Decision{Approve: true}); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.EnsureCanStake(ctx, ids.UserID(p.ID)); err != nil {
		t.Fatalf("EnsureCanStake after approval: %v", err)
	}
	errstest.Is(t, f.svc.EnsureCanStake(ctx, ids.UserID(admin.ID)), errs.Forbidden, "NOT_A_PLAYER")
	errstest.Is(t, f.svc.EnsureCanStake(ctx, 999), errs.NotFound, "")
}

func TestSetRole(t *testing.T) {
	ctx := context.Background()
	svc := newFixture(t).svc
	admin, err := svc.Provision(ctx, account.Registration{Email: "boss@example.kz", Password: "correct horse battery", Name: "Boss", DateOfBirth: account.MustParseDate("1980-01-01")}, account.Admin)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Register(ctx, account.Registration{Email: "p@example.kz", Password: "correct horse battery", Name: "P", DateOfBirth: account.MustParseDate("1990-01-01"), AcceptedTerms: account.DefaultTermsVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("admin makes an affiliate", func(t *testing.T) {
		u, err := svc.SetRole(ctx, admin.ID, p.ID, account.Affiliate)
		if err != nil || u.Role != account.Affiliate {
			t.Fatalf("SetRole = %+v, %v", u, err)
		}
		log, _, _ := svc.AuditLog(ctx, admin.ID, account.AuditFilter{}, account.Page{})
		if len(log) == 0 || log[0].Action != account.ActionRoleChanged || log[0].SubjectID != p.ID {
			t.Fatalf("audit log %+v lacks the role change", log)
		}
	})
	t.Run("non-admin refused", func(t *testing.T) {
		if _, err := svc.SetRole(ctx, p.ID, admin.ID, account.Player); !errs.Is(err, errs.Forbidden) {
			t.Fatalf("err = %v, want FORBIDDEN", err)
		}
	})
	t.Run("own role refused", func(t *testing.T) {
		if _, err := svc.SetRole(ctx, admin.ID, admin.ID, account.Player); !errs.Is(err, errs.Forbidden) {
			t.Fatalf("err = %v, want FORBIDDEN", err)
		}
	})
	t.Run("unknown role", func(t *testing.T) {
		if _, err := svc.SetRole(ctx, admin.ID, p.ID, account.Role("KING")); !errs.Is(err, errs.Invalid) {
			t.Fatalf("err = %v, want BAD_USER_INPUT", err)
		}
	})
}

// TestDisableAccount: an admin disables an account with a reason (audited);
// it can then neither sign in (told so only with the right password) nor
// stake, until enabled again.
func TestDisableAccount(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	admin := f.admin(t, "admin@x.kz")
	p := f.player(t, "p@x.kz")
	const pw = "long enough password"
	errstest.Is(t, pick(f.svc.DisableAccount(ctx, p.ID, admin.ID, "no")), errs.Forbidden, "NOT_ADMIN")
	errstest.Is(t, pick(f.svc.DisableAccount(ctx, admin.ID, admin.ID, "no")), errs.Forbidden, "SELF_DECISION")
	for _, bad := range []string{"", "   ", strings.Repeat("я", 501)} {
		errstest.Is(t, pick(f.svc.DisableAccount(ctx, admin.ID, p.ID, bad)), errs.Invalid, "INVALID_REASON")
	}
	errstest.Is(t, pick(f.svc.EnableAccount(ctx, admin.ID, p.ID)), errs.Conflict, "NOT_DISABLED")
	errstest.Is(t, pick(f.svc.DisableAccount(ctx, admin.ID, 999, "gone")), errs.NotFound, "")

	u, err := f.svc.DisableAccount(ctx, admin.ID, p.ID, "  account sold  ")
	if err != nil || !u.Disabled() || u.DisabledReason != "account sold" {
		t.Fatalf("DisableAccount = %+v, %v", u, err)
	}
	errstest.Is(t, pick(f.svc.DisableAccount(ctx, admin.ID, p.ID, "again")), errs.Conflict, "ALREADY_DISABLED")
	errstest.Is(t, pick(f.svc.Login(ctx, p.Email, pw, "")), errs.Forbidden, "ACCOUNT_DISABLED")
	errstest.Is(t, pick(f.svc.Login(ctx, p.Email, "wrong password here", "")), errs.Unauthenticated, "INVALID_CREDENTIALS")
	errstest.Is(t, f.svc.CanStake(u, account.Verification{UserID: u.ID, Status: account.Approved, DateOfBirth: u.DateOfBirth}, f.clk.Now()), errs.Forbidden, "ACCOUNT_DISABLED")
	log, _, _ := f.svc.AuditLog(ctx, admin.ID, account.AuditFilter{}, account.Page{})
	if len(log) == 0 || log[0].Action != account.ActionAccountDisabled || log[0].SubjectID != p.ID || log[0].Detail != "Account disabled: account sold" {
		t.Fatalf("audit log %+v lacks the disable", log)
	}

	if u, err = f.svc.EnableAccount(ctx, admin.ID, p.ID); err != nil || u.Disabled() || u.DisabledReason != "" {
		t.Fatalf("EnableAccount = %+v, %v", u, err)
	}
	if _, err := f.svc.Login(ctx, p.Email, pw, ""); err != nil {
		t.Fatalf("login after enable: %v", err)
	}
}

// pick drops a result, keeping its error.
func pick[T any](_ T, err error) error { return err }

// TestUserByEmailNormalizesAsRegistration: the cashier finds a player by the
// address as they typed it at registration, in any case and with spaces;
// an unknown address is NotFound, a non-address Invalid, and a lookalike
// (another person's address) is not matched.
func TestUserByEmailNormalizesAsRegistration(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	u := f.player(t, "Aigerim.Cash@example.kz")
	for _, q := range []string{"aigerim.cash@example.kz", "  AIGERIM.CASH@EXAMPLE.KZ "} {
		got, err := f.svc.UserByEmail(ctx, q)
		if err != nil || got.ID != u.ID {
			t.Errorf("UserByEmail(%q) = %v, %v; want user %d", q, got.ID, err, u.ID)
		}
	}
	for q, code := range map[string]errs.Code{"nobody@example.kz": errs.NotFound, "aigerimcash@example.kz": errs.NotFound, "not an email": errs.Invalid, "": errs.Invalid} {
		if _, err := f.svc.UserByEmail(ctx, q); !errs.Is(err, code) {
			t.Errorf("UserByEmail(%q) = %v, want %v", q, err, code)
		}
	}
}
