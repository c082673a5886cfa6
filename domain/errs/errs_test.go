package errs_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
)

func TestCodeOf(t *testing.T) {
	domain := errs.R(errs.Conflict, "INSUFFICIENT_FUNDS", "insufficient funds")
	cases := []struct {
		name   string
		err    error
		code   errs.Code
		reason string
	}{
		{"nil", nil, "", ""},
		{"plain error is internal", io.EOF, errs.Internal, ""},
		{"domain error", domain, errs.Conflict, "INSUFFICIENT_FUNDS"},
		{"wrapped domain error keeps its code", fmt.Errorf("post: %w", domain), errs.Conflict, "INSUFFICIENT_FUNDS"},
		{"Wrap of a plain error is internal", errs.Wrap(io.EOF, "database error"), errs.Internal, ""},
		{"Wrap of a domain error keeps it", errs.Wrap(domain, "database error"), errs.Conflict, "INSUFFICIENT_FUNDS"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := errs.CodeOf(c.err); got != c.code {
				t.Errorf("CodeOf = %q, want %q", got, c.code)
			}
			if got := errs.ReasonOf(c.err); got != c.reason {
				t.Errorf("ReasonOf = %q, want %q", got, c.reason)
			}
		})
	}
}

func TestWrapKeepsTheCauseForLogsOnly(t *testing.T) {
	err := errs.Wrap(io.EOF, "database error")
	var e *errs.Error
	if !errors.As(err, &e) || e.Message != "database error" || !errors.Is(err, io.EOF) {
		t.Fatalf("Wrap = %#v", err)
	}
	if errs.Wrap(nil, "x") != nil {
		t.Fatal("Wrap(nil) is not nil")
	}
}
