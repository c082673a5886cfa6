package model

import "time"

// User is an account as the API shows it. It is written by hand (not
// generated) for one field the schema does not show: SignedIn.
type User struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	DateOfBirth Date   `json:"dateOfBirth"`
	Role        Role   `json:"role"`
	// Age today in the operator's time zone.
	Age          int           `json:"age"`
	Verification *Verification `json:"verification"`
	// True when this user may stake money now: verified and old enough today.
	CanStake  bool      `json:"canStake"`
	Balance   Money     `json:"balance"`
	CreatedAt time.Time `json:"createdAt"`
	// DisabledAt and DisabledReason: set while an admin has disabled the
	// account.
	DisabledAt     *time.Time `json:"disabledAt"`
	DisabledReason *string    `json:"disabledReason"`
	// SignedIn marks the user of an AuthPayload: the tokens issued in the
	// same answer are this user's, so the owner-only fields are theirs to
	// read although the request itself carried no (or another) token.
	SignedIn bool `json:"-"`
}

// IsNode implements Node (the generated types get theirs from gqlgen).
func (User) IsNode() {}
