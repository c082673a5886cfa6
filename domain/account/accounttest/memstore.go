package accounttest

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

// MemStore is an in-memory account.UserStore guarded by one mutex: a test
// twin of the database adapter (the embedded default is SQLite), run against
// the conformance suite here. It is safe for concurrent use.
type MemStore struct {
	mu      sync.Mutex
	now     func() time.Time
	users   []account.User // id = index + 1
	byEmail map[string]int64
	// emailKeys holds lower(email) of every user: the databases' unique
	// index compares that, so Bob@x and bob@x are never two accounts,
	// though ByEmail matches exactly.
	emailKeys     map[string]bool
	verifications []account.Verification // id = index + 1
	latest        map[int64]int64
	audit         []account.AuditEntry // id = index + 1
	terms         map[termsKey]time.Time
}

type termsKey struct {
	user    int64
	version string
}

var _ account.UserStore = (*MemStore)(nil)

// NewMemStore returns an empty store; now stamps users and audit entries
// that come without a time (nil: time.Now).
func NewMemStore(now func() time.Time) *MemStore {
	if now == nil {
		now = time.Now
	}
	return &MemStore{now: now, byEmail: make(map[string]int64), emailKeys: make(map[string]bool), latest: make(map[int64]int64), terms: make(map[termsKey]time.Time)}
}

func notFound(what string) error { return errs.E(errs.NotFound, "%s not found", what) }

// Create implements account.UserStore.
func (s *MemStore) Create(_ context.Context, u account.User) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.create(u)
}

// CreateAccepting implements account.UserStore.
func (s *MemStore) CreateAccepting(_ context.Context, u account.User, terms string) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := s.create(u)
	if err == nil {
		s.terms[termsKey{u.ID, terms}] = u.CreatedAt
	}
	return u, err
}

// AcceptTerms implements account.UserStore.
func (s *MemStore) AcceptTerms(_ context.Context, userID int64, version string, at time.Time) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return time.Time{}, notFound("user")
	}
	k := termsKey{userID, version}
	if first, ok := s.terms[k]; ok {
		return first, nil
	}
	s.terms[k] = at
	return at, nil
}

// TermsAccepted implements account.UserStore.
func (s *MemStore) TermsAccepted(_ context.Context, userID int64, version string) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.terms[termsKey{userID, version}]
	if !ok {
		return time.Time{}, notFound("terms acceptance")
	}
	return at, nil
}

func (s *MemStore) create(u account.User) (account.User, error) {
	if s.emailKeys[strings.ToLower(u.Email)] {
		return account.User{}, errs.R(errs.Conflict, account.ReasonEmailTaken, "an account with this email already exists")
	}
	u.ID = int64(len(s.users) + 1)
	if u.Verification == "" {
		u.Verification = account.NotSubmitted
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = s.now()
	}
	s.users = append(s.users, u)
	s.byEmail[u.Email] = u.ID
	s.emailKeys[strings.ToLower(u.Email)] = true
	return u, nil
}

// ByEmail implements account.UserStore.
func (s *MemStore) ByEmail(_ context.Context, email string) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.byEmail[email]
	if !ok {
		return account.User{}, notFound("user")
	}
	return s.users[id-1], nil
}

// Search implements account.UserStore.
func (s *MemStore) Search(_ context.Context, text, documentHash string, limit int) ([]account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	docs := map[int64]bool{}
	for _, v := range s.verifications {
		if documentHash != "" && v.Status == account.Approved && v.DocumentHash == documentHash {
			docs[v.UserID] = true
		}
	}
	var out []account.User
	for _, u := range s.users {
		if len(out) == limit {
			break
		}
		low := strings.ToLower(text)
		if strings.Contains(strings.ToLower(u.Email), low) || strings.Contains(strings.ToLower(u.Name), low) || docs[u.ID] {
			out = append(out, u)
		}
	}
	return out, nil
}

// ByIDs implements account.UserStore.
func (s *MemStore) ByIDs(_ context.Context, ids []int64) ([]account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []account.User
	for _, id := range ids {
		if id >= 1 && id <= int64(len(s.users)) {
			out = append(out, s.users[id-1])
		}
	}
	return out, nil
}

// ByID implements account.UserStore.
func (s *MemStore) ByID(_ context.Context, id int64) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.users)) {
		return account.User{}, notFound("user")
	}
	return s.users[id-1], nil
}

// SetPasswordHash implements account.UserStore.
func (s *MemStore) SetPasswordHash(_ context.Context, userID int64, hash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return notFound("user")
	}
	s.users[userID-1].PasswordHash = hash
	return nil
}

// SetRole implements account.UserStore.
func (s *MemStore) SetRole(_ context.Context, userID int64, role account.Role, audit account.AuditEntry) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return account.User{}, notFound("user")
	}
	s.users[userID-1].Role = role
	s.appendAuditLocked(audit)
	return s.users[userID-1], nil
}

// SetDisabled implements account.UserStore.
func (s *MemStore) SetDisabled(_ context.Context, userID int64, at *time.Time, reason string, audit account.AuditEntry) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if userID < 1 || userID > int64(len(s.users)) {
		return account.User{}, notFound("user")
	}
	u := &s.users[userID-1]
	u.DisabledAt, u.DisabledReason = at, reason
	if at == nil {
		u.DisabledReason = ""
	}
	s.appendAuditLocked(audit)
	return *u, nil
}

// Verification implements account.UserStore.
func (s *MemStore) Verification(_ context.Context, userID int64) (account.Verification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.latest[userID]
	if !ok {
		return account.Verification{}, notFound("verification")
	}
	return s.verifications[id-1], nil
}

// VerificationByID implements account.UserStore.
func (s *MemStore) VerificationByID(_ context.Context, id int64) (account.Verification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.verifications)) {
		return account.Verification{}, notFound("verification")
	}
	return s.verifications[id-1], nil
}

// SaveVerification implements account.UserStore.
func (s *MemStore) SaveVerification(_ context.Context, c account.VerificationChange) (account.Verification, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := c.Verification
	if v.UserID < 1 || v.UserID > int64(len(s.users)) {
		return account.Verification{}, notFound("user")
	}
	current := account.NotSubmitted
	latest, has := s.latest[v.UserID]
	if has {
		current = s.verifications[latest-1].Status
	}
	if current != c.From {
		return account.Verification{}, errs.R(errs.Conflict, account.ReasonVerificationChanged, "the verification changed meanwhile; reload and try again")
	}
	if v.ID == 0 {
		v.ID = int64(len(s.verifications) + 1)
		s.verifications = append(s.verifications, v)
		s.latest[v.UserID] = v.ID
	} else {
		if !has || v.ID != latest {
			return account.Verification{}, errs.R(errs.Conflict, account.ReasonVerificationChanged, "only the latest verification can change")
		}
		s.verifications[v.ID-1] = v
	}
	s.users[v.UserID-1].Verification = v.Status
	if c.Audit != nil {
		s.appendAuditLocked(*c.Audit)
	}
	return v, nil
}

// ListPendingVerifications implements account.UserStore.
func (s *MemStore) ListPendingVerifications(_ context.Context, p account.Page) ([]account.Verification, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	size := p.Size()
	var out []account.Verification
	if p.Backward {
		var all []account.Verification
		for _, v := range s.verifications {
			if v.Status == account.Pending && (p.After <= 0 || v.ID < p.After) {
				all = append(all, v)
			}
		}
		return account.BackwardPage(all, p, func(v account.Verification) int64 { return v.ID })
	}
	for i := max(p.After, 0); i < int64(len(s.verifications)); i++ {
		v := s.verifications[i]
		if v.Status != account.Pending {
			continue
		}
		if len(out) == size {
			return out, out[len(out)-1].ID, nil
		}
		out = append(out, v)
	}
	return out, 0, nil
}

// AppendAudit implements account.UserStore.
func (s *MemStore) AppendAudit(_ context.Context, e account.AuditEntry) (account.AuditEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.appendAuditLocked(e), nil
}

func (s *MemStore) appendAuditLocked(e account.AuditEntry) account.AuditEntry {
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
		e.SubjectKind = account.SubjectUser
	}
	e.Changes = slices.Clone(e.Changes)
	s.audit = append(s.audit, e)
	return e
}

// ListAudit implements account.UserStore.
func (s *MemStore) ListAudit(_ context.Context, f account.AuditFilter, p account.Page) ([]account.AuditEntry, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	end := int64(len(s.audit))
	if p.Backward {
		var all []account.AuditEntry
		for i := end - 1; i >= 0; i-- {
			if f.Match(s.audit[i]) && (p.After <= 0 || s.audit[i].ID > p.After) {
				all = append(all, s.audit[i])
			}
		}
		return account.BackwardPage(all, p, func(e account.AuditEntry) int64 { return e.ID })
	}
	if p.After > 0 {
		end = min(end, p.After-1)
	}
	size := p.Size()
	var out []account.AuditEntry
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

// AdminEmails implements account.UserStore.
func (s *MemStore) AdminEmails(_ context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, u := range s.users {
		if u.Role == account.Admin {
			out = append(out, u.Email)
		}
	}
	return out, nil
}
