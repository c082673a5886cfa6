package graph

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
)

func TestPresenterCommitUnknown(t *testing.T) {
	p := ErrorPresenter(slog.New(slog.DiscardHandler))
	got := p(context.Background(), errs.CommitUnknown(errors.New("unexpected EOF")))
	if got.Extensions["code"] != "INTERNAL" || got.Extensions["reason"] != errs.ReasonCommitUnknown ||
		!strings.Contains(got.Message, "retry with the same idempotency key") || strings.Contains(got.Message, "EOF") {
		t.Fatalf("presented %+v", got)
	}
	// Other internal errors stay hidden.
	if got := p(context.Background(), errs.Wrap(errors.New("secret"), "db")); got.Message != "internal error" {
		t.Fatalf("presented %+v", got)
	}
}

func TestShorten(t *testing.T) {
	for _, in := range []string{"", "short", strings.Repeat("é", 500), strings.Repeat("x", 10_000)} {
		out := shorten(in)
		if len(out) > MaxEcho+len("…") || !utf8.ValidString(out) || (len(in) <= MaxEcho && out != in) {
			t.Errorf("shorten(%d bytes) = %d bytes %q...", len(in), len(out), out[:min(len(out), 20)])
		}
	}
	if got := shorten(`json: cannot unmarshal array into Go value of type graphql.RawParams`); strings.Contains(got, "Go") {
		t.Errorf("shorten kept the Go type: %q", got)
	}
}
