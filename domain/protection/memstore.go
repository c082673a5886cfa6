package protection

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
)

// Identity is what the register is matched against for one user: the keyed
// hashes of their documents, their name and date of birth. ok is false for
// an unknown user (a wallet with no account: nothing to match).
type Identity func(ctx context.Context, userID int64) (docs []string, name string, dob account.Date, ok bool, err error)

// UserIdentity reads identities from an account store: the user's name, date
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

// MemStore is the in-memory Store and ledger.Guard: the twin of the
// database adapter for the embedded mode and fast tests. Install it on a
// ledgertest.MemStore with SetGuard.
type MemStore struct {
	mu       sync.Mutex
	loc      *time.Location
	identity Identity
	limits   map[int64]map[[2]string]Limit
	excl     map[int64]Exclusion
	counters map[counterKey]Counter
	register []RegisterEntry // id = index + 1
	sessions map[int64]Session
	audit    func(ctx context.Context, e account.AuditEntry) (account.AuditEntry, error)
}

type counterKey struct {
	user   int64
	period Period
	start  account.Date
}

var (
	_ Store        = (*MemStore)(nil)
	_ ledger.Guard = (*MemStore)(nil)
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
		limits:   map[int64]map[[2]string]Limit{},
		excl:     map[int64]Exclusion{},
		counters: map[counterKey]Counter{},
		sessions: map[int64]Session{},
	}
}

// Limits implements Store.
func (s *MemStore) Limits(_ context.Context, userID int64) (Limits, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limitsLocked(userID), nil
}

func (s *MemStore) limitsLocked(userID int64) Limits {
	var out Limits
	for _, l := range s.limits[userID] {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b Limit) int {
		if a.Kind != b.Kind {
			return slices.Index(LimitKinds, a.Kind) - slices.Index(LimitKinds, b.Kind)
		}
		return slices.Index(Periods, a.Period) - slices.Index(Periods, b.Period)
	})
	return out
}

// UpdateLimit implements Store.
func (s *MemStore) UpdateLimit(_ context.Context, userID int64, kind LimitKind, p Period, fn func(Limit) (Limit, error)) (Limit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{string(kind), string(p)}
	cur, ok := s.limits[userID][key]
	if !ok {
		cur = Limit{Kind: kind, Period: p}
	}
	next, err := fn(cur)
	if err != nil {
		return Limit{}, err
	}
	if s.limits[userID] == nil {
		s.limits[userID] = map[[2]string]Limit{}
	}
	s.limits[userID][key] = next
	return next, nil
}

// Exclusion implements Store.
func (s *MemStore) Exclusion(_ context.Context, userID int64) (Exclusion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.excl[userID], nil
}

// UpdateExclusion implements Store.
func (s *MemStore) UpdateExclusion(_ context.Context, userID int64, fn func(Exclusion) (Exclusion, error)) (Exclusion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next, err := fn(s.excl[userID])
	if err != nil {
		return Exclusion{}, err
	}
	s.excl[userID] = next
	return next, nil
}

// Counters implements Store.
func (s *MemStore) Counters(_ context.Context, userID int64, at time.Time, loc *time.Location) (Counters, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.countersLocked(userID, at, loc), nil
}

func (s *MemStore) countersLocked(userID int64, at time.Time, loc *time.Location) Counters {
	out := Counters{}
	for _, p := range Periods {
		start := p.Start(at, loc)
		c := s.counters[counterKey{userID, p, start}]
		c.Period, c.Start = p, start
		out[p] = c
	}
	return out
}

// AddRegisterEntries implements Store.
func (s *MemStore) AddRegisterEntries(ctx context.Context, entries []RegisterEntry, audit account.AuditEntry) ([]RegisterEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RegisterEntry, len(entries))
	for i, e := range entries {
		e.ID = int64(len(s.register) + 1)
		s.register = append(s.register, e)
		out[i] = e
	}
	if s.audit != nil {
		for _, e := range out {
			a := audit
			a.Detail = registerDetail(e, audit.Detail)
			if _, err := s.audit(ctx, a); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// registerDetail is the audit detail of an added or removed entry.
func registerDetail(e RegisterEntry, how string) string {
	what := "document " + e.DocumentHash[:min(12, len(e.DocumentHash))]
	if e.DocumentHash == "" {
		what = "name " + e.NameKey + " born " + e.DateOfBirth.String()
	}
	return truncate("entry "+itoa(e.ID)+" ("+what+"): "+how, maxNoteLen)
}

// RemoveRegisterEntry implements Store.
func (s *MemStore) RemoveRegisterEntry(ctx context.Context, id, by int64, at time.Time, audit account.AuditEntry) (RegisterEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id <= 0 || id > int64(len(s.register)) {
		return RegisterEntry{}, errs.E(errs.NotFound, "no register entry %d", id)
	}
	e := &s.register[id-1]
	if !e.Active() {
		return RegisterEntry{}, errs.R(errs.Conflict, ReasonAlreadyRemoved, "register entry %d was already removed", id)
	}
	e.RemovedAt, e.RemovedBy = at, by
	if s.audit != nil {
		audit.Detail = registerDetail(*e, audit.Detail)
		if _, err := s.audit(ctx, audit); err != nil {
			return RegisterEntry{}, err
		}
	}
	return *e, nil
}

// ListRegister implements Store.
func (s *MemStore) ListRegister(_ context.Context, all bool, p account.Page) ([]RegisterEntry, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []RegisterEntry
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

// RegisterMatches implements Store.
func (s *MemStore) RegisterMatches(_ context.Context, docs []string, nameKey string, dob account.Date) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.matchesLocked(docs, nameKey, dob), nil
}

func (s *MemStore) matchesLocked(docs []string, nameKey string, dob account.Date) bool {
	return RegisterNames(s.register, docs, nameKey, dob)
}

// Admit implements ledger.Guard: it applies the package's Admit to each
// player's flow in t and stores what it returns, all or nothing.
func (s *MemStore) Admit(t ledger.Transfer, now time.Time) (func(), error) {
	flows := Classify(t)
	if len(flows) == 0 {
		return nil, nil
	}
	type change struct {
		key counterKey
		old Counter
		had bool
	}
	var states []State
	for _, f := range flows {
		st := State{}
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
		old  Session
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
		a, err := Admit(f, st, s.countersLocked(f.UserID, now, s.loc), old, now)
		if err != nil {
			undo()
			return nil, err
		}
		for _, p := range Periods {
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
func (s *MemStore) stateOf(userID int64) (State, error) {
	if s.identity == nil {
		return State{}, nil
	}
	docs, name, dob, ok, err := s.identity(context.Background(), userID)
	if err != nil || !ok {
		return State{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return State{Registered: s.matchesLocked(docs, NameKey(name), dob)}, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

var _ SessionStore = (*MemStore)(nil)

// ActiveSessions implements SessionStore.
func (s *MemStore) ActiveSessions(_ context.Context, since time.Time) ([]Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Session
	for _, ses := range s.sessions {
		if !ses.LastPlayAt.Before(since) {
			out = append(out, ses)
		}
	}
	slices.SortFunc(out, func(a, b Session) int { return int(a.UserID - b.UserID) })
	return out, nil
}

// ClaimCheck implements SessionStore.
func (s *MemStore) ClaimCheck(_ context.Context, ses Session) (bool, error) {
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
