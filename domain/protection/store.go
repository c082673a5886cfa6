package protection

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/account"
)

// Store keeps the protection state. Implementations must be safe for
// concurrent use; the persistence adapter and the test twin
// (protectiontest.MemStore) pass protectiontest.Run.
type Store interface {
	// Limits lists the user's stored limits (as stored: callers apply At).
	Limits(ctx context.Context, userID int64) (Limits, error)
	// UpdateLimit reads the user's limit of kind and period (the zero Limit
	// when none), applies fn and stores its result, atomically: two updates
	// of one limit never interleave.
	UpdateLimit(ctx context.Context, userID int64, kind LimitKind, p Period, fn func(Limit) (Limit, error)) (Limit, error)
	// Exclusion is the user's latest own exclusion (zero when none).
	Exclusion(ctx context.Context, userID int64) (Exclusion, error)
	// UpdateExclusion reads the user's exclusion, applies fn and stores its
	// result, atomically, and serialised with the player's money: fn runs
	// after the lock every stake and deposit of the player takes (a
	// database store: the player's wallet row), so a stake either commits
	// before fn runs or reads fn's result after it commits.
	UpdateExclusion(ctx context.Context, userID int64, fn func(Exclusion) (Exclusion, error)) (Exclusion, error)
	// RecordHit keeps that a stake or deposit of the user was refused by
	// a limit of kind at at (the refused money moved nothing, so the
	// refusal leaves no other trace).
	RecordHit(ctx context.Context, userID int64, kind LimitKind, at time.Time) error
	// Counters are the user's counters of the periods holding at in loc.
	Counters(ctx context.Context, userID int64, at time.Time, loc *time.Location) (Counters, error)

	// AddRegisterEntries adds entries (ID, AddedBy, AddedAt set by the
	// caller except ID) and one audit entry per added entry, atomically, and
	// returns them with IDs.
	AddRegisterEntries(ctx context.Context, entries []RegisterEntry, audit account.AuditEntry) ([]RegisterEntry, error)
	// RemoveRegisterEntry marks an active entry removed and appends audit,
	// atomically: NotFound for an unknown id, Conflict ALREADY_REMOVED for a
	// removed one.
	RemoveRegisterEntry(ctx context.Context, id, by int64, at time.Time, audit account.AuditEntry) (RegisterEntry, error)
	// ListRegister lists entries, newest first, active only unless all.
	ListRegister(ctx context.Context, all bool, p account.Page) ([]RegisterEntry, int64, error)
	// RegisterMatches reports whether an active entry names one of docs, or
	// nameKey with dob.
	RegisterMatches(ctx context.Context, docs []string, nameKey string, dob account.Date) (bool, error)
}

// Audit actions on the register.
const (
	ActionRegisterAdded   = "EXCLUSION_REGISTER_ADDED"
	ActionRegisterRemoved = "EXCLUSION_REGISTER_REMOVED"
)
