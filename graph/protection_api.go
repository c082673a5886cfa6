package graph

import (
	"context"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/graph/model"
)

// ProtectionAPI resolves the player-protection part of the schema (issue
// 13): limits, breaks and the exclusion register.
type ProtectionAPI struct {
	svc *protection.Service
	// sessions, when set, revokes the player's access tokens once they take
	// a break, so every replica sees the new state on the next request and
	// closes their open sockets (a change of rights: close 4403).
	sessions Sessions
}

// Sessions revokes a user's access tokens when their rights change.
type Sessions interface {
	RevokeRights(ctx context.Context, userID int64) error
}

// NewProtectionAPI returns player protection's resolvers over svc
// (required); sessions (nil: none) revokes a player's tokens once they take
// a break.
func NewProtectionAPI(svc *protection.Service, sessions Sessions) *ProtectionAPI {
	return &ProtectionAPI{svc: svc, sessions: sessions}
}

func (a *ProtectionAPI) revoke(ctx context.Context, userID int64) error {
	if a.sessions == nil {
		return nil
	}
	return a.sessions.RevokeRights(ctx, userID)
}

// UserEventTypes implements UserEventSource: a reality check.
func (a *ProtectionAPI) UserEventTypes() []string { return []string{event.RealityCheck} }

// UserEvent implements UserEventSource: the reminder with the session's
// figures the message carries.
func (a *ProtectionAPI) UserEvent(_ context.Context, _ ids.UserID, ue event.UserEvent) model.UserEvent {
	if ue.Reality == nil {
		return nil
	}
	return &model.RealityCheckReminder{At: ue.At, Session: toModelRealityCheck(*ue.Reality)}
}

// MyProtection resolves Query.myProtection.
func (a *ProtectionAPI) MyProtection(ctx context.Context) (*model.Protection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return a.protectionOf(ctx, v.UserID)
}

// PlayerProtection resolves Query.playerProtection (admins).
func (a *ProtectionAPI) PlayerProtection(ctx context.Context, userID string) (*model.Protection, error) {
	uid, err := parseID(userID, "user")
	if err != nil {
		return nil, err
	}
	return a.protectionOf(ctx, uid)
}

func (a *ProtectionAPI) protectionOf(ctx context.Context, userID int64) (*model.Protection, error) {
	o, err := a.svc.Overview(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := &model.Protection{Limits: make([]model.ProtectionLimit, 0, len(o.Limits))}
	for _, l := range o.Limits {
		out.Limits = append(out.Limits, *toModelLimit(l))
	}
	if o.Exclusion.Kind != "" {
		out.Exclusion = toModelExclusion(o.Exclusion, o.Excluded)
	}
	for _, p := range protection.Periods {
		c := o.Counters[p]
		out.Counters = append(out.Counters, model.ProtectionCounter{
			Period: model.LimitPeriod(p), Start: fromDomainDate(c.Start),
			Deposits: model.Money(c.Deposits), Stakes: model.Money(c.Stakes),
			Returns: model.Money(c.Returns), NetLoss: model.Money(c.NetLoss()),
		})
	}
	return out, nil
}

// SetLimit resolves Mutation.setLimit.
func (a *ProtectionAPI) SetLimit(ctx context.Context, in model.SetLimitInput) (*model.ProtectionLimit, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	var amount int64
	if in.Amount != nil {
		amount = int64(*in.Amount)
	}
	l, err := a.svc.SetLimit(ctx, v.UserID, protection.LimitKind(in.Kind), protection.Period(in.Period), amount)
	if err != nil {
		return nil, err
	}
	return toModelLimit(l), nil
}

// TakeTimeOut resolves Mutation.takeTimeOut.
func (a *ProtectionAPI) TakeTimeOut(ctx context.Context, hours int) (*model.Exclusion, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if hours <= 0 || hours > 10_000 {
		return nil, errs.R(errs.Invalid, protection.ReasonInvalidExclusion, "a time-out lasts 24 hours to 6 weeks")
	}
	e, err := a.svc.TakeTimeOut(ctx, v.UserID, time.Duration(hours)*time.Hour)
	if err != nil {
		return nil, err
	}
	if err := a.revoke(ctx, v.UserID); err != nil {
		return nil, err
	}
	return toModelExclusion(e, true), nil
}

// SelfExclude resolves Mutation.selfExclude.
func (a *ProtectionAPI) SelfExclude(ctx context.Context, months *int) (*model.Exclusion, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	m := 0
	if months != nil {
		if m = *months; m == 0 {
			m = -1 // 0 is not "permanent" on the wire: null is
		}
	}
	e, err := a.svc.SelfExclude(ctx, v.UserID, m)
	if err != nil {
		return nil, err
	}
	if err := a.revoke(ctx, v.UserID); err != nil {
		return nil, err
	}
	return toModelExclusion(e, true), nil
}

// ExclusionRegister resolves Query.exclusionRegister.
func (a *ProtectionAPI) ExclusionRegister(ctx context.Context, all *bool, first *int, after *string, last *int, before *string) (*model.RegisterEntryConnection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	p, pr, err := accountPage(first, after, last, before)
	if err != nil {
		return nil, err
	}
	entries, next, err := a.svc.Register(ctx, v.UserID, all != nil && *all, p)
	if err != nil {
		return nil, err
	}
	out := &model.RegisterEntryConnection{Edges: make([]model.RegisterEntryEdge, 0, len(entries))}
	for _, e := range entries {
		out.Edges = append(out.Edges, model.RegisterEntryEdge{Cursor: idCursor(e.ID), Node: toModelRegisterEntry(e)})
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.RegisterEntryEdge) string { return e.Cursor }, next != 0)
	return out, nil
}

// AddRegisterEntry resolves Mutation.addRegisterEntry.
func (a *ProtectionAPI) AddRegisterEntry(ctx context.Context, in model.RegisterEntryInput) (*model.RegisterEntry, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	var dob account.Date
	if in.DateOfBirth != nil {
		dob = toDomainDate(*in.DateOfBirth)
	}
	e, err := a.svc.AddRegisterEntry(ctx, v.UserID, deref(in.DocumentHash), deref(in.Name), dob, deref(in.Note))
	if err != nil {
		return nil, err
	}
	return toModelRegisterEntry(e), nil
}

// maxRegisterCSV bounds an imported file (about 100,000 lines).
const maxRegisterCSV = 16 << 20

// ImportExclusionRegister resolves Mutation.importExclusionRegister.
func (a *ProtectionAPI) ImportExclusionRegister(ctx context.Context, csv string) ([]model.RegisterEntry, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if len(csv) > maxRegisterCSV {
		return nil, errs.R(errs.Invalid, protection.ReasonInvalidRegister, "the file is larger than %d MiB", maxRegisterCSV>>20)
	}
	entries, err := a.svc.ImportRegister(ctx, v.UserID, strings.NewReader(csv))
	if err != nil {
		return nil, err
	}
	out := make([]model.RegisterEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, *toModelRegisterEntry(e))
	}
	return out, nil
}

// RemoveRegisterEntry resolves Mutation.removeRegisterEntry.
func (a *ProtectionAPI) RemoveRegisterEntry(ctx context.Context, entryID, reason string) (*model.RegisterEntry, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	n, err := parseID(entryID, "register entry")
	if err != nil {
		return nil, err
	}
	e, err := a.svc.RemoveRegisterEntry(ctx, v.UserID, n, reason)
	if err != nil {
		return nil, err
	}
	return toModelRegisterEntry(e), nil
}

func toModelLimit(l protection.Limit) *model.ProtectionLimit {
	out := &model.ProtectionLimit{Kind: model.LimitKind(l.Kind), Period: model.LimitPeriod(l.Period), Pending: l.Pending}
	if l.Amount > 0 {
		m := model.Money(l.Amount)
		out.Amount = &m
	}
	if l.Pending {
		at := l.PendingAt
		out.PendingFrom = &at
		if l.PendingAmount > 0 {
			m := model.Money(l.PendingAmount)
			out.PendingAmount = &m
		}
	}
	return out
}

func toModelExclusion(e protection.Exclusion, active bool) *model.Exclusion {
	out := &model.Exclusion{Kind: model.ExclusionKind(e.Kind), Since: e.Since, Active: active}
	if !e.Until.IsZero() {
		u := e.Until
		out.Until = &u
	}
	return out
}

func toModelRegisterEntry(e protection.RegisterEntry) *model.RegisterEntry {
	out := &model.RegisterEntry{ID: id(e.ID), Note: e.Note, AddedAt: e.AddedAt, Active: e.Active()}
	if e.DocumentHash != "" {
		s := e.DocumentHash
		out.DocumentHash = &s
	}
	if e.NameKey != "" {
		s := e.NameKey
		out.NameKey = &s
		d := fromDomainDate(e.DateOfBirth)
		out.DateOfBirth = &d
	}
	if e.AddedBy != 0 {
		s := id(e.AddedBy)
		out.AddedBy = &s
	}
	if !e.RemovedAt.IsZero() {
		t := e.RemovedAt
		out.RemovedAt = &t
		s := id(e.RemovedBy)
		out.RemovedBy = &s
	}
	return out
}

func toModelRealityCheck(r event.RealityCheckData) *model.RealityCheck {
	return &model.RealityCheck{
		SessionStartedAt: r.SessionStartedAt, ElapsedSeconds: int(r.ElapsedSeconds),
		Stakes: model.Money(r.Stakes), Returns: model.Money(r.Returns), Net: model.Money(r.Net),
	}
}

// Refused keeps a limit hit when err refused userID's stake or deposit by
// a limit (the back office lists who hit which limit); otherwise nothing.
func (a *ProtectionAPI) Refused(ctx context.Context, userID int64, err error) {
	if a != nil && err != nil {
		a.svc.RecordRefusal(ctx, userID, err)
	}
}

// viewerAccount is the signed-in viewer's account id, 0 for none.
func viewerAccount(ctx context.Context) int64 {
	v, _ := ViewerFrom(ctx)
	return v.UserID
}
