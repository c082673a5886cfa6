package sqldb

// # Driver errors
//
// Every repository of this package turns a driver error into a domain
// error with one function, MapErr, and asks what kind of failure an error
// is with one function, classify, so that Postgres codes and SQLite
// messages are told apart in this file only:
//
//	nil                                  -> nil
//	a domain error (*errs.Error)          -> unchanged
//	gorm.ErrRecordNotFound               -> NotFound "NOT_FOUND" "<noun> not found" (or the repository's own, notFound)
//	unique violation (23505)             -> Conflict "ALREADY_EXISTS" "<noun> already exists" (or conflict(reason, message))
//	serialization failure, deadlock      -> retried by RetryTx (retry.go); Internal if it gets here
//	check, foreign key, numeric overflow -> Internal, unless the repository maps it first (see violates)
//	connection failed or refused, server  -> Unavailable "DATABASE_UNAVAILABLE" (a failover, a partition: nothing was
//	shutting down, session read-only        changed; a failed COMMIT is COMMIT_UNKNOWN before it gets here)
//	anything else                        -> Internal "database error"

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
)

// failure is the kind of a driver error.
type failure int

const (
	failOther           failure = iota
	failNone                    // nil
	failNoRow                   // gorm.ErrRecordNotFound
	failUnique                  // unique constraint
	failCheck                   // CHECK constraint
	failForeignKey              // foreign key
	failSerialization           // serialization failure or deadlock: retry the transaction
	failNumericOverflow         // bigint out of range
	failUnavailable             // no usable connection: a failover or partition
)

// classify tells what kind of failure err is, in either dialect.
func classify(err error) failure {
	if err == nil {
		return failNone
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return failNoRow
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code {
		case "23505":
			return failUnique
		case "23514":
			return failCheck
		case "23503":
			return failForeignKey
		case "40001", "40P01":
			return failSerialization
		case "22003":
			return failNumericOverflow
		case "57P01", "57P02", "57P03", "25006":
			// The server is shutting down or not yet up, or this session is
			// on a node that is now a standby (read-only).
			return failUnavailable
		}
		if strings.HasPrefix(pg.Code, "08") {
			return failUnavailable
		}
		return failOther
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	if errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, net.ErrClosed) {
		return failUnavailable
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "UNIQUE constraint failed"):
		return failUnique
	case strings.Contains(msg, "CHECK constraint failed"):
		return failCheck
	case strings.Contains(msg, "FOREIGN KEY constraint failed"):
		return failForeignKey
	}
	return failOther
}

// IsUniqueViolation reports whether err is a unique-constraint failure in
// either dialect.
func IsUniqueViolation(err error) bool { return classify(err) == failUnique }

// IsCheckViolation reports whether err is a CHECK-constraint failure.
func IsCheckViolation(err error) bool { return classify(err) == failCheck }

// IsForeignKeyViolation reports a foreign-key failure in either dialect.
func IsForeignKeyViolation(err error) bool { return classify(err) == failForeignKey }

// IsSerializationFailure reports a Postgres serialization failure or
// deadlock, after which the transaction may be retried (RetryTx does).
func IsSerializationFailure(err error) bool { return classify(err) == failSerialization }

// IsNumericOverflow reports a Postgres "bigint out of range".
func IsNumericOverflow(err error) bool { return classify(err) == failNumericOverflow }

// Violates reports whether err is a CHECK violation of the named constraint.
func Violates(err error, constraint string) bool {
	if !IsCheckViolation(err) {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.ConstraintName == constraint
	}
	return strings.Contains(err.Error(), constraint)
}

// errMapping is what MapErr returns for the failures a repository names
// itself.
type errMapping struct {
	notFound error
	conflict func(err error) error
}

// ErrOption overrides one line of MapErr's table.
type ErrOption func(*errMapping)

// NotFound makes a missing row e instead of the generic NOT_FOUND.
func NotFound(e error) ErrOption { return func(m *errMapping) { m.notFound = e } }

// Conflict makes a unique violation a Conflict with this reason and
// message, wrapping the driver's error.
func Conflict(reason, message string) ErrOption {
	return func(m *errMapping) {
		m.conflict = func(err error) error {
			return &errs.Error{Code: errs.Conflict, Reason: reason, Message: message, Err: err}
		}
	}
}

// MapErr turns a driver error into a domain error by the table at the top
// of this file; noun names the thing looked for. Domain errors pass through
// unchanged.
func MapErr(err error, noun string, opts ...ErrOption) error {
	if err == nil {
		return nil
	}
	var de *errs.Error
	if errors.As(err, &de) {
		return err
	}
	var m errMapping
	for _, o := range opts {
		o(&m)
	}
	switch classify(err) {
	case failNoRow:
		if m.notFound != nil {
			return m.notFound
		}
		return errs.R(errs.NotFound, errs.ReasonNotFound, "%s not found", noun)
	case failUnique:
		if m.conflict != nil {
			return m.conflict(err)
		}
		return &errs.Error{Code: errs.Conflict, Reason: errs.ReasonAlreadyExists, Message: noun + " already exists", Err: err}
	case failUnavailable:
		return errs.DatabaseUnavailable(err)
	}
	return errs.Wrap(err, "database error")
}
