package protection

import (
	"time"

	"github.com/pokertote/pokertote/domain/money"
)

// ChangeKind says what a protection change changed.
type ChangeKind string

// The change kinds.
const (
	// LimitChanged: a player set, lowered, raised or removed a limit (a
	// raise or removal waits its cooling-off: Pending says so).
	LimitChanged ChangeKind = "LIMIT"
	// ExclusionChanged: a player took a time-out or excluded themselves.
	ExclusionChanged ChangeKind = "EXCLUSION"
	// RegisterAdded and RegisterRemoved: an admin added an entry to the
	// exclusion register, or removed one.
	RegisterAdded   ChangeKind = "REGISTER_ADDED"
	RegisterRemoved ChangeKind = "REGISTER_REMOVED"
)

// Change is one change of a player's protection as its history keeps it
// (the store writes it in the change's own transaction): what the
// regulator's feed and the reports read. UserID is 0 for a register entry,
// which names a document hash (DocumentHash) or a name and date of birth,
// not an account.
type Change struct {
	ID           int64      `json:"-"`
	UserID       int64      `json:"-"`
	DocumentHash string     `json:"-"`
	Kind         ChangeKind `json:"kind"`
	At           time.Time  `json:"at"`

	// A limit's state after the change.
	LimitKind     LimitKind    `json:"limitKind,omitempty"`
	Period        Period       `json:"period,omitempty"`
	Amount        money.Amount `json:"amount,omitempty"`
	Pending       bool         `json:"pending,omitempty"`
	PendingAmount money.Amount `json:"pendingAmount,omitempty"`
	PendingAt     *time.Time   `json:"pendingAt,omitempty"`

	// An exclusion after the change: its kind and end (nil: permanent).
	Exclusion ExclusionKind `json:"exclusion,omitempty"`
	Until     *time.Time    `json:"until,omitempty"`

	// A register entry's id.
	RegisterID int64 `json:"registerId,omitempty"`
}

// LimitChange is the change that left l as it is at at.
func LimitChange(userID int64, l Limit, at time.Time) Change {
	c := Change{UserID: userID, Kind: LimitChanged, At: at, LimitKind: l.Kind, Period: l.Period, Amount: l.Amount, Pending: l.Pending, PendingAmount: l.PendingAmount}
	if l.Pending {
		t := l.PendingAt
		c.PendingAt = &t
	}
	return c
}

// ExclusionChange is the change that put e in force.
func ExclusionChange(userID int64, e Exclusion, at time.Time) Change {
	c := Change{UserID: userID, Kind: ExclusionChanged, At: at, Exclusion: e.Kind}
	if !e.Until.IsZero() {
		t := e.Until
		c.Until = &t
	}
	return c
}

// RegisterChange is the change of register entry e: added, or removed
// when removed is set.
func RegisterChange(e RegisterEntry, removed bool, at time.Time) Change {
	kind := RegisterAdded
	if removed {
		kind = RegisterRemoved
	}
	return Change{DocumentHash: e.DocumentHash, Kind: kind, At: at, RegisterID: e.ID}
}
