package protection

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// Service is what players and admins do with protection: set limits, take
// a break, keep the exclusion register. It also screens registrations and
// verifications against the register (account.Screen).
type Service struct {
	store Store
	users account.UserStore
	loc   *time.Location
	now   func() time.Time
}

var _ account.Screen = (*Service)(nil)

// NewService returns the service; loc is the operator's zone (periods),
// now nil means time.Now.
func NewService(store Store, users account.UserStore, loc *time.Location, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.UTC
	}
	return &Service{store: store, users: users, loc: loc, now: now}
}

// Overview is a player's protection settings as they stand now.
type Overview struct {
	// Limits holds one entry per kind and period, in LimitKinds × Periods
	// order, with cooled-off changes applied.
	Limits    []Limit
	Exclusion Exclusion
	// Excluded is true while Exclusion is in force.
	Excluded bool
	Counters Counters
}

// RecordRefusal keeps a limit hit when err is the refusal of userID's stake
// or deposit by a limit (the reports list who hit which limit); any other
// error is ignored.
func (s *Service) RecordRefusal(ctx context.Context, userID int64, err error) {
	k, ok := HitOf(err)
	if !ok || userID <= 0 {
		return
	}
	// Best effort, after the refusal: the player's answer never waits on
	// it or fails for it.
	_ = s.store.RecordHit(context.WithoutCancel(ctx), userID, k, s.now())
}

// HitOf reports the limit kind a refusal hit; ok is false for any other
// error.
func HitOf(err error) (LimitKind, bool) {
	switch errs.ReasonOf(err) {
	case ReasonDepositLimit:
		return DepositLimit, true
	case ReasonStakeLimit:
		return StakeLimit, true
	case ReasonLossLimit:
		return LossLimit, true
	}
	return "", false
}

// Overview returns the player's limits, exclusion and this period's counters.
func (s *Service) Overview(ctx context.Context, userID int64) (Overview, error) {
	now := s.now()
	ls, err := s.store.Limits(ctx, userID)
	if err != nil {
		return Overview{}, err
	}
	ex, err := s.store.Exclusion(ctx, userID)
	if err != nil {
		return Overview{}, err
	}
	c, err := s.store.Counters(ctx, userID, now, s.loc)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Exclusion: ex, Excluded: ex.ActiveAt(now), Counters: c}
	for _, k := range LimitKinds {
		for _, p := range Periods {
			o.Limits = append(o.Limits, ls.Find(k, p).At(now))
		}
	}
	return o, nil
}

// SetLimit sets the player's limit of kind per period to amount (0 removes
// it) under the cooling-off rule of Limit.Change.
func (s *Service) SetLimit(ctx context.Context, userID int64, kind LimitKind, p Period, amount int64) (Limit, error) {
	if !kind.Valid() || !p.Valid() {
		return Limit{}, errs.R(errs.Invalid, ReasonInvalidLimit, "unknown limit %q per %q", kind, p)
	}
	if err := s.requirePlayer(ctx, userID); err != nil {
		return Limit{}, err
	}
	now := s.now()
	return s.store.UpdateLimit(ctx, userID, kind, p, func(l Limit) (Limit, error) {
		l.Kind, l.Period = kind, p
		return l.Change(money.Amount(amount), now)
	})
}

// TakeTimeOut starts (or extends) a time-out of d.
func (s *Service) TakeTimeOut(ctx context.Context, userID int64, d time.Duration) (Exclusion, error) {
	return s.exclude(ctx, userID, func(now time.Time) (Exclusion, error) { return NewTimeOut(d, now) })
}

// SelfExclude starts (or extends) a self-exclusion of months months, 0 for
// permanent.
func (s *Service) SelfExclude(ctx context.Context, userID int64, months int) (Exclusion, error) {
	return s.exclude(ctx, userID, func(now time.Time) (Exclusion, error) { return NewSelfExclusion(months, now) })
}

// exclude stores the exclusion build(now) makes. The instant it starts is
// read inside the store's update, after the store has taken the lock every
// stake and deposit of the player takes: a bet is committed
// before that instant, or it reads the exclusion and is refused.
func (s *Service) exclude(ctx context.Context, userID int64, build func(now time.Time) (Exclusion, error)) (Exclusion, error) {
	if _, err := build(s.now()); err != nil {
		return Exclusion{}, err // refused before any lock is taken
	}
	if err := s.requirePlayer(ctx, userID); err != nil {
		return Exclusion{}, err
	}
	return s.store.UpdateExclusion(ctx, userID, func(cur Exclusion) (Exclusion, error) {
		now := s.now()
		next, err := build(now)
		if err != nil {
			return Exclusion{}, err
		}
		return Replace(cur, next, now)
	})
}

// AddRegisterEntry adds one entry to the register for an admin, audited.
func (s *Service) AddRegisterEntry(ctx context.Context, adminID int64, docHash, name string, dob account.Date, note string) (RegisterEntry, error) {
	e, err := NewRegisterEntry(docHash, name, dob, note)
	if err != nil {
		return RegisterEntry{}, err
	}
	out, err := s.addEntries(ctx, adminID, []RegisterEntry{e}, "added by hand")
	if err != nil {
		return RegisterEntry{}, err
	}
	return out[0], nil
}

// ImportRegister adds every entry of a register CSV (see ParseRegisterCSV)
// for an admin, all or nothing, each audited.
func (s *Service) ImportRegister(ctx context.Context, adminID int64, csv io.Reader) ([]RegisterEntry, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return nil, err
	}
	entries, err := ParseRegisterCSV(csv)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, errs.R(errs.Invalid, ReasonInvalidRegister, "the file has no entries")
	}
	return s.addEntries(ctx, adminID, entries, fmt.Sprintf("imported (%d entries)", len(entries)))
}

func (s *Service) addEntries(ctx context.Context, adminID int64, entries []RegisterEntry, how string) ([]RegisterEntry, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return nil, err
	}
	now := s.now()
	for i := range entries {
		entries[i].AddedBy, entries[i].AddedAt = adminID, now
	}
	return s.store.AddRegisterEntries(ctx, entries, account.AuditEntry{At: now, ActorID: adminID, Action: ActionRegisterAdded, Detail: how})
}

// RemoveRegisterEntry takes an entry out of force for an admin, audited
// with the reason given.
func (s *Service) RemoveRegisterEntry(ctx context.Context, adminID, id int64, reason string) (RegisterEntry, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return RegisterEntry{}, err
	}
	now := s.now()
	return s.store.RemoveRegisterEntry(ctx, id, adminID, now,
		account.AuditEntry{At: now, ActorID: adminID, Action: ActionRegisterRemoved, Detail: truncate(reason, maxNoteLen)})
}

// Register lists the register for an admin, newest first.
func (s *Service) Register(ctx context.Context, adminID int64, all bool, p account.Page) ([]RegisterEntry, int64, error) {
	if err := s.requireAdmin(ctx, adminID); err != nil {
		return nil, 0, err
	}
	return s.store.ListRegister(ctx, all, p)
}

// ScreenRegistration implements account.Screen: a person in the register
// by name and date of birth cannot open an account.
func (s *Service) ScreenRegistration(ctx context.Context, name string, dob account.Date) error {
	return s.screen(ctx, nil, name, dob)
}

// ScreenDocument implements account.Screen: a document (or name and date
// of birth) in the register cannot be verified.
func (s *Service) ScreenDocument(ctx context.Context, docHash, name string, dob account.Date) error {
	return s.screen(ctx, []string{docHash}, name, dob)
}

func (s *Service) screen(ctx context.Context, docs []string, name string, dob account.Date) error {
	hit, err := s.store.RegisterMatches(ctx, docs, NameKey(name), dob)
	if err != nil {
		return err
	}
	if hit {
		return errs.R(errs.Forbidden, ReasonRegisterExcluded, "this person is in the exclusion register and cannot play; contact support")
	}
	return nil
}

func (s *Service) requirePlayer(ctx context.Context, id int64) error {
	u, err := s.users.ByID(ctx, id)
	if err != nil {
		return err
	}
	if u.Role != account.Player {
		return errs.R(errs.Forbidden, ReasonNotAPlayer, "only players set limits and breaks")
	}
	return nil
}

func (s *Service) requireAdmin(ctx context.Context, id int64) error {
	u, err := s.users.ByID(ctx, id)
	if err != nil && !errs.Is(err, errs.NotFound) {
		return err
	}
	if err != nil || u.Role != account.Admin {
		return errs.R(errs.Forbidden, ReasonNotAdmin, "only an admin may do this")
	}
	return nil
}
