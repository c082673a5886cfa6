package persistence

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
)

// isUniqueViolation reports whether err is a unique-constraint failure in
// either dialect.
func isUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// isCheckViolation reports whether err is a CHECK-constraint failure.
func isCheckViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23514"
	}
	return err != nil && strings.Contains(err.Error(), "CHECK constraint failed")
}

// isSerializationFailure reports a Postgres serialization failure or
// deadlock, after which the transaction may be retried.
func isSerializationFailure(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "40001" || pg.Code == "40P01"
	}
	return false
}

// mapErr turns a driver error into a domain error: no row -> NotFound with
// the given noun, unique violation -> Conflict, anything else Internal.
// Domain errors pass through unchanged.
func mapErr(err error, noun string) error {
	if err == nil {
		return nil
	}
	var de *errs.Error
	if errors.As(err, &de) {
		return err
	}
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return errs.R(errs.NotFound, "NOT_FOUND", "%s not found", noun)
	case isUniqueViolation(err):
		return &errs.Error{Code: errs.Conflict, Reason: "ALREADY_EXISTS", Message: noun + " already exists", Err: err}
	default:
		return errs.Wrap(err, "database error")
	}
}

// isForeignKeyViolation reports a foreign-key failure in either dialect.
func isForeignKeyViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23503"
	}
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}
