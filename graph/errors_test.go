package graph_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/graph"
)

// TestCanceledRequestsAreNotInternalErrors: a client closing its
// subscription (its context canceled) is not logged as level=ERROR
// "internal error context canceled" (issue 11), however the cancellation
// was wrapped; a real internal error still is.
func TestCanceledRequestsAreNotInternalErrors(t *testing.T) {
	var logs bytes.Buffer
	present := graph.ErrorPresenter(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, err := range map[string]error{
		"bare":          context.Canceled,
		"wrapped":       fmt.Errorf("load table: %w", context.Canceled),
		"domain":        errs.Wrap(context.Canceled, "a stored event is unreadable"),
		"ctx cancelled": ctx.Err(),
	} {
		t.Run(name, func(t *testing.T) {
			logs.Reset()
			got := present(ctx, err)
			if strings.Contains(logs.String(), "level=ERROR") {
				t.Errorf("logged as an error: %s", logs.String())
			}
			if got.Extensions["reason"] != "CANCELED" {
				t.Errorf("extensions %v, want reason CANCELED", got.Extensions)
			}
		})
	}
	logs.Reset()
	present(context.Background(), errs.E(errs.Internal, "disk on fire"))
	if !strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("a real internal error was not logged as one: %q", logs.String())
	}
}

// A domain error's details reach the client beside its code and reason
// (INSUFFICIENT_FUNDS says how much the wallet holds and how much was
// asked), and cannot take the place of either.
func TestErrorDetailsAreExtensions(t *testing.T) {
	present := graph.ErrorPresenter(slog.New(slog.DiscardHandler))
	err := fmt.Errorf("place bet: %w", ledger.InsufficientFunds(ledger.UserWallet(7), 1250, 5000))
	got := present(context.Background(), err).Extensions
	want := map[string]any{"code": "CONFLICT", "reason": ledger.ReasonInsufficientFunds, "balance": "12.50", "required": "50.00"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("extensions %v, want %v", got, want)
	}
	spoof := errs.R(errs.Conflict, "REAL", "x").With("code", "FAKE").With("reason", "FAKE")
	if got := present(context.Background(), spoof).Extensions; got["code"] != "CONFLICT" || got["reason"] != "REAL" {
		t.Errorf("a detail replaced the code or reason: %v", got)
	}
}
