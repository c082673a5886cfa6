// Package bettingstop is the operator's (and the regulator's) emergency
// stop: one admin action after which every replica refuses every new stake,
// in both games, and no table opens a new draw. The draws already dealing
// finish on their committed times, so nothing the commitment promised
// changes; resuming is a second, explicit action.
//
// The stop is kept in the database, the one source every replica reads:
// each replica's Gate reloads it every few hundred milliseconds (and at
// once when the broker says it changed), and refuses stakes while it is
// stopped, or while it cannot tell (fails closed).
package bettingstop

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
)

const maxReasonRunes = 500

// State is the stop as stored.
type State struct {
	Stopped bool
	// Reason is the admin's reason (for staff and the audit log only).
	Reason string
	// By and At say who changed it last, and when.
	By int64
	At time.Time
	// PausedTables are the tables the stop paused, resumed with it.
	PausedTables []int64
}

// Store keeps the State. Save appends the audit entry of action in the
// same transaction.
type Store interface {
	Load(ctx context.Context) (State, error)
	Save(ctx context.Context, s State, action string) error
}

// Tables is what the stop does to the totalizator's tables.
type Tables interface {
	// Running lists the tables dealing now.
	Running(ctx context.Context) ([]int64, error)
	// Pause stops a table opening new draws (its current draw finishes).
	Pause(ctx context.Context, actor, tableID int64) error
	// ResumeIfPaused lets a paused table deal again; a table running
	// already is left alone.
	ResumeIfPaused(ctx context.Context, actor, tableID int64) error
}

// StakeGate is the check every stake of both games passes
// (account.Service.EnsureCanStake); Gate wraps it.
type StakeGate interface {
	EnsureCanStake(ctx context.Context, userID ids.UserID) error
}

// Gate is a StakeGate that refuses every stake while betting is stopped. It
// holds the last State it loaded; a State older than MaxAge is not
// trusted, and stakes are refused until a load succeeds again.
type Gate struct {
	inner  StakeGate
	store  Store
	now    func() time.Time
	maxAge time.Duration

	mu       sync.Mutex
	state    State
	loadedAt time.Time
}

// NewGate returns a Gate over inner and store, trusting a loaded State for
// maxAge; now is the clock (nil: time.Now).
func NewGate(inner StakeGate, store Store, maxAge time.Duration, now func() time.Time) *Gate {
	if now == nil {
		now = time.Now
	}
	return &Gate{inner: inner, store: store, now: now, maxAge: maxAge}
}

// EnsureCanStake implements StakeGate.
func (g *Gate) EnsureCanStake(ctx context.Context, userID ids.UserID) error {
	if err := g.Open(); err != nil {
		return err
	}
	return g.inner.EnsureCanStake(ctx, userID)
}

// Open is nil while betting is open by a State young enough to trust, and
// otherwise the refusal EnsureCanStake gives: a check that judges a
// player from rows read elsewhere (a bet batch's) asks it first.
func (g *Gate) Open() error {
	g.mu.Lock()
	st, fresh := g.state, g.now().Sub(g.loadedAt) <= g.maxAge
	g.mu.Unlock()
	if !fresh {
		return errs.R(errs.Unavailable, ReasonStopUnknown, "betting is paused for a moment: the server cannot confirm it is open; try again")
	}
	if st.Stopped {
		return errs.R(errs.Forbidden, ReasonBettingStopped, "betting is stopped by the operator; stakes are refused until it is resumed")
	}
	return nil
}

// Refresh loads the State now.
func (g *Gate) Refresh(ctx context.Context) error {
	at := g.now()
	st, err := g.store.Load(ctx)
	if err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !at.Before(g.loadedAt) { // a slower load begun earlier does not overwrite a newer one
		g.state, g.loadedAt = st, at
	}
	return nil
}

// Stopped reports the State last loaded.
func (g *Gate) Stopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.state.Stopped
}

// Run reloads the State every `every` until ctx ends, and at once on each
// value received from changed (the broker's notice).
func (g *Gate) Run(ctx context.Context, every time.Duration, changed <-chan struct{}) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		_ = g.Refresh(ctx) // a failure leaves the State to age out: fail closed
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-changed:
		}
	}
}

// Service stops and resumes betting.
type Service struct {
	store  Store
	tables Tables
	now    func() time.Time
	// Changed, when set, is told after each change (the app broadcasts it
	// so every replica's Gate reloads at once).
	Changed func(ctx context.Context)
}

// NewService returns the Service over store and tables; now is the clock
// (nil: time.Now).
func NewService(store Store, tables Tables, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, tables: tables, now: now}
}

// State returns the stop as stored.
func (s *Service) State(ctx context.Context) (State, error) { return s.store.Load(ctx) }

// Stop refuses every new stake from now on and pauses every running table
// (each finishes its draw). Stopping a stopped game pauses any table
// running meanwhile and keeps the first reason.
func (s *Service) Stop(ctx context.Context, actor int64, reason string) (State, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" || !utf8.ValidString(reason) || utf8.RuneCountInString(reason) > maxReasonRunes {
		return State{}, errs.R(errs.Invalid, ReasonInvalidReason, "give the stop a reason of 1 to %d characters", maxReasonRunes)
	}
	st, err := s.store.Load(ctx)
	if err != nil {
		return State{}, err
	}
	running, err := s.tables.Running(ctx)
	if err != nil {
		return State{}, err
	}
	if !st.Stopped {
		st = State{Stopped: true, Reason: reason, By: actor, At: s.now().UTC()}
	}
	st.PausedTables = appendNew(st.PausedTables, running)
	// The stop is saved before any table is paused: stakes are refused
	// first, and a failure halfway leaves betting stopped, never open.
	if err := s.store.Save(ctx, st, "BETTING_STOPPED"); err != nil {
		return State{}, err
	}
	s.notify(ctx)
	for _, id := range running {
		if err := s.tables.Pause(ctx, actor, id); err != nil {
			return st, err
		}
	}
	return st, nil
}

// Resume lets stakes in again and resumes the tables the stop paused.
func (s *Service) Resume(ctx context.Context, actor int64) (State, error) {
	st, err := s.store.Load(ctx)
	if err != nil {
		return State{}, err
	}
	if !st.Stopped {
		return st, nil
	}
	paused := st.PausedTables
	st = State{By: actor, At: s.now().UTC()}
	if err := s.store.Save(ctx, st, "BETTING_RESUMED"); err != nil {
		return State{}, err
	}
	s.notify(ctx)
	for _, id := range paused {
		if err := s.tables.ResumeIfPaused(ctx, actor, id); err != nil {
			return st, err
		}
	}
	return st, nil
}

func (s *Service) notify(ctx context.Context) {
	if s.Changed != nil {
		s.Changed(ctx)
	}
}

func appendNew(have, add []int64) []int64 {
	seen := map[int64]bool{}
	for _, id := range have {
		seen[id] = true
	}
	for _, id := range add {
		if !seen[id] {
			have = append(have, id)
			seen[id] = true
		}
	}
	return have
}
