package account

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// DefaultTermsVersion is the version of the terms when the operator names
// none (Config.TermsVersion).
const DefaultTermsVersion = "2026-12-06"

// MaxTermsVersionLen is the longest terms version.
const MaxTermsVersionLen = 64

// Terms is the terms in force and, for one player, when they accepted
// that version (nil: not yet).
type Terms struct {
	Version    string
	AcceptedAt *time.Time
}

func validTermsVersion(v string) bool {
	if v == "" || len(v) > MaxTermsVersionLen {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] >= 0x7f {
			return false
		}
	}
	return true
}

// checkTerms accepts the version in force only: a missing acceptance is
// TERMS_NOT_ACCEPTED, any other version TERMS_OUTDATED.
func (s *Service) checkTerms(version string) error {
	switch version {
	case s.terms:
		return nil
	case "":
		return errs.R(errs.Invalid, ReasonTermsNotAccepted, "read and accept the terms (version %s) to open an account", s.terms)
	}
	return errs.R(errs.Invalid, ReasonTermsOutdated, "the terms in force are version %s; read and accept them", s.terms)
}

// Terms is the terms in force and when userID accepted them (userID 0, for
// nobody signed in, has accepted nothing).
func (s *Service) Terms(ctx context.Context, userID int64) (Terms, error) {
	t := Terms{Version: s.terms}
	if userID == 0 {
		return t, nil
	}
	at, err := s.store.TermsAccepted(ctx, userID, s.terms)
	if errs.Is(err, errs.NotFound) {
		return t, nil
	}
	if err != nil {
		return Terms{}, err
	}
	t.AcceptedAt = &at
	return t, nil
}

// AcceptTerms records that userID accepted the terms in force, which must
// be version (TERMS_OUTDATED otherwise: the player read another). Accepting
// again keeps the first time.
func (s *Service) AcceptTerms(ctx context.Context, userID int64, version string) (Terms, error) {
	if err := s.checkTerms(version); err != nil {
		return Terms{}, err
	}
	if _, err := s.store.ByID(ctx, userID); err != nil {
		return Terms{}, err
	}
	at, err := s.store.AcceptTerms(ctx, userID, s.terms, s.now())
	if err != nil {
		return Terms{}, err
	}
	return Terms{Version: s.terms, AcceptedAt: &at}, nil
}
