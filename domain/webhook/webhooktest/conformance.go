package webhooktest

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/webhook"
)

// Run is the conformance suite of webhook.Store: the twin, SQLite and
// Postgres pass the same tests. newStore returns an empty store whose
// endpoints may be created by admin.
func Run(t *testing.T, newStore func(t *testing.T) (store webhook.Store, admin int64)) {
	t.Run("create, read, list, delete", func(t *testing.T) { testCRUD(t, newStore) })
	t.Run("one lease at a time, fenced", func(t *testing.T) { testLease(t, newStore) })
	t.Run("cursors move only under the lease", func(t *testing.T) { testCursors(t, newStore) })
	t.Run("failures count, park and replay", func(t *testing.T) { testFailures(t, newStore) })
}

var t0 = time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)

func create(t *testing.T, s webhook.Store, admin int64, cursors ...webhook.Cursor) webhook.Endpoint {
	t.Helper()
	e, err := s.CreateEndpoint(context.Background(), webhook.Endpoint{
		URL: "https://partner.example/hook", Types: []webhook.Type{webhook.DrawSettled, webhook.DrawVoided},
		Secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0", Description: "Партнёр", CreatedBy: admin, CreatedAt: t0, NextAttempt: t0,
	}, cursors)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func testCRUD(t *testing.T, newStore func(t *testing.T) (webhook.Store, int64)) {
	ctx := context.Background()
	s, admin := newStore(t)
	a := create(t, s, admin)
	b := create(t, s, admin)
	if a.ID == 0 || a.ID == b.ID {
		t.Fatalf("ids %d and %d", a.ID, b.ID)
	}
	got, err := s.Endpoint(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.URL != a.URL || got.Secret != a.Secret || got.Description != "Партнёр" || len(got.Types) != 2 || got.Types[1] != webhook.DrawVoided || !got.CreatedAt.Equal(t0) {
		t.Errorf("read back %+v", got)
	}
	list, err := s.Endpoints(ctx)
	if err != nil || len(list) != 2 || list[0].ID != b.ID {
		t.Fatalf("list newest first: %+v, %v", list, err)
	}
	if err := s.DeleteEndpoint(ctx, a.ID, admin, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Endpoint(ctx, a.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("deleted endpoint: %v", err)
	}
	if err := s.DeleteEndpoint(ctx, a.ID, admin, t0); !errs.Is(err, errs.NotFound) {
		t.Errorf("deleted twice: %v", err)
	}
}

func testLease(t *testing.T, newStore func(t *testing.T) (webhook.Store, int64)) {
	ctx := context.Background()
	s, admin := newStore(t)
	e := create(t, s, admin)
	la, ok, err := s.Claim(ctx, e.ID, "a", t0, t0.Add(30*time.Second))
	if err != nil || !ok {
		t.Fatalf("first claim: %v %v", ok, err)
	}
	if _, ok, _ := s.Claim(ctx, e.ID, "b", t0.Add(time.Second), t0.Add(31*time.Second)); ok {
		t.Fatal("b took a lease a holds")
	}
	renewed, ok, err := s.Claim(ctx, e.ID, "a", t0.Add(10*time.Second), t0.Add(40*time.Second))
	if err != nil || !ok || renewed.Fence != la.Fence {
		t.Fatalf("a's renewal: %+v %v %v (fence was %d)", renewed, ok, err, la.Fence)
	}
	lb, ok, err := s.Claim(ctx, e.ID, "b", t0.Add(41*time.Second), t0.Add(71*time.Second))
	if err != nil || !ok || lb.Fence <= la.Fence {
		t.Fatalf("b after a's lease ended: %+v %v %v", lb, ok, err)
	}
	if err := s.Delivered(ctx, renewed, webhook.Cursor{TableID: 1, Seq: 5}, t0); !errs.Is(err, errs.Conflict) {
		t.Errorf("a wrote after losing the lease: %v", err)
	}
	if err := s.Release(ctx, lb); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Claim(ctx, e.ID, "a", t0.Add(42*time.Second), t0.Add(72*time.Second)); !ok {
		t.Error("a could not claim a released endpoint")
	}
}

func testCursors(t *testing.T, newStore func(t *testing.T) (webhook.Store, int64)) {
	ctx := context.Background()
	s, admin := newStore(t)
	e := create(t, s, admin, webhook.Cursor{TableID: 1, Seq: 7}, webhook.Cursor{TableID: 2, Seq: 0})
	l, _, err := s.Claim(ctx, e.ID, "a", t0, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delivered(ctx, l, webhook.Cursor{TableID: 1, Seq: 9}, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.Skipped(ctx, l, []webhook.Cursor{{TableID: 2, Seq: 3}, {TableID: 3, Seq: 0}}); err != nil {
		t.Fatal(err)
	}
	cs, err := s.Cursors(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []webhook.Cursor{{TableID: 1, Seq: 9}, {TableID: 2, Seq: 3}, {TableID: 3, Seq: 0}}
	if len(cs) != len(want) {
		t.Fatalf("cursors %v, want %v", cs, want)
	}
	for i := range want {
		if cs[i] != want[i] {
			t.Errorf("cursors %v, want %v", cs, want)
		}
	}
	got, _ := s.Endpoint(ctx, e.ID)
	if got.Delivered != 1 || got.LastDelivered == nil || !got.LastDelivered.Equal(t0.Add(time.Second)) {
		t.Errorf("delivery not counted: %+v", got)
	}
}

func testFailures(t *testing.T, newStore func(t *testing.T) (webhook.Store, int64)) {
	ctx := context.Background()
	s, admin := newStore(t)
	e := create(t, s, admin, webhook.Cursor{TableID: 1, Seq: 4})
	l, _, _ := s.Claim(ctx, e.ID, "a", t0, t0.Add(time.Minute))
	if err := s.Failed(ctx, l, webhook.Failure{At: t0, Err: "503 Service Unavailable", NextAttempt: t0.Add(5 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Claim(ctx, e.ID, "a", t0.Add(time.Second), t0.Add(time.Minute)); ok {
		t.Error("claimed before the next attempt was due")
	}
	if err := s.Failed(ctx, l, webhook.Failure{At: t0.Add(6 * time.Second), Err: "timeout", NextAttempt: t0.Add(20 * time.Second), Park: true}); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Endpoint(ctx, e.ID)
	if got.Attempts != 2 || got.FailingSince == nil || !got.FailingSince.Equal(t0) || got.LastError != "timeout" || got.Parked == nil {
		t.Fatalf("after two failures: %+v", got)
	}
	if _, ok, _ := s.Claim(ctx, e.ID, "a", t0.Add(time.Hour), t0.Add(2*time.Hour)); ok {
		t.Error("a parked endpoint was claimed")
	}
	r, err := s.Replay(ctx, e.ID, 1, 2, admin, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if r.Parked != nil || r.FailingSince != nil || r.Attempts != 0 {
		t.Errorf("replay left failure state: %+v", r)
	}
	cs, _ := s.Cursors(ctx, e.ID)
	if len(cs) != 1 || cs[0].Seq != 1 {
		t.Errorf("replay from seq 2 set cursors %v, want table 1 at 1", cs)
	}
	if _, ok, _ := s.Claim(ctx, e.ID, "b", t0.Add(time.Hour), t0.Add(2*time.Hour)); !ok {
		t.Error("a replayed endpoint could not be claimed")
	}
	if _, err := s.Replay(ctx, e.ID+1000, 0, 0, admin, t0); !errs.Is(err, errs.NotFound) {
		t.Errorf("replay of an unknown endpoint: %v", err)
	}
}
