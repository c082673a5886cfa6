package account

import "context"

// The service's reads: the API shows users and their verifications through
// these, never through the store itself.

// User is a user by id; NotFound when there is none.
func (s *Service) User(ctx context.Context, id int64) (User, error) { return s.store.ByID(ctx, id) }

// UserByEmail is a user by email, normalized as at registration (so
// " Bob@X.kz " finds bob@x.kz), for the cashier's search: Invalid
// INVALID_EMAIL for something that is not an address, NotFound when no one
// has it. Lookalike addresses are not matched: the cashier pays exactly whom
// they typed.
func (s *Service) UserByEmail(ctx context.Context, email string) (User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return User{}, err
	}
	return s.store.ByEmail(ctx, e)
}

// UsersByID loads many users at once (in no particular order; missing ids
// are left out), for the API's per-request loaders.
func (s *Service) UsersByID(ctx context.Context, ids []int64) ([]User, error) {
	return s.store.ByIDs(ctx, ids)
}

// Verification is the user's latest age verification; NotFound when they
// never submitted one.
func (s *Service) Verification(ctx context.Context, userID int64) (Verification, error) {
	return s.store.Verification(ctx, userID)
}
