package errstest_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
)

// recorder is a T that records whether the assertion failed.
type recorder struct{ failed bool }

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestIs(t *testing.T) {
	conflict := fmt.Errorf("wrapped: %w", errs.R(errs.Conflict, "TAKEN", "taken"))
	tests := []struct {
		name   string
		err    error
		code   errs.Code
		reason string
		fail   bool
	}{
		{"code and reason", conflict, errs.Conflict, "TAKEN", false},
		{"other reason", conflict, errs.Conflict, "OTHER", true},
		{"no reason asked, one carried", conflict, errs.Conflict, "", true},
		{"other code", conflict, errs.Invalid, "TAKEN", true},
		{"no reason", errs.E(errs.NotFound, "gone"), errs.NotFound, "", false},
		{"plain error is internal", errors.New("boom"), errs.Internal, "", false},
		{"no error asked", nil, "", "", false},
		{"no error asked, one came", conflict, "", "", true},
		{"error asked, none came", nil, errs.Conflict, "TAKEN", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r recorder
			errstest.Is(&r, tc.err, tc.code, tc.reason)
			if r.failed != tc.fail {
				t.Errorf("failed = %v, want %v", r.failed, tc.fail)
			}
		})
	}
}

func TestCode(t *testing.T) {
	conflict := errs.R(errs.Conflict, "TAKEN", "taken")
	var r recorder
	if errstest.Code(&r, conflict, errs.Conflict); r.failed {
		t.Error("Code failed on the error's own code")
	}
	if errstest.Code(&r, conflict, errs.Invalid); !r.failed {
		t.Error("Code passed on another code")
	}
}
