// Package errs is Pokertote's one error type: a stable machine-readable code
// plus a message meant for the person who sent the request.
//
// Adapters map driver failures onto these codes at their boundary (no row ->
// NotFound, unique violation -> Conflict); the GraphQL layer turns the code into
// extensions.code and hides Internal errors behind a generic message.
package errs

import (
	"errors"
	"fmt"
)

// Code classifies an error for API clients. The string values are part of the
// public contract (extensions.code) and never change.
type Code string

// The stable error codes.
const (
	Invalid         Code = "BAD_USER_INPUT"
	NotFound        Code = "NOT_FOUND"
	Conflict        Code = "CONFLICT"
	Unauthenticated Code = "UNAUTHENTICATED"
	Forbidden       Code = "FORBIDDEN"
	Internal        Code = "INTERNAL"
	// Unavailable: a store (the database, Redis) did not answer in time or
	// cannot be reached; nothing was decided, try again (with the same
	// idempotency key for money).
	Unavailable Code = "UNAVAILABLE"
)

// Error is a domain error: a Code, a user-facing Message, an optional Reason
// (a finer, stable machine-readable sub-code such as "INSUFFICIENT_FUNDS") and
// an optional wrapped cause that is logged, never shown.
type Error struct {
	Code    Code
	Reason  string
	Message string
	Err     error
	// Details are facts the client may show beside the reason, in its own
	// words (extensions.<key>): INSUFFICIENT_FUNDS's balance and required
	// amount. Keys are part of the API, as reasons are.
	Details map[string]string
}

// With returns e with one more detail.
func (e *Error) With(key, value string) *Error {
	if e.Details == nil {
		e.Details = map[string]string{}
	}
	e.Details[key] = value
	return e
}

// DetailsOf reports the details of err, nil when it has none.
func DetailsOf(err error) map[string]string {
	var e *Error
	if errors.As(err, &e) {
		return e.Details
	}
	return nil
}

// Error returns the user-facing message, followed by the cause if there is one.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// E builds an Error with a formatted message.
func E(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// R builds an Error with a reason sub-code and a formatted message.
func R(code Code, reason, format string, args ...any) *Error {
	return &Error{Code: code, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// Wrap builds an Internal error around a cause; the message shown to users is
// generic, the cause is kept for the logs.
func Wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: Internal, Message: what, Err: err}
}

// CodeOf reports the code of err: its own when it carries one, Internal for
// any other non-nil error, "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ReasonOf reports the reason sub-code of err, "" when it has none.
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// Is reports whether err carries the given code.
func Is(err error, code Code) bool { return CodeOf(err) == code }

// The reasons an adapter gives the errors it maps from its driver's (no row,
// unique violation) when the caller named no finer one.
const (
	ReasonNotFound      = "NOT_FOUND"
	ReasonAlreadyExists = "ALREADY_EXISTS"
)

// ReasonCommitUnknown is the reason of the Internal error of a change whose
// commit was sent but never confirmed (the database connection dropped at
// commit): it may or may not have happened. Unlike other internal errors it
// is shown to the client, who must retry with the same idempotency key to
// learn the outcome without doing it twice.
const ReasonCommitUnknown = "COMMIT_UNKNOWN"

// ReasonDatabaseUnavailable is the reason of the Unavailable error of a
// change or read the database could not serve: its connection failed
// before any commit was sent (the primary is down or failing over, a
// partition), so nothing was changed. Like COMMIT_UNKNOWN it is shown to
// the client, who retries shortly (with the same idempotency key for a
// money mutation: always safe).
const ReasonDatabaseUnavailable = "DATABASE_UNAVAILABLE"

// DatabaseUnavailable is the error of a database that did not answer.
func DatabaseUnavailable(cause error) error {
	return &Error{Code: Unavailable, Reason: ReasonDatabaseUnavailable, Err: cause,
		Message: "the database is not answering (a failover may be in progress); nothing was changed: retry shortly"}
}

// CommitUnknown is the error of a commit whose outcome is unknown.
func CommitUnknown(cause error) error {
	return &Error{Code: Internal, Reason: ReasonCommitUnknown, Err: cause,
		Message: "the outcome is unknown: the database connection failed while committing; retry with the same idempotency key to get the result"}
}
