// Package ledgerdbtest holds the assertions on a ledger that the stores'
// tests share: a post that must succeed, a balance, the books reconciled.
package ledgerdbtest

import (
	"context"
	"testing"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// MustPost posts tr through s and fails the test on an error.
func MustPost(t *testing.T, s ledger.Poster, tr ledger.Transfer) ledger.Posted {
	t.Helper()
	p, err := s.Post(context.Background(), tr)
	if err != nil {
		t.Fatalf("Post(%s): %v", tr.IdempotencyKey, err)
	}
	return p
}

// WantBalance fails the test unless account a of s holds want.
func WantBalance(t *testing.T, s ledger.Store, a ledger.AccountRef, want money.Amount) {
	t.Helper()
	got, err := s.Balance(context.Background(), a)
	if err != nil {
		t.Fatalf("Balance(%s): %v", a, err)
	}
	if got != want {
		t.Fatalf("Balance(%s) = %s, want %s", a, got, want)
	}
}

// Reconcile fails the test when s.Reconcile finds the books broken.
func Reconcile(t *testing.T, s ledger.Store) {
	t.Helper()
	if err := s.Reconcile(context.Background()); err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
}
