// Package accounttest is the conformance suite of account.UserStore: users,
// age verifications and the admin audit log. The in-memory twin
// (accounttest.MemStore) runs it in its unit tests; persistence runs the very
// same tests against SQLite and Postgres, so the twin cannot drift from the
// database it stands in for.
//
//	accounttest.Run(t, func(t *testing.T, now func() time.Time) account.UserStore { ... })
package accounttest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
)

// Start is the suite's clock: what the store's now returns.
var Start = time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)

// Run runs the whole suite; newStore is called once per subtest and must
// return an empty store that stamps entries given without a time (users'
// CreatedAt, audit entries' At) with now.
func Run(t *testing.T, newStore func(t *testing.T, now func() time.Time) account.UserStore) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s account.UserStore)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"EmailTaken", testEmailTaken},
		{"EmailUniqueUnderConcurrency", testConcurrentCreate},
		{"NotFound", testNotFound},
		{"ByIDsLeavesMissingOut", testByIDs},
		{"PasswordHash", testPasswordHash},
		{"RoleChangeWithAudit", testSetRole},
		{"DisableWithAudit", testSetDisabled},
		{"VerificationLifecycle", testVerificationLifecycle},
		{"VerificationChecksFrom", testVerificationChecksFrom},
		{"OnlyLatestVerificationChanges", testOnlyLatest},
		{"ConcurrentDecisionsOneWins", testConcurrentDecisions},
		{"PendingPagesOldestFirst", testPendingPaging},
		{"AuditPagesNewestFirst", testAuditPaging},
		{"AuditKeepsWhatItWasGiven", testAuditFields},
		{"AuditFiltersAndPagesUnderThem", testAuditFilters},
		{"SearchByEmailNameOrDocument", testSearch},
		{"TermsAcceptedOncePerVersion", testTerms},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each test has its own store
			tc.run(t, newStore(t, func() time.Time { return Start }))
		})
	}
}

var ctx = context.Background()

// NewUser is a valid player with the given email.
func NewUser(email string) account.User {
	return account.User{
		Email:        email,
		Name:         "Aigerim",
		DateOfBirth:  account.MustParseDate("1990-02-28"),
		Role:         account.Player,
		PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$c2FsdA$aGFzaA",
	}
}

func create(t *testing.T, s account.UserStore, email string) account.User {
	t.Helper()
	u, err := s.Create(ctx, NewUser(email))
	if err != nil {
		t.Fatalf("Create(%s): %v", email, err)
	}
	return u
}

func must[T any](t *testing.T, what string) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

// submission is a pending verification of user id.
func submission(userID int64, n int) account.Verification {
	return account.Verification{
		UserID:       userID,
		DocumentType: account.IDCard,
		DocumentHash: fmt.Sprintf("%064x", n+1),
		DateOfBirth:  account.MustParseDate("1990-02-28"),
		Status:       account.Pending,
		SubmittedAt:  Start.Add(time.Duration(n) * time.Minute),
	}
}

func sameUser(t *testing.T, what string, got, want account.User) {
	t.Helper()
	if got.ID != want.ID || got.Email != want.Email || got.Name != want.Name || got.DateOfBirth != want.DateOfBirth ||
		got.Role != want.Role || got.PasswordHash != want.PasswordHash || got.Verification != want.Verification ||
		!got.CreatedAt.Equal(want.CreatedAt) {
		t.Fatalf("%s = %+v, want %+v", what, got, want)
	}
}

func testCreateAndRead(t *testing.T, s account.UserStore) {
	a := create(t, s, "a@example.kz")
	b := create(t, s, "b@example.kz")
	if a.ID <= 0 || b.ID <= a.ID {
		t.Fatalf("ids %d then %d: want positive and increasing", a.ID, b.ID)
	}
	if a.Verification != account.NotSubmitted {
		t.Fatalf("new user's verification %q, want %q", a.Verification, account.NotSubmitted)
	}
	if !a.CreatedAt.Equal(Start) {
		t.Fatalf("CreatedAt %v, want the store's clock %v", a.CreatedAt, Start)
	}
	sameUser(t, "ByID", must[account.User](t, "ByID")(s.ByID(ctx, a.ID)), a)
	sameUser(t, "ByEmail", must[account.User](t, "ByEmail")(s.ByEmail(ctx, "b@example.kz")), b)

	at := Start.Add(-time.Hour)
	u := NewUser("c@example.kz")
	u.CreatedAt = at
	u.Role = account.Affiliate
	c := must[account.User](t, "Create c")(s.Create(ctx, u))
	if !c.CreatedAt.Equal(at) || c.Role != account.Affiliate {
		t.Fatalf("created %+v: want CreatedAt %v and role kept", c, at)
	}
	sameUser(t, "ByID c", must[account.User](t, "ByID c")(s.ByID(ctx, c.ID)), c)
}

func testEmailTaken(t *testing.T, s account.UserStore) {
	a := create(t, s, "taken@example.kz")
	// The same address in other case is the same account.
	for _, email := range []string{"taken@example.kz", "Taken@Example.KZ"} {
		_, err := s.Create(ctx, NewUser(email))
		errstest.Is(t, err, errs.Conflict, "EMAIL_TAKEN")
	}
	got := must[account.User](t, "ByEmail")(s.ByEmail(ctx, "taken@example.kz"))
	if got.ID != a.ID {
		t.Fatalf("the email now belongs to %d, want the first user %d", got.ID, a.ID)
	}
	// The refused user took no id: the next one follows the first.
	b := create(t, s, "other@example.kz")
	if b.ID <= a.ID {
		t.Fatalf("next id %d after %d", b.ID, a.ID)
	}
}

func testConcurrentCreate(t *testing.T, s account.UserStore) {
	const n = 16
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, err := s.Create(ctx, NewUser("race@example.kz"))
			switch {
			case err == nil:
				wins.Add(1)
			case errs.ReasonOf(err) == "EMAIL_TAKEN":
				conflicts.Add(1)
			default:
				t.Errorf("Create: %v", err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 || conflicts.Load() != n-1 {
		t.Fatalf("%d created, %d refused; want 1 and %d", wins.Load(), conflicts.Load(), n-1)
	}
}

func testNotFound(t *testing.T, s account.UserStore) {
	u := create(t, s, "here@example.kz")
	const missing = 1 << 40
	_, err := s.ByID(ctx, missing)
	errstest.Code(t, err, errs.NotFound)
	_, err = s.ByEmail(ctx, "nobody@example.kz")
	errstest.Code(t, err, errs.NotFound)
	_, err = s.ByEmail(ctx, "HERE@example.kz")
	errstest.Code(t, err, errs.NotFound)
	errstest.Code(t, s.SetPasswordHash(ctx, missing, "x"), errs.NotFound)
	_, err = s.SetRole(ctx, missing, account.Admin, account.AuditEntry{ActorID: u.ID, Action: account.ActionRoleChanged})
	errstest.Code(t, err, errs.NotFound)
	_, err = s.Verification(ctx, u.ID)
	errstest.Code(t, err, errs.NotFound)
	_, err = s.VerificationByID(ctx, missing)
	errstest.Code(t, err, errs.NotFound)
	_, err = s.SaveVerification(ctx, account.VerificationChange{Verification: submission(missing, 0), From: account.NotSubmitted})
	errstest.Code(t, err, errs.NotFound)
	// The refused role change appended no audit entry.
	if es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{})); len(es) != 0 {
		t.Fatalf("audit after refused changes: %+v", es)
	}
}

func listAudit(s account.UserStore, p account.Page) ([]account.AuditEntry, error) {
	es, _, err := s.ListAudit(ctx, account.AuditFilter{}, p)
	return es, err
}

func testByIDs(t *testing.T, s account.UserStore) {
	a := create(t, s, "a@example.kz")
	b := create(t, s, "b@example.kz")
	got := must[[]account.User](t, "ByIDs")(s.ByIDs(ctx, []int64{b.ID, 1 << 40, a.ID}))
	ids := make([]int64, len(got))
	for i, u := range got {
		ids[i] = u.ID
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []int64{a.ID, b.ID}) {
		t.Fatalf("ByIDs = %v, want %v", ids, []int64{a.ID, b.ID})
	}
	for _, u := range got {
		if u.ID == b.ID {
			sameUser(t, "ByIDs b", u, b)
		}
	}
	if none := must[[]account.User](t, "ByIDs empty")(s.ByIDs(ctx, []int64{1 << 40})); len(none) != 0 {
		t.Fatalf("ByIDs of missing ids = %+v", none)
	}
}

func testPasswordHash(t *testing.T, s account.UserStore) {
	a := create(t, s, "a@example.kz")
	b := create(t, s, "b@example.kz")
	if err := s.SetPasswordHash(ctx, a.ID, "$argon2id$new"); err != nil {
		t.Fatal(err)
	}
	if got := must[account.User](t, "ByID")(s.ByID(ctx, a.ID)); got.PasswordHash != "$argon2id$new" {
		t.Fatalf("hash %q after SetPasswordHash", got.PasswordHash)
	}
	if got := must[account.User](t, "ByID b")(s.ByID(ctx, b.ID)); got.PasswordHash != b.PasswordHash {
		t.Fatalf("another user's hash changed to %q", got.PasswordHash)
	}
}

func testSetRole(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	u := create(t, s, "p@example.kz")
	if emails := must[[]string](t, "AdminEmails")(s.AdminEmails(ctx)); len(emails) != 0 {
		t.Fatalf("AdminEmails before any admin = %v", emails)
	}
	got, err := s.SetRole(ctx, admin.ID, account.Admin, account.AuditEntry{
		ActorID: admin.ID, Action: account.ActionRoleChanged, SubjectID: admin.ID, Detail: "bootstrap",
	})
	if err != nil || got.Role != account.Admin || got.ID != admin.ID {
		t.Fatalf("SetRole = %+v, %v", got, err)
	}
	if _, err := s.SetRole(ctx, u.ID, account.Affiliate, account.AuditEntry{ActorID: admin.ID, Action: account.ActionRoleChanged, SubjectID: u.ID}); err != nil {
		t.Fatal(err)
	}
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Role != account.Affiliate {
		t.Fatalf("role %q after SetRole", got.Role)
	}
	if emails := must[[]string](t, "AdminEmails")(s.AdminEmails(ctx)); !slices.Equal(emails, []string{"boss@example.kz"}) {
		t.Fatalf("AdminEmails = %v", emails)
	}
	es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{}))
	if len(es) != 2 || es[0].SubjectID != u.ID || es[1].SubjectID != admin.ID || es[1].Detail != "bootstrap" ||
		es[0].Action != account.ActionRoleChanged || !es[0].At.Equal(Start) {
		t.Fatalf("audit = %+v, want the two role changes newest first, stamped %v", es, Start)
	}
}

func testSetDisabled(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	u := create(t, s, "p@example.kz")
	other := create(t, s, "q@example.kz")
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Disabled() || got.DisabledReason != "" {
		t.Fatalf("a new user reads disabled: %+v", got)
	}
	at := Start.Add(90 * time.Minute)
	got, err := s.SetDisabled(ctx, u.ID, &at, "chargeback fraud", account.AuditEntry{
		ActorID: admin.ID, Action: account.ActionAccountDisabled, SubjectID: u.ID, Detail: "Account disabled: chargeback fraud",
	})
	if err != nil || got.ID != u.ID || got.DisabledAt == nil || !got.DisabledAt.Equal(at) || got.DisabledReason != "chargeback fraud" {
		t.Fatalf("SetDisabled = %+v, %v", got, err)
	}
	for _, read := range []func() (account.User, error){
		func() (account.User, error) { return s.ByID(ctx, u.ID) },
		func() (account.User, error) { return s.ByEmail(ctx, u.Email) },
	} {
		if got := must[account.User](t, "read")(read()); got.DisabledAt == nil || !got.DisabledAt.Equal(at) || got.DisabledReason != "chargeback fraud" {
			t.Fatalf("read back %+v, want disabled at %v", got, at)
		}
	}
	if got := must[account.User](t, "ByID other")(s.ByID(ctx, other.ID)); got.Disabled() {
		t.Fatal("another user reads disabled")
	}
	got, err = s.SetDisabled(ctx, u.ID, nil, "ignored", account.AuditEntry{ActorID: admin.ID, Action: account.ActionAccountEnabled, SubjectID: u.ID})
	if err != nil || got.Disabled() || got.DisabledReason != "" {
		t.Fatalf("enable = %+v, %v", got, err)
	}
	es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{}))
	if len(es) != 2 || es[0].Action != account.ActionAccountEnabled || es[1].Action != account.ActionAccountDisabled || es[1].SubjectID != u.ID {
		t.Fatalf("audit = %+v, want the disable and the enable, newest first", es)
	}
	_, err = s.SetDisabled(ctx, 1<<40, &at, "x", account.AuditEntry{ActorID: admin.ID, Action: account.ActionAccountDisabled})
	errstest.Code(t, err, errs.NotFound)
}

func testVerificationLifecycle(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	u := create(t, s, "p@example.kz")
	v, err := s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 0), From: account.NotSubmitted})
	if err != nil || v.ID <= 0 || v.Status != account.Pending {
		t.Fatalf("submit = %+v, %v", v, err)
	}
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Verification != account.Pending {
		t.Fatalf("user's status %q after submitting", got.Verification)
	}
	for what, got := range map[string]account.Verification{
		"Verification":     must[account.Verification](t, "Verification")(s.Verification(ctx, u.ID)),
		"VerificationByID": must[account.Verification](t, "VerificationByID")(s.VerificationByID(ctx, v.ID)),
	} {
		if got != v {
			t.Fatalf("%s = %+v, want %+v", what, got, v)
		}
	}

	// The admin rejects it, with audit; the user submits again; approved.
	rej := v
	rej.Status, rej.Reason, rej.DecidedAt, rej.DecidedBy = account.Rejected, "blurred", Start.Add(time.Hour), admin.ID
	audit := &account.AuditEntry{ActorID: admin.ID, Action: account.ActionVerificationRejected, SubjectID: u.ID, Detail: "blurred"}
	got, err := s.SaveVerification(ctx, account.VerificationChange{Verification: rej, From: account.Pending, Audit: audit})
	if err != nil || got != rej {
		t.Fatalf("reject = %+v, %v; want %+v", got, err, rej)
	}
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Verification != account.Rejected {
		t.Fatalf("user's status %q after rejection", got.Verification)
	}
	v2 := must[account.Verification](t, "resubmit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 1), From: account.Rejected}))
	if v2.ID <= v.ID {
		t.Fatalf("second verification id %d after %d", v2.ID, v.ID)
	}
	if latest := must[account.Verification](t, "Verification")(s.Verification(ctx, u.ID)); latest.ID != v2.ID {
		t.Fatalf("latest is %d, want %d", latest.ID, v2.ID)
	}
	if old := must[account.Verification](t, "VerificationByID old")(s.VerificationByID(ctx, v.ID)); old != rej {
		t.Fatalf("the rejected one now reads %+v", old)
	}
	ok := v2
	ok.Status, ok.DecidedAt, ok.DecidedBy = account.Approved, Start.Add(2*time.Hour), admin.ID
	must[account.Verification](t, "approve")(s.SaveVerification(ctx, account.VerificationChange{Verification: ok, From: account.Pending,
		Audit: &account.AuditEntry{ActorID: admin.ID, Action: account.ActionVerificationApproved, SubjectID: u.ID}}))
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Verification != account.Approved {
		t.Fatalf("user's status %q after approval", got.Verification)
	}
	es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{}))
	if len(es) != 2 || es[0].Action != account.ActionVerificationApproved || es[1].Action != account.ActionVerificationRejected {
		t.Fatalf("audit = %+v, want approval then rejection (newest first)", es)
	}
}

func testVerificationChecksFrom(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	u := create(t, s, "p@example.kz")
	_, err := s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 0), From: account.Pending,
		Audit: &account.AuditEntry{ActorID: admin.ID, Action: "X"}})
	errstest.Is(t, err, errs.Conflict, account.ReasonVerificationChanged)
	if _, err := s.Verification(ctx, u.ID); errs.CodeOf(err) != errs.NotFound {
		t.Fatalf("a refused change stored a verification (err %v)", err)
	}
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Verification != account.NotSubmitted {
		t.Fatalf("a refused change set the status to %q", got.Verification)
	}
	if es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{})); len(es) != 0 {
		t.Fatalf("a refused change appended audit %+v", es)
	}
	must[account.Verification](t, "submit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 0), From: account.NotSubmitted}))
	_, err = s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 1), From: account.NotSubmitted})
	errstest.Is(t, err, errs.Conflict, account.ReasonVerificationChanged)
}

func testOnlyLatest(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	u := create(t, s, "p@example.kz")
	v1 := must[account.Verification](t, "submit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 0), From: account.NotSubmitted}))
	rej := v1
	rej.Status, rej.Reason, rej.DecidedAt, rej.DecidedBy = account.Rejected, "blurred", Start, admin.ID
	must[account.Verification](t, "reject")(s.SaveVerification(ctx, account.VerificationChange{Verification: rej, From: account.Pending}))
	must[account.Verification](t, "resubmit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 1), From: account.Rejected}))
	// Deciding the old one again, though the user is PENDING: refused.
	old := v1
	old.Status, old.DecidedAt, old.DecidedBy = account.Approved, Start, admin.ID
	_, err := s.SaveVerification(ctx, account.VerificationChange{Verification: old, From: account.Pending})
	errstest.Is(t, err, errs.Conflict, account.ReasonVerificationChanged)
	if got := must[account.Verification](t, "VerificationByID")(s.VerificationByID(ctx, v1.ID)); got.Status != account.Rejected {
		t.Fatalf("the superseded verification is now %q", got.Status)
	}
	if got := must[account.User](t, "ByID")(s.ByID(ctx, u.ID)); got.Verification != account.Pending {
		t.Fatalf("user's status %q after the refused decision", got.Verification)
	}
}

func testConcurrentDecisions(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	u := create(t, s, "p@example.kz")
	v := must[account.Verification](t, "submit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, 0), From: account.NotSubmitted}))
	const n = 8
	var wins, lost atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			d := v
			d.Status, d.DecidedAt, d.DecidedBy = account.Approved, Start, admin.ID
			if i%2 == 1 {
				d.Status, d.Reason = account.Rejected, "no"
			}
			_, err := s.SaveVerification(ctx, account.VerificationChange{Verification: d, From: account.Pending,
				Audit: &account.AuditEntry{ActorID: admin.ID, Action: "DECIDED", SubjectID: u.ID}})
			switch {
			case err == nil:
				wins.Add(1)
			case errs.ReasonOf(err) == account.ReasonVerificationChanged:
				lost.Add(1)
			default:
				t.Errorf("decide: %v", err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 || lost.Load() != n-1 {
		t.Fatalf("%d decisions won, %d refused; want 1 and %d", wins.Load(), lost.Load(), n-1)
	}
	if es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{})); len(es) != 1 {
		t.Fatalf("%d audit entries, want only the winner's", len(es))
	}
}

func testPendingPaging(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	var pending []int64
	for i := range 7 {
		u := create(t, s, fmt.Sprintf("p%d@example.kz", i))
		v := must[account.Verification](t, "submit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(u.ID, i), From: account.NotSubmitted}))
		if i%3 == 2 { // decided: not pending any more
			v.Status, v.DecidedAt, v.DecidedBy = account.Approved, Start, admin.ID
			must[account.Verification](t, "approve")(s.SaveVerification(ctx, account.VerificationChange{Verification: v, From: account.Pending}))
			continue
		}
		pending = append(pending, v.ID)
	}
	// 5 pending: pages of 2, 2, 1; then a page of exactly the rest.
	var got []int64
	var pages int
	after := int64(0)
	for {
		vs, next, err := s.ListPendingVerifications(ctx, account.Page{After: after, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(vs) > 2 || pages > 5 {
			t.Fatalf("page %d has %d entries", pages, len(vs))
		}
		for _, v := range vs {
			if v.Status != account.Pending {
				t.Fatalf("listed a %s verification", v.Status)
			}
			got = append(got, v.ID)
		}
		if next == 0 {
			break
		}
		if next != vs[len(vs)-1].ID {
			t.Fatalf("next cursor %d, want the last id listed %d", next, vs[len(vs)-1].ID)
		}
		after = next
	}
	if !slices.Equal(got, pending) || pages != 3 {
		t.Fatalf("pending ids %v in %d pages, want %v (oldest first) in 3", got, pages, pending)
	}
	vs, next, err := s.ListPendingVerifications(ctx, account.Page{After: pending[2], Limit: 2})
	if err != nil || len(vs) != 2 || next != 0 {
		t.Fatalf("a page holding exactly the rest: %d entries, next %d, %v; want 2, 0", len(vs), next, err)
	}
	all, next, err := s.ListPendingVerifications(ctx, account.Page{})
	if err != nil || len(all) != 5 || next != 0 {
		t.Fatalf("default page: %d entries, next %d, %v", len(all), next, err)
	}
}

func testAuditPaging(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	var ids []int64
	for i := range 5 {
		e := must[account.AuditEntry](t, "AppendAudit")(s.AppendAudit(ctx, account.AuditEntry{ActorID: admin.ID, Action: fmt.Sprintf("A%d", i)}))
		if len(ids) > 0 && e.ID <= ids[len(ids)-1] {
			t.Fatalf("audit id %d after %d", e.ID, ids[len(ids)-1])
		}
		ids = append(ids, e.ID)
	}
	slices.Reverse(ids)
	var got []int64
	after, pages := int64(0), 0
	for {
		es, next, err := s.ListAudit(ctx, account.AuditFilter{}, account.Page{After: after, Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if pages > 5 {
			t.Fatal("paging does not end")
		}
		for _, e := range es {
			got = append(got, e.ID)
		}
		if next == 0 {
			break
		}
		if next != es[len(es)-1].ID {
			t.Fatalf("next cursor %d, want the last id listed %d", next, es[len(es)-1].ID)
		}
		after = next
	}
	if !slices.Equal(got, ids) || pages != 3 {
		t.Fatalf("audit ids %v in %d pages, want %v (newest first) in 3", got, pages, ids)
	}
	es, next, err := s.ListAudit(ctx, account.AuditFilter{}, account.Page{After: ids[3], Limit: 1})
	if err != nil || len(es) != 1 || es[0].ID != ids[4] || next != 0 {
		t.Fatalf("the last page: %+v, next %d, %v", es, next, err)
	}
	es, _, err = s.ListAudit(ctx, account.AuditFilter{}, account.Page{Limit: 1000})
	if err != nil || len(es) != 5 {
		t.Fatalf("a page of 1000 (clamped to 200): %d entries, %v", len(es), err)
	}
}

func testAuditFields(t *testing.T, s account.UserStore) {
	admin := create(t, s, "boss@example.kz")
	at := Start.Add(-90 * time.Minute)
	in := account.AuditEntry{
		At: at, ActorID: admin.ID, Action: "TABLE_SETTINGS_CHANGED", SubjectID: 3, SubjectKind: account.SubjectTable,
		Detail: "комиссия снижена (détail)", Changes: []account.AuditChange{{Field: "commission", From: "5.00%", To: "3.00%"}},
	}
	e := must[account.AuditEntry](t, "AppendAudit")(s.AppendAudit(ctx, in))
	noKind := must[account.AuditEntry](t, "AppendAudit no kind")(s.AppendAudit(ctx, account.AuditEntry{ActorID: admin.ID, Action: "X", SubjectID: admin.ID}))
	system := must[account.AuditEntry](t, "AppendAudit no subject")(s.AppendAudit(ctx, account.AuditEntry{Action: "SWEEP"}))
	es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{}))
	if len(es) != 3 {
		t.Fatalf("%d entries, want 3", len(es))
	}
	got := es[2]
	if got.ID != e.ID || !got.At.Equal(at) || got.ActorID != admin.ID || got.Action != in.Action || got.SubjectID != 3 ||
		got.SubjectKind != account.SubjectTable || got.Detail != in.Detail || !slices.Equal(got.Changes, in.Changes) {
		t.Fatalf("stored %+v, read back %+v", in, got)
	}
	if k := es[1]; k.ID != noKind.ID || k.SubjectKind != account.SubjectUser || k.SubjectID != admin.ID || !k.At.Equal(Start) {
		t.Fatalf("an entry without a subject kind reads %+v; want a user subject stamped %v", k, Start)
	}
	if sy := es[0]; sy.ID != system.ID || sy.ActorID != 0 || sy.SubjectID != 0 || sy.SubjectKind != "" || len(sy.Changes) != 0 {
		t.Fatalf("an entry without actor or subject reads %+v", sy)
	}
}

// testAuditFilters checks each filter of ListAudit alone and together, the
// time range's ends (From inclusive, To exclusive), and that paging under
// a filter reports a next page only when another matching entry exists.
func testAuditFilters(t *testing.T, s account.UserStore) {
	a := create(t, s, "a@example.kz")
	b := create(t, s, "b@example.kz")
	add := func(actor int64, action string, kind string, subject, table int64, at time.Time) int64 {
		t.Helper()
		return must[account.AuditEntry](t, "AppendAudit")(s.AppendAudit(ctx, account.AuditEntry{
			At: at, ActorID: actor, Action: action, SubjectKind: kind, SubjectID: subject, TableID: table,
		})).ID
	}
	h := time.Hour
	e1 := add(a.ID, "TOTE_TABLE_UPDATED", account.SubjectTable, 1, 1, Start.Add(-3*h))
	e2 := add(b.ID, "TOTE_DRAW_VOIDED", account.SubjectDraw, 9, 1, Start.Add(-2*h))
	e3 := add(a.ID, "TOTE_TABLE_PAUSED", account.SubjectTable, 2, 2, Start.Add(-h))
	e4 := add(a.ID, "DEPOSIT", account.SubjectUser, b.ID, 0, Start)
	e5 := add(b.ID, "TOTE_TABLE_UPDATED", account.SubjectTable, 2, 2, Start.Add(h))
	e6 := add(0, "SWEEP", "", 0, 0, Start.Add(2*h))

	ids := func(f account.AuditFilter) []int64 {
		t.Helper()
		es, next, err := s.ListAudit(ctx, f, account.Page{})
		if err != nil || next != 0 {
			t.Fatalf("ListAudit(%+v): next %d, %v", f, next, err)
		}
		out := make([]int64, len(es))
		for i, e := range es {
			out[i] = e.ID
		}
		return out
	}
	for _, c := range []struct {
		name string
		f    account.AuditFilter
		want []int64
	}{
		{"none", account.AuditFilter{}, []int64{e6, e5, e4, e3, e2, e1}},
		{"actor", account.AuditFilter{ActorID: a.ID}, []int64{e4, e3, e1}},
		{"action", account.AuditFilter{Action: "TOTE_TABLE_UPDATED"}, []int64{e5, e1}},
		{"table (its own and its draws')", account.AuditFilter{TableID: 1}, []int64{e2, e1}},
		{"from, inclusive", account.AuditFilter{From: Start.Add(-h)}, []int64{e6, e5, e4, e3}},
		{"to, exclusive", account.AuditFilter{To: Start}, []int64{e3, e2, e1}},
		{"from and to", account.AuditFilter{From: Start.Add(-2 * h), To: Start.Add(h)}, []int64{e4, e3, e2}},
		{"actor and table", account.AuditFilter{ActorID: b.ID, TableID: 2}, []int64{e5}},
		{"all at once", account.AuditFilter{ActorID: a.ID, Action: "TOTE_TABLE_PAUSED", TableID: 2, From: Start.Add(-h), To: Start}, []int64{e3}},
		{"nothing matches", account.AuditFilter{ActorID: b.ID, Action: "DEPOSIT"}, []int64{}},
		{"unknown actor", account.AuditFilter{ActorID: 1 << 40}, []int64{}},
	} {
		if got := ids(c.f); !slices.Equal(got, c.want) {
			t.Errorf("%s: ids %v, want %v", c.name, got, c.want)
		}
	}
	// The table is read back with the entry.
	es := must[[]account.AuditEntry](t, "ListAudit")(listAudit(s, account.Page{}))
	if es[4].ID != e2 || es[4].TableID != 1 || es[1].ID != e5 || es[1].TableID != 2 || es[2].TableID != 0 {
		t.Fatalf("tables read back: %+v", es)
	}
	// Paging under a filter: b's entries one at a time. The first page has
	// a next (e2 matches); the second does not, though e1 is older (not b's).
	page := func(f account.AuditFilter, after int64) ([]account.AuditEntry, int64) {
		t.Helper()
		es, next, err := s.ListAudit(ctx, f, account.Page{After: after, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return es, next
	}
	byB := account.AuditFilter{ActorID: b.ID}
	p1, n1 := page(byB, 0)
	if len(p1) != 1 || p1[0].ID != e5 || n1 != e5 {
		t.Fatalf("b's first page %+v, next %d; want e5 (%d) and a next", p1, n1, e5)
	}
	p2, n2 := page(byB, n1)
	if len(p2) != 1 || p2[0].ID != e2 || n2 != 0 {
		t.Fatalf("b's second page %+v, next %d; want e2 (%d) and no next", p2, n2, e2)
	}
	// A cursor of one filter continues another: a's entries older than e5.
	if p, n := page(account.AuditFilter{ActorID: a.ID}, e5); len(p) != 1 || p[0].ID != e4 || n != e4 {
		t.Fatalf("a's entries after e5: %+v, next %d", p, n)
	}
}

// testSearch: the back office's players' search finds a part of an email
// or a name, as typed or case folded (SQLite folds only ASCII), LIKE's
// wildcards taken literally, or the hash of an approved document only, by
// id, within the limit.
func testSearch(t *testing.T, s account.UserStore) {
	a := create(t, s, "aigerim.n@example.kz")
	b, err := s.Create(ctx, account.User{Email: "b_50%@example.kz", Name: "Ерлан Абаев", DateOfBirth: account.MustParseDate("1990-02-28"), Role: account.Player, PasswordHash: NewUser("x").PasswordHash})
	if err != nil {
		t.Fatal(err)
	}
	c := create(t, s, "other@example.kz")
	pending := must[account.Verification](t, "submit")(s.SaveVerification(ctx, account.VerificationChange{Verification: submission(c.ID, 7), From: account.NotSubmitted}))
	ids := func(text, hash string, limit int) []int64 {
		t.Helper()
		us, err := s.Search(ctx, text, hash, limit)
		if err != nil {
			t.Fatalf("Search(%q, %q): %v", text, hash, err)
		}
		var out []int64
		for _, u := range us {
			out = append(out, u.ID)
		}
		return out
	}
	for _, c := range []struct {
		text, hash string
		limit      int
		want       []int64
	}{
		{"AIGERIM.N", "", 10, []int64{a.ID}},
		{"aigerim", "", 10, []int64{a.ID, c.ID}}, // c is named Aigerim
		{"example.kz", "", 10, []int64{a.ID, b.ID, c.ID}},
		{"example.kz", "", 2, []int64{a.ID, b.ID}},
		{"Ерлан", "", 10, []int64{b.ID}},
		{"лан Аба", "", 10, []int64{b.ID}},
		{"_50%", "", 10, []int64{b.ID}},
		{"b%", "", 10, nil},
		{"zzz", pending.DocumentHash, 10, nil}, // not approved yet
	} {
		if got := ids(c.text, c.hash, c.limit); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("Search(%q, %q, %d) = %v; want %v", c.text, c.hash, c.limit, got, c.want)
		}
	}
	ok := pending
	ok.Status, ok.DecidedAt, ok.DecidedBy = account.Approved, Start.Add(time.Hour), a.ID
	must[account.Verification](t, "approve")(s.SaveVerification(ctx, account.VerificationChange{Verification: ok, From: account.Pending}))
	if got := ids("zzz", pending.DocumentHash, 10); fmt.Sprint(got) != fmt.Sprint([]int64{c.ID}) {
		t.Errorf("by the approved document's hash: %v; want [%d]", got, c.ID)
	}
}

// testTerms: a user created accepting the terms has accepted that version
// at their CreatedAt; an acceptance of another version is its own row, and
// accepting again keeps the first time; a taken email creates neither the
// user nor an acceptance.
func testTerms(t *testing.T, s account.UserStore) {
	u := NewUser("terms@example.kz")
	u.CreatedAt = Start.Add(-time.Hour)
	u = must[account.User](t, "CreateAccepting")(s.CreateAccepting(ctx, u, "v1"))
	if at := must[time.Time](t, "TermsAccepted")(s.TermsAccepted(ctx, u.ID, "v1")); !at.Equal(Start.Add(-time.Hour)) {
		t.Fatalf("v1 accepted at %s, want the user's creation %s", at, Start.Add(-time.Hour))
	}
	if _, err := s.TermsAccepted(ctx, u.ID, "v2"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("v2 before its acceptance: %v, want NotFound", err)
	}
	if at := must[time.Time](t, "AcceptTerms")(s.AcceptTerms(ctx, u.ID, "v2", Start)); !at.Equal(Start) {
		t.Fatalf("v2 accepted at %s, want %s", at, Start)
	}
	if at := must[time.Time](t, "AcceptTerms again")(s.AcceptTerms(ctx, u.ID, "v2", Start.Add(time.Hour))); !at.Equal(Start) {
		t.Fatalf("v2 accepted again reads %s, want the first time %s", at, Start)
	}
	if at := must[time.Time](t, "TermsAccepted")(s.TermsAccepted(ctx, u.ID, "v1")); !at.Equal(Start.Add(-time.Hour)) {
		t.Fatalf("v1 after v2: %s", at)
	}
	other := must[account.User](t, "Create")(s.Create(ctx, NewUser("staff@example.kz")))
	if _, err := s.TermsAccepted(ctx, other.ID, "v1"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("a user created without terms has accepted v1: %v", err)
	}
	if _, err := s.CreateAccepting(ctx, NewUser("TERMS@example.kz"), "v1"); errs.ReasonOf(err) != account.ReasonEmailTaken {
		t.Fatalf("a taken email: %v, want %s", err, account.ReasonEmailTaken)
	}
	if _, err := s.ByEmail(ctx, "TERMS@example.kz"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("the refused user was stored: %v", err)
	}
}
