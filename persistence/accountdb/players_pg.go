package accountdb

import (
	"github.com/jackc/pgx/v5"

	"github.com/pokertote/pokertote/domain/account"
)

// The bet path's pgx fast path reads the players of a batch (their rows
// and latest verifications) in the same pipeline as its other reads; these
// give it the rows' shapes and read them back as the domain's values.

// PlayerModels are the user and verification rows, for listing their
// columns as GORM maps them (the names pgx.RowToStructByName matches).
func PlayerModels() (user, verification any) { return &userRow{}, &verificationRow{} }

// CollectUsers reads rows of the user columns as users.
func CollectUsers(rows pgx.Rows) ([]account.User, error) {
	got, err := pgx.CollectRows(rows, pgx.RowToStructByName[userRow])
	out := make([]account.User, len(got))
	for i, r := range got {
		out[i] = toDomainUser(r)
	}
	return out, err
}

// CollectVerifications reads rows of the verification columns as
// verifications.
func CollectVerifications(rows pgx.Rows) ([]account.Verification, error) {
	got, err := pgx.CollectRows(rows, pgx.RowToStructByName[verificationRow])
	out := make([]account.Verification, len(got))
	for i, r := range got {
		out[i] = toDomainVerification(r)
	}
	return out, err
}

// UserNotFound is the error of a user id that names no user.
func UserNotFound() error { return userNotFound() }
