package protectiontest

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/protection"
)

// Identity is what the twin matches the register against for one user: the keyed
// hashes of their documents, their name and date of birth. ok is false for
// an unknown user (a wallet with no account: nothing to match).
type Identity func(ctx context.Context, userID int64) (docs []string, name string, dob account.Date, ok bool, err error)

// UserIdentity reads identities from a test's account store: the user's name, date
// of birth and the document of their latest verification.
func UserIdentity(users account.UserStore) Identity {
	return func(ctx context.Context, id int64) ([]string, string, account.Date, bool, error) {
		u, err := users.ByID(ctx, id)
		if errs.Is(err, errs.NotFound) {
			return nil, "", account.Date{}, false, nil
		}
		if err != nil {
			return nil, "", account.Date{}, false, err
		}
		var docs []string
		v, err := users.Verification(ctx, id)
		switch {
		case err == nil && v.DocumentHash != "":
			docs = append(docs, v.DocumentHash)
		case err != nil && !errs.Is(err, errs.NotFound):
			return nil, "", account.Date{}, false, err
		}
		return docs, u.Name, u.DateOfBirth, true, nil
	}
}

// MemStore is the in-memory protection.Store and ledger.Guard: a test twin
// of the database adapter (the embedded default is SQLite), run against the
// conformance suite here. Install it on a ledgertest.MemStore with SetGuard.
type MemStore struct {
	mu       sync.Mutex
	loc      *time.Location
	identity Identity
	limits   map[int64]map[[2]string]protection.Limit
	excl     map[int64]protection.Exclusion
	counters map[counterKey]protection.Counter
	register []protection.RegisterEntry // id = index + 1
	sessions map[int64]protection.Session
	audit    func(ctx context.Context, e account.AuditEntry) (account.AuditEntry, error)
	// Hits are the limit hits recorded, in order.
	Hits []Hit
}

// Hit is a limit hit the twin recorded.
type Hit struct {
	UserID int64
	Kind   protection.LimitKind
	At     time.Time
}

// RecordHit implements protection.Store.
func (s *MemStore) RecordHit(_ context.Context, userID int64, kind protection.LimitKind, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Hits = append(s.Hits, Hit{userID, kind, at})
	return nil
}

type counterKey struct {
	user   int64
	period protection.Period
	start  account.Date
}

var (
	_ protection.Store = (*MemStore)(nil)
	_ ledger.Guard     = (*MemStore)(nil)
)

// NewMemStore returns an empty store reckoning periods in loc; identity
// (may be nil: no register matching at stakes) names users, audit (may be
// nil) records register changes.
func NewMemStore(loc *time.Location, identity Identity, audit func(context.Context, account.AuditEntry) (account.AuditEntry, error)) *MemStore {
	if loc == nil {
		loc = time.UTC
	}
	return &MemStore{
		loc: loc, identity: identity, audit: audit,
		limits:   map[int64]map[[2]string]protection.Limit{},
		excl:     map[int64]protection.Exclusion{},
		counters: map[counterKey]protection.Counter{},
		sessions: map[int64]protection.Session{},
	}
}

// Limits implements protection.Store.
func (s *MemStore) Limits(_ context.Context, userID int64) (protection.Limits, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limitsLocked(userID), nil
}

func (s *MemStore) limitsLocked(userID int64) protection.Limits {
	var out protection.Limits
	for _, l := range s.limits[userID] {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b protection.Limit) int {
		if a.Kind != b.Kind {
			return slices.Index(protection.LimitKinds, a.Kind) - slices.Index(protection.LimitKinds, b.Kind)
		}
		return slices.Index(protection.Periods, a.Period) - slices.Index(protection.Periods, b.Period)
	})
	return out
}

// UpdateLimit implements protection.Store.
func (s *MemStore) UpdateLimit(_ context.Context, userID int64, kind protection.LimitKind, p protection.Period, fn func(protection.Limit) (protection.Limit, error)) (protection.Limit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{string(kind), string(p)}
	cur, ok := s.limits[userID][key]
	if !ok {
		cur = protection.Limit{Kind: kind, Period: p}
	}
	next, err := fn(cur)
	if err != nil {
		return protection.Limit{}, err
	}
	if s.limits[userID] == nil {
		s.limits[userID] = map[[2]string]protection.Limit{}
	}
	s.limits[userID][key] = next
	return next, nil
}

// Exclusion implements protection.Store.
func (s *MemStore) Exclusion(_ context.Context, userID int64) (protection.Exclusion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.excl[userID], nil
}

// UpdateExclusion implements protection.Store.
func (s *MemStore) UpdateExclusion(_ context.Context, userID int64, fn func(protection.Exclusion) (protection.Exclusion, error)) (protection.Exclusion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next, err := fn(s.excl[userID])
	if err != nil {
		return protection.Exclusion{}, err
	}
	s.excl[userID] = next
	return next, nil
}

// Counters implements protection.Store.
func (s *MemStore) Counters(_ context.Context, userID int64, at time.Time, loc *time.Location) (protection.Counters, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.countersLocked(userID, at, loc), nil
}

func (s *MemStore) countersLocked(userID int64, at time.Time, loc *time.Location) protection.Counters {
	out := protection.Counters{}
	for _, p := range protection.Periods {
		start := p.Start(at, loc)
		c := s.counters[counterKey{userID, p, start}]
		c.Period, c.Start = p, start
		out[p] = c
	}
	return out
}

// AddRegisterEntries implements protection.Store.
func (s *MemStore) AddRegisterEntries(ctx context.Context, entries []protection.RegisterEntry, audit account.AuditEntry) ([]protection.RegisterEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]protection.RegisterEntry, len(entries))
	for i, e := range entries {
		e.ID = int64(len(s.register) + 1)
		s.register = append(s.register, e)
		out[i] = e
	}
	if s.audit != nil {
		for _, e := range out {
			a := audit
			a.Detail = protection.RegisterDetail(e, audit.Detail)
			if _, err := s.audit(ctx, a); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// RemoveRegisterEntry implements protection.Store.
func (s *MemStore) RemoveRegisterEntry(ctx context.Context, id, by int64, at time.Time, audit account.AuditEntry) (protection.RegisterEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id <= 0 || id > int64(len(s.register)) {
		return protection.RegisterEntry{}, errs.E(errs.NotFound, "no register entry %d", id)
	}
	e := &s.register[id-1]
	if !e.Active() {
		return protection.RegisterEntry{}, errs.R(errs.Conflict, protection.ReasonAlreadyRemoved, "register entry %d was already removed", id)
	}
	e.RemovedAt, e.RemovedBy = at, by
	if s.audit != nil {
		audit.Detail = protection.RegisterDetail(*e, audit.Detail)
		if _, err := s.audit(ctx, audit); err != nil {
			return protection.RegisterEntry{}, err
		}
	}
	return *e, nil
}

// ListRegister implements protection.Store.
func (s *MemStore) ListRegister(_ context.Context, all bool, p account.Page) ([]protection.RegisterEntry, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []protection.RegisterEntry
	if p.Backward {
		for i := len(s.register) - 1; i >= 0; i-- {
			if e := s.register[i]; (p.After == 0 || e.ID > p.After) && (all || e.Active()) {
				out = append(out, e)
			}
		}
		return account.BackwardPage(out, p, func(e protection.RegisterEntry) int64 { return e.ID })
	}
	for i := len(s.register) - 1; i >= 0; i-- {
		e := s.register[i]
		if (p.After != 0 && e.ID >= p.After) || (!all && !e.Active()) {
			continue
		}
		if len(out) == p.Size() {
			return out, out[len(out)-1].ID, nil
		}
		out = append(out, e)
	}
	return out, 0, nil
}

// RegisterMatches implements protection.Store.
func (s *MemStore) RegisterMatches(_ context.Context, docs []string, nameKey string, dob account.Date) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.matchesLocked(docs, nameKey, dob), nil
}

func (s *MemStore) matchesLocked(docs []string, nameKey string, dob account.Date) bool {
	return protection.RegisterNames(s.register, docs, nameKey, dob)
}

// Admit implements ledger.Guard: it applies protection.Admit to each
// player's flow in t and stores what it returns, all or nothing.
func (s *MemStore) Admit(t ledger.Transfer, now time.Time) (func(), error) {
	flows, err := protection.Classify(t)
	if err != nil {
		return nil, err
	}
	if len(flows) == 0 {
		return nil, nil
	}
	type change struct {
		key counterKey
		old protection.Counter
		had bool
	}
	var states []protection.State
	for _, f := range flows {
		st := protection.State{}
		if f.Checked() {
			var err error
			if st, err = s.stateOf(f.UserID); err != nil {
				return nil, err
			}
		}
		states = append(states, st)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var changes []change
	type sessionChange struct {
		user int64
		old  protection.Session
		had  bool
	}
	var sessionChanges []sessionChange
	undo := func() {
		for i := len(sessionChanges) - 1; i >= 0; i-- {
			c := sessionChanges[i]
			if c.had {
				s.sessions[c.user] = c.old
			} else {
				delete(s.sessions, c.user)
			}
		}
		for i := len(changes) - 1; i >= 0; i-- {
			c := changes[i]
			if c.had {
				s.counters[c.key] = c.old
			} else {
				delete(s.counters, c.key)
			}
		}
	}
	for i, f := range flows {
		st := states[i]
		if f.Checked() {
			st.Limits, st.Exclusion = s.limitsLocked(f.UserID), s.excl[f.UserID]
		}
		old, had := s.sessions[f.UserID]
		a, err := protection.Admit(f, st, s.countersLocked(f.UserID, now, s.loc), old, now)
		if err != nil {
			undo()
			return nil, err
		}
		for _, p := range protection.Periods {
			k := counterKey{f.UserID, p, p.Start(now, s.loc)}
			prev, had := s.counters[k]
			changes = append(changes, change{k, prev, had})
			c := a.Counters[p]
			c.Start = k.start
			s.counters[k] = c
		}
		if a.Played {
			sessionChanges = append(sessionChanges, sessionChange{f.UserID, old, had})
			s.sessions[f.UserID] = a.Session
		}
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		undo()
	}, nil
}

// stateOf reads the register match of a user (outside s.mu: the identity
// reads another store).
func (s *MemStore) stateOf(userID int64) (protection.State, error) {
	if s.identity == nil {
		return protection.State{}, nil
	}
	docs, name, dob, ok, err := s.identity(context.Background(), userID)
	if err != nil || !ok {
		return protection.State{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return protection.State{Registered: s.matchesLocked(docs, protection.NameKey(name), dob)}, nil
}

var _ protection.SessionStore = (*MemStore)(nil)

// ActiveSessions implements protection.SessionStore.
func (s *MemStore) ActiveSessions(_ context.Context, since time.Time) ([]protection.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []protection.Session
	for _, ses := range s.sessions {
		if !ses.LastPlayAt.Before(since) {
			out = append(out, ses)
		}
	}
	slices.SortFunc(out, func(a, b protection.Session) int { return int(a.UserID - b.UserID) })
	return out, nil
}

// ClaimCheck implements protection.SessionStore.
func (s *MemStore) ClaimCheck(_ context.Context, ses protection.Session) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.sessions[ses.UserID]
	if !ok || cur.No != ses.No || cur.Checks != ses.Checks {
		return false, nil
	}
	cur.Checks++
	s.sessions[ses.UserID] = cur
	return true, nil
}
