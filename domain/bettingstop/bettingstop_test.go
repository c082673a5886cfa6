package bettingstop_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/bettingstop"
	"github.com/pokertote/pokertote/domain/bettingstop/bettingstoptest"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
)

func TestMemStoreConformance(t *testing.T) {
	bettingstoptest.Run(t, func(*testing.T) (bettingstop.Store, int64) { return &bettingstoptest.MemStore{}, 1 })
}

type allow struct{ calls int }

func (a *allow) EnsureCanStake(context.Context, ids.UserID) error { a.calls++; return nil }

// tables is a fake totalizator: running and paused sets.
type tables struct {
	mu     sync.Mutex
	status map[int64]bool // true: running
	fail   bool
}

func (f *tables) Running(context.Context) ([]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int64
	for id, run := range f.status {
		if run {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (f *tables) Pause(_ context.Context, _, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return errors.New("database gone")
	}
	f.status[id] = false
	return nil
}

func (f *tables) ResumeIfPaused(_ context.Context, _, id int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status[id] = true
	return nil
}

func TestStopRefusesStakesAndPausesTables(t *testing.T) {
	ctx := context.Background()
	store := &bettingstoptest.MemStore{}
	tb := &tables{status: map[int64]bool{1: true, 2: false, 3: true}}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	svc := bettingstop.NewService(store, tb, clock)
	notified := 0
	svc.Changed = func(context.Context) { notified++ }
	inner := &allow{}
	gate := bettingstop.NewGate(inner, store, time.Second, clock)
	if err := gate.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := gate.EnsureCanStake(ctx, 7); err != nil || inner.calls != 1 {
		t.Fatalf("open: %v (inner asked %d times)", err, inner.calls)
	}
	_, err := svc.Stop(ctx, 9, "  ")
	errstest.Is(t, err, errs.Invalid, bettingstop.ReasonInvalidReason)

	st, err := svc.Stop(ctx, 9, "regulator's order")
	if err != nil || !st.Stopped || !slices.Equal(st.PausedTables, []int64{1, 3}) || notified != 1 {
		t.Fatalf("stop: %+v %v (notified %d)", st, err, notified)
	}
	if run, _ := tb.Running(ctx); len(run) != 0 {
		t.Errorf("tables still running: %v", run)
	}
	_ = gate.Refresh(ctx)
	errstest.Is(t, gate.EnsureCanStake(ctx, 7), errs.Forbidden, bettingstop.ReasonBettingStopped)
	if inner.calls != 1 {
		t.Error("a stopped gate asked the account gate")
	}

	tb.status[4] = true // a table resumed by hand meanwhile
	st, err = svc.Stop(ctx, 10, "again")
	if err != nil || st.Reason != "regulator's order" || !slices.Equal(st.PausedTables, []int64{1, 3, 4}) {
		t.Fatalf("stop again: %+v %v", st, err)
	}

	st, err = svc.Resume(ctx, 9)
	if err != nil || st.Stopped || len(st.PausedTables) != 0 {
		t.Fatalf("resume: %+v %v", st, err)
	}
	if run, _ := tb.Running(ctx); !slices.Equal(run, []int64{1, 3, 4}) || tb.status[2] {
		t.Errorf("after resume running %v; table 2 (paused before the stop) must stay paused", run)
	}
	_ = gate.Refresh(ctx)
	if err := gate.EnsureCanStake(ctx, 7); err != nil {
		t.Errorf("resumed: %v", err)
	}
	if want := []string{"BETTING_STOPPED", "BETTING_STOPPED", "BETTING_RESUMED"}; !slices.Equal(store.Audited, want) {
		t.Errorf("audited %v, want %v", store.Audited, want)
	}
}

func TestStopHalfDoneLeavesBettingStopped(t *testing.T) {
	ctx := context.Background()
	store := &bettingstoptest.MemStore{}
	svc := bettingstop.NewService(store, &tables{status: map[int64]bool{1: true}, fail: true}, nil)
	if _, err := svc.Stop(ctx, 9, "fire drill"); err == nil {
		t.Fatal("a failed pause was not reported")
	}
	if st, _ := store.Load(ctx); !st.Stopped {
		t.Fatal("a stop whose pause failed left betting open")
	}
}

func TestGateFailsClosedWhenItCannotLook(t *testing.T) {
	ctx := context.Background()
	store := &bettingstoptest.MemStore{}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	gate := bettingstop.NewGate(&allow{}, store, time.Second, func() time.Time { return now })
	errstest.Is(t, gate.EnsureCanStake(ctx, 1), errs.Unavailable, bettingstop.ReasonStopUnknown) // never loaded
	_ = gate.Refresh(ctx)
	if err := gate.EnsureCanStake(ctx, 1); err != nil {
		t.Fatal(err)
	}
	store.Fail = true
	now = now.Add(900 * time.Millisecond)
	if err := gate.Refresh(ctx); err == nil {
		t.Fatal("a failing store refreshed")
	}
	if err := gate.EnsureCanStake(ctx, 1); err != nil {
		t.Errorf("within maxAge of the last load: %v", err)
	}
	now = now.Add(200 * time.Millisecond)
	errstest.Is(t, gate.EnsureCanStake(ctx, 1), errs.Unavailable, bettingstop.ReasonStopUnknown)
}

// TestGateRunReloadsOnNotice: a notice makes Run reload at once, well
// before its period.
func TestGateRunReloadsOnNotice(t *testing.T) {
	store := &bettingstoptest.MemStore{}
	gate := bettingstop.NewGate(&allow{}, store, time.Hour, nil)
	changed := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = gate.Run(ctx, time.Hour, changed); close(done) }()
	defer func() { cancel(); <-done }()
	_ = store.Save(ctx, bettingstop.State{Stopped: true}, "BETTING_STOPPED")
	changed <- struct{}{}
	deadline := time.Now().Add(10 * time.Second)
	for !gate.Stopped() {
		if time.Now().After(deadline) {
			t.Fatal("the notice did not reload the gate")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGateOpen: Open is the stop's part of EnsureCanStake alone (what a
// judge of rows read elsewhere asks first): refused before a load, while
// stopped and once the State is too old to trust, nil otherwise, and it
// never asks the inner gate.
func TestGateOpen(t *testing.T) {
	ctx := context.Background()
	store := &bettingstoptest.MemStore{}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	inner := &allow{}
	g := bettingstop.NewGate(inner, store, time.Second, clock)
	errstest.Is(t, g.Open(), errs.Unavailable, bettingstop.ReasonStopUnknown) // never loaded
	if err := g.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := g.Open(); err != nil {
		t.Fatalf("open: %v", err)
	}
	svc := bettingstop.NewService(store, &tables{status: map[int64]bool{}}, clock)
	if _, err := svc.Stop(ctx, 9, "drill"); err != nil {
		t.Fatal(err)
	}
	if err := g.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	errstest.Is(t, g.Open(), errs.Forbidden, bettingstop.ReasonBettingStopped)
	errstest.Is(t, g.EnsureCanStake(ctx, 7), errs.Forbidden, bettingstop.ReasonBettingStopped)
	if _, err := svc.Resume(ctx, 9); err != nil {
		t.Fatal(err)
	}
	if err := g.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := g.Open(); err != nil {
		t.Fatalf("resumed: %v", err)
	}
	now = now.Add(2 * time.Second) // no load since: the State is too old
	errstest.Is(t, g.Open(), errs.Unavailable, bettingstop.ReasonStopUnknown)
	if inner.calls != 0 {
		t.Fatalf("Open asked the inner gate %d times", inner.calls)
	}
}
