// Package accountdbtest creates the players that the persistence packages'
// tests need.
package accountdbtest

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/persistence/accountdb"
)

// NewUser is a valid adult player with this email, not yet stored.
func NewUser(email string) account.User {
	return account.User{
		Email:        email,
		Name:         "Aigerim",
		DateOfBirth:  account.MustParseDate("1990-02-28"),
		Role:         account.Player,
		PasswordHash: "$argon2id$v=19$m=65536,t=3,p=2$c2FsdA$aGFzaA",
	}
}

// MustCreateUser stores NewUser(email) in r, failing t if it cannot.
func MustCreateUser(t testing.TB, r *accountdb.UserRepo, email string) account.User {
	t.Helper()
	u, err := r.Create(context.Background(), NewUser(email))
	if err != nil {
		t.Fatalf("Create(%s): %v", email, err)
	}
	return u
}
