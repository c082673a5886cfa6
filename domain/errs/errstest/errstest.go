// Package errstest holds the one assertion every test makes on a domain
// error: its code and its reason.
package errstest

import "github.com/pokertote/pokertote/domain/errs"

// T is the part of testing.TB the assertions use.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Is fails t unless err carries code and exactly reason. A reason of ""
// asks for an error without one; code and reason both "" ask for no error.
func Is(t T, err error, code errs.Code, reason string) {
	t.Helper()
	if errs.CodeOf(err) != code || errs.ReasonOf(err) != reason {
		t.Fatalf("error = %v (code %q, reason %q), want code %q reason %q", err, errs.CodeOf(err), errs.ReasonOf(err), code, reason)
	}
}

// Code fails t unless err carries code, whatever its reason.
func Code(t T, err error, code errs.Code) {
	t.Helper()
	if errs.CodeOf(err) != code {
		t.Fatalf("error = %v (code %q, reason %q), want code %q", err, errs.CodeOf(err), errs.ReasonOf(err), code)
	}
}
