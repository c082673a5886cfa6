// Package webhooktest holds the in-memory twin of webhook.Store and the
// conformance suite every Store passes.
package webhooktest

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/webhook"
)

// MemStore is webhook.Store in memory.
type MemStore struct {
	mu      sync.Mutex
	next    int64
	eps     map[int64]*memEndpoint
	Audited []string // the audit actions, in order
}

type memEndpoint struct {
	e       webhook.Endpoint
	cursors map[int64]int64
	lease   webhook.Lease
}

var _ webhook.Store = (*MemStore)(nil)

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{eps: map[int64]*memEndpoint{}} }

func notFound() error {
	return errs.R(errs.NotFound, webhook.ReasonEndpointNotFound, "webhook endpoint not found")
}

func leaseLost() error {
	return errs.R(errs.Conflict, webhook.ReasonLeaseLost, "the endpoint's lease was lost")
}

// CreateEndpoint implements webhook.Store.
func (s *MemStore) CreateEndpoint(_ context.Context, e webhook.Endpoint, cursors []webhook.Cursor) (webhook.Endpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	e.ID = s.next
	me := &memEndpoint{e: e, cursors: map[int64]int64{}}
	for _, c := range cursors {
		me.cursors[c.TableID] = c.Seq
	}
	s.eps[e.ID] = me
	s.Audited = append(s.Audited, "WEBHOOK_CREATED")
	return e, nil
}

// Endpoint implements webhook.Store.
func (s *MemStore) Endpoint(_ context.Context, id int64) (webhook.Endpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, ok := s.eps[id]
	if !ok {
		return webhook.Endpoint{}, notFound()
	}
	return me.e, nil
}

// Endpoints implements webhook.Store.
func (s *MemStore) Endpoints(context.Context) ([]webhook.Endpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []webhook.Endpoint
	for _, me := range s.eps {
		out = append(out, me.e)
	}
	slices.SortFunc(out, func(a, b webhook.Endpoint) int { return int(b.ID - a.ID) })
	return out, nil
}

// DeleteEndpoint implements webhook.Store.
func (s *MemStore) DeleteEndpoint(_ context.Context, id, _ int64, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.eps[id]; !ok {
		return notFound()
	}
	delete(s.eps, id)
	s.Audited = append(s.Audited, "WEBHOOK_DELETED")
	return nil
}

// Replay implements webhook.Store.
func (s *MemStore) Replay(_ context.Context, id, tableID, seq, _ int64, at time.Time) (webhook.Endpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, ok := s.eps[id]
	if !ok {
		return webhook.Endpoint{}, notFound()
	}
	if tableID != 0 {
		me.cursors[tableID] = seq - 1
	}
	me.e.Parked, me.e.FailingSince, me.e.Attempts, me.e.NextAttempt = nil, nil, 0, at
	s.Audited = append(s.Audited, "WEBHOOK_REPLAYED")
	return me.e, nil
}

// Claim implements webhook.Store.
func (s *MemStore) Claim(_ context.Context, id int64, owner string, now, until time.Time) (webhook.Lease, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, ok := s.eps[id]
	if !ok || me.e.Parked != nil || me.e.NextAttempt.After(now) {
		return webhook.Lease{}, false, nil
	}
	l := me.lease
	if l.Owner != "" && l.Owner != owner && l.Until.After(now) {
		return webhook.Lease{}, false, nil
	}
	if l.Owner != owner || !l.Until.After(now) {
		l.Fence++
	}
	l.EndpointID, l.Owner, l.Until = id, owner, until
	me.lease = l
	return l, true, nil
}

// Release implements webhook.Store.
func (s *MemStore) Release(_ context.Context, l webhook.Lease) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if me, ok := s.eps[l.EndpointID]; ok && me.lease.Fence == l.Fence && me.lease.Owner == l.Owner {
		me.lease.Owner, me.lease.Until = "", time.Time{}
	}
	return nil
}

// Cursors implements webhook.Store.
func (s *MemStore) Cursors(_ context.Context, id int64) ([]webhook.Cursor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, ok := s.eps[id]
	if !ok {
		return nil, notFound()
	}
	var out []webhook.Cursor
	for t, q := range me.cursors {
		out = append(out, webhook.Cursor{TableID: t, Seq: q})
	}
	slices.SortFunc(out, func(a, b webhook.Cursor) int { return int(a.TableID - b.TableID) })
	return out, nil
}

// held returns the endpoint l still holds, under s.mu.
func (s *MemStore) held(l webhook.Lease) (*memEndpoint, error) {
	me, ok := s.eps[l.EndpointID]
	if !ok {
		return nil, notFound()
	}
	if me.lease.Fence != l.Fence || me.lease.Owner != l.Owner {
		return nil, leaseLost()
	}
	return me, nil
}

// Delivered implements webhook.Store.
func (s *MemStore) Delivered(_ context.Context, l webhook.Lease, c webhook.Cursor, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, err := s.held(l)
	if err != nil {
		return err
	}
	me.cursors[c.TableID] = c.Seq
	me.e.FailingSince, me.e.Attempts, me.e.LastError = nil, 0, ""
	me.e.Delivered++
	me.e.LastDelivered = &at
	return nil
}

// Skipped implements webhook.Store.
func (s *MemStore) Skipped(_ context.Context, l webhook.Lease, cs []webhook.Cursor) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, err := s.held(l)
	if err != nil {
		return err
	}
	for _, c := range cs {
		me.cursors[c.TableID] = c.Seq
	}
	return nil
}

// Failed implements webhook.Store.
func (s *MemStore) Failed(_ context.Context, l webhook.Lease, f webhook.Failure) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	me, err := s.held(l)
	if err != nil {
		return err
	}
	if me.e.FailingSince == nil {
		at := f.At
		me.e.FailingSince = &at
	}
	me.e.Attempts++
	me.e.LastError, me.e.NextAttempt = f.Err, f.NextAttempt
	if f.Park {
		at := f.At
		me.e.Parked = &at
	}
	return nil
}
