package account

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/paging"
)

// UserStore is the persistence the account Service consumes. Every method
// maps "no such row" to errs.NotFound; implementations must be safe for
// concurrent use.
type UserStore interface {
	// Create stores a new user and returns it with its ID assigned. An email
	// already taken (compared exactly; emails are stored normalized) is
	// errs.Conflict with reason EMAIL_TAKEN.
	Create(ctx context.Context, u User) (User, error)
	// CreateAccepting is Create, and records in the same transaction that
	// the new user accepted the terms of version terms at u.CreatedAt.
	CreateAccepting(ctx context.Context, u User, terms string) (User, error)
	// AcceptTerms records that the user accepted the terms of version at
	// at, and returns when they first accepted that version (a repeated
	// acceptance keeps the first).
	AcceptTerms(ctx context.Context, userID int64, version string, at time.Time) (time.Time, error)
	// TermsAccepted is when the user accepted the terms of version;
	// errs.NotFound if they have not.
	TermsAccepted(ctx context.Context, userID int64, version string) (time.Time, error)
	// ByEmail finds a user by normalized email.
	ByEmail(ctx context.Context, email string) (User, error)
	// ByID finds a user by id.
	ByID(ctx context.Context, id int64) (User, error)
	// Search lists the users whose email or name contains text (as typed,
	// or case folded where the database can fold it), or whose approved
	// document's hash is documentHash (when not empty), by id, at most
	// limit.
	Search(ctx context.Context, text, documentHash string, limit int) ([]User, error)
	// AdminEmails lists the emails of every ADMIN (a handful), to refuse
	// look-alike addresses at registration.
	AdminEmails(ctx context.Context) ([]string, error)
	// ByIDs loads many users at once (in no particular order; missing ids
	// are left out), for the API's per-request loaders.
	ByIDs(ctx context.Context, ids []int64) ([]User, error)
	// SetPasswordHash replaces a user's password hash (after a rehash).
	SetPasswordHash(ctx context.Context, userID int64, hash string) error
	// SetRole changes a user's role and appends audit, atomically.
	SetRole(ctx context.Context, userID int64, role Role, audit AuditEntry) (User, error)
	// SetDisabled disables the account at at with reason (at nil enables it
	// and clears the reason) and appends audit, atomically.
	SetDisabled(ctx context.Context, userID int64, at *time.Time, reason string, audit AuditEntry) (User, error)

	// Verification is the user's latest verification.
	Verification(ctx context.Context, userID int64) (Verification, error)
	// VerificationByID finds one verification.
	VerificationByID(ctx context.Context, id int64) (Verification, error)
	// SaveVerification applies a change atomically (see VerificationChange)
	// and returns the verification as stored.
	SaveVerification(ctx context.Context, c VerificationChange) (Verification, error)
	// ListPendingVerifications lists PENDING verifications oldest first.
	ListPendingVerifications(ctx context.Context, p Page) ([]Verification, int64, error)

	// AppendAudit records an admin action and returns it with ID and At set
	// (At is kept when the caller set it).
	AppendAudit(ctx context.Context, e AuditEntry) (AuditEntry, error)
	// ListAudit lists the audit entries f selects, newest first.
	ListAudit(ctx context.Context, f AuditFilter, p Page) ([]AuditEntry, int64, error)
}

// VerificationChange is one atomic step of a user's verification. The store
// checks that the user's current status (NONE when they have no
// verification) is From, else it fails with errs.Conflict reason
// VERIFICATION_CHANGED and changes nothing; this makes two admins deciding
// at once, or two submissions at once, safe. Then, in one transaction: a
// Verification with ID 0 is inserted as the user's new latest one (ID
// assigned), otherwise the existing one (which must be the user's latest) is
// updated; User.Verification is set to its Status; and Audit, when not nil,
// is appended.
type VerificationChange struct {
	Verification Verification
	From         VerificationStatus
	Audit        *AuditEntry
}

// AuditEntry is one admin action, kept forever.
type AuditEntry struct {
	ID int64
	At time.Time
	// ActorID is the admin who acted.
	ActorID int64
	// Action is a stable verb such as "VERIFICATION_APPROVED".
	Action string
	// SubjectID is what was acted upon (0 when none): a user unless
	// SubjectKind names another kind.
	SubjectID int64
	// SubjectKind is the kind of SubjectID: SubjectUser (also when empty),
	// SubjectTable, SubjectDraw.
	SubjectKind string
	// Detail is one human sentence (the reason given, what changed).
	Detail string
	// Changes lists each setting the action changed, before and after, in
	// the display form an admin reads ("100.00", "3.00%").
	Changes []AuditChange
	// TableID is the totalizator table the action concerns, the table
	// itself (settings, pause) or one of its draws (a void); 0 when none.
	TableID int64
}

// AuditFilter selects audit entries: each field set must match (zero
// fields match everything).
type AuditFilter struct {
	ActorID int64     // who acted; 0: anyone
	Action  string    // exactly this action; "": any
	TableID int64     // about this table or one of its draws; 0: any
	From    time.Time // At at or after From; zero: unbounded
	To      time.Time // At before To; zero: unbounded
}

// Match reports whether f selects e (the in-memory twin's filter, and the
// definition the stores' queries follow).
func (f AuditFilter) Match(e AuditEntry) bool {
	return (f.ActorID == 0 || e.ActorID == f.ActorID) && (f.Action == "" || e.Action == f.Action) &&
		(f.TableID == 0 || e.TableID == f.TableID) &&
		(f.From.IsZero() || !e.At.Before(f.From)) && (f.To.IsZero() || e.At.Before(f.To))
}

// AuditChange is one setting an admin action changed.
type AuditChange struct {
	Field, From, To string
}

// Kinds of an audit entry's subject.
const (
	SubjectUser  = "user"
	SubjectTable = "table"
	SubjectDraw  = "draw"
)

// Audit actions recorded by the Service.
const (
	ActionVerificationApproved = "VERIFICATION_APPROVED"
	ActionVerificationRejected = "VERIFICATION_REJECTED"
	ActionRoleChanged          = "ROLE_CHANGED"
	ActionAccountDisabled      = "ACCOUNT_DISABLED"
	ActionAccountEnabled       = "ACCOUNT_ENABLED"
)

// Page asks for one page of a listing by id. After is the Next returned with
// the previous page (0 for the first); Limit is clamped to 1..paging.StoreMax,
// paging.Default when zero. Listings return the Next cursor, 0 after the last page.
//
// A Backward page is the one just before After in the listing's order (the
// listing's end when After is 0), still listed in that order; its Next is
// the cursor to read on backward (its first item's id), 0 when nothing
// precedes it.
type Page struct {
	After    int64
	Limit    int
	Backward bool
}

// Size is the page's limit after clamping.
func (p Page) Size() int {
	return paging.Size(p.Limit, paging.StoreMax)
}

// BackwardPage cuts the backward page p from all the items on its side of
// its cursor, in listing order: the last p.Size() of them and the Next of
// a Backward page. For stores that hold their listings in memory.
func BackwardPage[T any](all []T, p Page, id func(T) int64) ([]T, int64, error) {
	size := p.Size()
	if len(all) <= size {
		return all, 0, nil
	}
	out := all[len(all)-size:]
	return out, id(out[0]), nil
}
