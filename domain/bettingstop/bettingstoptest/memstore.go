// Package bettingstoptest holds the in-memory twin of bettingstop.Store and
// the conformance suite every Store passes.
package bettingstoptest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/bettingstop"
)

// MemStore is bettingstop.Store in memory. Fail, when set, makes Load fail.
type MemStore struct {
	mu      sync.Mutex
	st      bettingstop.State
	Audited []string
	Fail    bool
}

var _ bettingstop.Store = (*MemStore)(nil)

// Load implements bettingstop.Store.
func (m *MemStore) Load(context.Context) (bettingstop.State, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Fail {
		return bettingstop.State{}, errors.New("store down")
	}
	st := m.st
	st.PausedTables = slices.Clone(st.PausedTables)
	return st, nil
}

// Save implements bettingstop.Store.
func (m *MemStore) Save(_ context.Context, st bettingstop.State, action string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	st.PausedTables = slices.Clone(st.PausedTables)
	m.st = st
	m.Audited = append(m.Audited, action)
	return nil
}

// Run is the conformance suite of bettingstop.Store: a fresh store is
// open; a saved State reads back whole; saving again replaces it.
func Run(t *testing.T, newStore func(t *testing.T) (bettingstop.Store, int64)) {
	ctx := context.Background()
	s, admin := newStore(t)
	st, err := s.Load(ctx)
	if err != nil || st.Stopped || len(st.PausedTables) != 0 {
		t.Fatalf("a fresh store: %+v %v", st, err)
	}
	at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	want := bettingstop.State{Stopped: true, Reason: "регулятор: проверка", By: admin, At: at, PausedTables: []int64{3, 1}}
	if err := s.Save(ctx, want, "BETTING_STOPPED"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx)
	if err != nil || !got.Stopped || got.Reason != want.Reason || got.By != admin || !got.At.Equal(at) || !slices.Equal(got.PausedTables, want.PausedTables) {
		t.Fatalf("read back %+v %v, want %+v", got, err, want)
	}
	if err := s.Save(ctx, bettingstop.State{By: admin, At: at.Add(time.Minute)}, "BETTING_RESUMED"); err != nil {
		t.Fatal(err)
	}
	got, err = s.Load(ctx)
	if err != nil || got.Stopped || got.Reason != "" || len(got.PausedTables) != 0 || !got.At.Equal(at.Add(time.Minute)) {
		t.Fatalf("after resume %+v %v", got, err)
	}
}
