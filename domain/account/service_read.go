package account

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/paging"
)

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

// MaxSearch bounds a players' search.
const MaxSearch = 100

// SearchUsers is the back office's players' search: text is part of an
// email or a name, a document number (its hash is looked up) or a document
// hash (64 hex digits). At least 2 characters; at most limit (1 to
// MaxSearch) users, by id.
func (s *Service) SearchUsers(ctx context.Context, text string, limit int) ([]User, error) {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) < 2 || len(text) > 200 {
		return nil, errs.R(errs.Invalid, ReasonInvalidSearch, "search: 2 to 200 characters of an email, a name or a document")
	}
	if limit < 1 || limit > MaxSearch {
		return nil, errs.R(errs.Invalid, paging.ReasonInvalidPageSize, "first: 1 to %d", MaxSearch)
	}
	hash := ""
	if isHexHash(text) {
		hash = strings.ToLower(text)
	} else if h, err := HashDocumentNumber(s.pepper, text); err == nil {
		hash = h
	}
	return s.store.Search(ctx, text, hash, limit)
}

func isHexHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
