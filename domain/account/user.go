package account

import "time"

// Role is what a user may do. The string values are part of the API.
type Role string

// The roles.
const (
	// Player bets and plays; the only role that may stake money.
	Player Role = "PLAYER"
	// Affiliate has read-only access to results.
	Affiliate Role = "AFFILIATE"
	// Admin runs tables, records cash and decides age verifications.
	Admin Role = "ADMIN"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == Player || r == Affiliate || r == Admin }

// User is a registered person: a player, an affiliate or an admin.
type User struct {
	ID int64
	// Email is normalized to lower case and unique.
	Email string
	Name  string
	// DateOfBirth is a civil date; ages are reckoned in the operator's zone.
	DateOfBirth Date
	Role        Role
	// PasswordHash is an Argon2id PHC string; never shown to anyone.
	PasswordHash string
	CreatedAt    time.Time
	// Verification is the status of the user's latest age verification
	// (NONE before the first submission).
	Verification VerificationStatus
	// DisabledAt is when an admin disabled the account (nil while it is
	// enabled): a disabled account cannot sign in or refresh, and its tokens
	// were revoked when it was disabled.
	DisabledAt *time.Time
	// DisabledReason is the admin's reason (admins only; "" while enabled).
	DisabledReason string
}

// Disabled reports whether an admin disabled the account.
func (u User) Disabled() bool { return u.DisabledAt != nil }
