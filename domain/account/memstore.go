package account

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// MemStore is an in-memory UserStore guarded by one mutex: the store of the
// embedded mode and of fast tests. It is safe for concurrent use.
type MemStore struct {
	mu            sync.Mutex
	now           func() time.Time
	users         []User // id = index + 1
	byEmail       map[string]int64
	verifications []Verification // id = index + 1
	latest        map[int64]int64
	audit         []AuditEntry // id = index + 1
}

var _ UserStore = (*MemStore)(nil)

// NewMemStore returns an empty store; now stamps users and audit entries
// that come without a time (nil: time.Now).
func NewMemStore(now func() time.Time) *MemStore {
	if now == nil {
		now = time.Now
	}
	return &MemStore{now: now, byEmail: make(map[string]int64), latest: make(map[int64]int64)}
}

func notFound(what string) error { return errs.E(errs.NotFound, "%s not found", what) }

// Create implements UserStore.
func (s *MemStore) Create(_ context.Context, u User) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, taken := s.byEmail[u.Email]; taken {
		return User{}, errs.R(errs.Conflict, ReasonEmailTaken, "an account with this email already exists")
	}
	u.ID = int64(len(s.users) + 1)
	if u.Verification == "" {
		u.Verification = NotSubmitted
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = s.now()
	}
	s.users = append(s.users, u)
	s.byEmail[u.Email] = u.ID
	return u, nil
}

// ByEmail implements UserStore.
func (s *MemStore) ByEmail(_ context.Context, email string) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.byEmail[email]
	if !ok {
		return User{}, notFound("user")
	}
	return s.users[id-1], nil
}

// ByIDs implements UserStore.
func (s *MemStore) ByIDs(_ context.Context, ids []int64) ([]User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []User
	for _, id := range ids {
		if id >= 1 && id <= int64(len(s.users)) {
			out = append(out, s.users[id-1])
		}
	}
	return out, nil
}

// ByID implements UserStore.
func (s *MemStore) ByID(_ context.Context, id int64) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.users)) {
		return User{}, notFound("user")
	}
	return s.users[id-1], nil
}

// SetPasswordHash implements UserStore.
func (s *MemStore) SetPasswordHash(_ context.Context, userID int64, hash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return notFound("user")
	}
	s.users[userID-1].PasswordHash = hash
	return nil
}

// SetRole implements UserStore.
func (s *MemStore) SetRole(_ context.Context, userID int64, role Role, audit AuditEntry) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return User{}, notFound("user")
	}
	s.users[userID-1].Role = role
	s.appendAuditLocked(audit)
	return s.users[userID-1], nil
}

// SetDisabled implements UserStore.
func (s *MemStore) SetDisabled(_ context.Context, userID int64, at *time.Time, reason string, audit AuditEntry) (User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return User{}, notFound("user")
	}
	u := &s.users[userID-1]
	u.DisabledAt, u.DisabledReason = at, reason
	if at == nil {
		u.DisabledReason = ""
	}
	s.appendAuditLocked(audit)
	return *u, nil
}

// Verification implements UserStore.
func (s *MemStore) Verification(_ context.Context, userID int64) (Verification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.latest[userID]
	if !ok {
		return Verification{}, notFound("verification")
	}
	return s.verifications[id-1], nil
}

// VerificationByID implements UserStore.
func (s *MemStore) VerificationByID(_ context.Context, id int64) (Verification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.verifications)) {
		return Verification{}, notFound("verification")
	}
	return s.verifications[id-1], nil
}

// SaveVerification implements UserStore.
func (s *MemStore) SaveVerification(_ context.Context, c VerificationChange) (Verification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := c.Verification
	if v.UserID < 1 || v.UserID > int64(len(s.users)) {
		return Verification{}, notFound("user")
	}
	current := NotSubmitted
	latest, has := s.latest[v.UserID]
	if has {
		current = s.verifications[latest-1].Status
	}
	if current != c.From {
		return Verification{}, errs.R(errs.Conflict, ReasonVerificationChanged, "the verification changed meanwhile; reload and try again")
	}
	if v.ID == 0 {
		v.ID = int64(len(s.verifications) + 1)
		s.verifications = append(s.verifications, v)
		s.latest[v.UserID] = v.ID
	} else {
		if !has || v.ID != latest {
			return Verification{}, errs.R(errs.Conflict, ReasonVerificationChanged, "only the latest verification can change")
		}
		s.verifications[v.ID-1] = v
	}
	s.users[v.UserID-1].Verification = v.Status
	if c.Audit != nil {
		s.appendAuditLocked(*c.Audit)
	}
	return v, nil
}

// ListPendingVerifications implements UserStore.
func (s *MemStore) ListPendingVerifications(_ context.Context, p Page) ([]Verification, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	size := p.Size()
	var out []Verification
	for i := max(p.After, 0); i < int64(len(s.verifications)); i++ {
		v := s.verifications[i]
		if v.Status != Pending {
			continue
		}
		if len(out) == size {
			return out, out[len(out)-1].ID, nil
		}
		out = append(out, v)
	}
	return out, 0, nil
}

// AppendAudit implements UserStore.
func (s *MemStore) AppendAudit(_ context.Context, e AuditEntry) (AuditEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.appendAuditLocked(e), nil
}

func (s *MemStore) appendAuditLocked(e AuditEntry) AuditEntry {
	e.ID = int64(len(s.audit) + 1)
	if e.At.IsZero() {
		e.At = s.now()
	}
	// As the database keeps it: the kind of no subject is none, and a
	// subject without a kind is a user.
	switch {
	case e.SubjectID == 0:
		e.SubjectKind = ""
	case e.SubjectKind == "":
		e.SubjectKind = SubjectUser
	}
	e.Changes = slices.Clone(e.Changes)
	s.audit = append(s.audit, e)
	return e
}

// ListAudit implements UserStore.
func (s *MemStore) ListAudit(_ context.Context, f AuditFilter, p Page) ([]AuditEntry, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	end := int64(len(s.audit))
	if p.After > 0 {
		end = min(end, p.After-1)
	}
	size := p.Size()
	var out []AuditEntry
	var next int64
	for i := end - 1; i >= 0; i-- {
		if !f.Match(s.audit[i]) {
			continue
		}
		if len(out) == size {
			// One more matches: a next page exists, after the last listed.
			next = out[len(out)-1].ID
			break
		}
		out = append(out, s.audit[i])
	}
	return out, next, nil
}

// AdminEmails implements UserStore.
func (s *MemStore) AdminEmails(_ context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, u := range s.users {
		if u.Role == Admin {
			out = append(out, u.Email)
		}
	}
	return out, nil
}
