package service_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

const admin = 9

// auditor records the audit entries, failing them all when fail is set.
type auditor struct {
	mu      sync.Mutex
	entries []account.AuditEntry
	fail    bool
}

func (a *auditor) AppendAudit(_ context.Context, e account.AuditEntry) (account.AuditEntry, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail {
		return account.AuditEntry{}, errors.New("audit store down")
	}
	e.ID = int64(len(a.entries) + 1)
	a.entries = append(a.entries, e)
	return e, nil
}

// take returns the entries recorded since the last take.
func (a *auditor) take() []account.AuditEntry {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.entries
	a.entries = nil
	return out
}

// env is a harness's table with a second service over its store, ledger
// and clock that audits into aud and publishes to pub.
type env struct {
	*totetest.Harness
	svc *service.Service
	aud *auditor
	pub *totetest.Recorder
}

func newEnv(t *testing.T, positions int) *env {
	t.Helper()
	h := totetest.NewHarness(t, totetest.MemEnv(t), positions)
	e := &env{Harness: h, aud: &auditor{}, pub: &totetest.Recorder{}}
	svc, err := service.New(service.Config{Store: h.Env.Store, Ledger: h.Env.Ledger, Gate: totetest.AllowAll{}, Publisher: e.pub, Clock: h.Clock, Auditor: e.aud})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	return e
}

// snapshot is what a refused action must leave as it was: the table's
// events, its settings and status, and the money of users 1..3.
type snapshot struct {
	events int
	// published is how many table events this service published.
	published int
	table     tote.Table
	wallets   [3]money.Amount
	jackpot   money.Amount
}

func (e *env) snapshot() snapshot {
	e.T.Helper()
	tab, err := e.Env.Store.Table(e.Ctx, e.Table.ID)
	if err != nil {
		e.T.Fatal(err)
	}
	s := snapshot{events: len(e.Events()), table: tab, jackpot: e.Balance(ledger.JackpotAccount),
		published: len(e.pub.Messages("table:" + itoa(e.Table.ID)))}
	for u := range s.wallets {
		s.wallets[u] = e.Balance(ledger.UserWallet(ids.UserID(u + 1)))
	}
	return s
}

// unchanged checks a refused action changed nothing, audited nothing and
// published nothing (the snapshot counts what was published).
func (e *env) unchanged(t *testing.T, what string, before snapshot) {
	t.Helper()
	if after := e.snapshot(); after != before {
		t.Errorf("%s changed the table, its events or money: %+v, was %+v", what, after, before)
	}
	if got := e.aud.take(); len(got) != 0 {
		t.Errorf("%s audited %+v", what, got)
	}
}

func itoa(n int64) string { return ids.UserID(n).String() }

func TestNewNeedsItsParts(t *testing.T) {
	env := totetest.MemEnv(t)
	full := service.Config{Store: env.Store, Ledger: env.Ledger, Gate: totetest.AllowAll{}, Publisher: &totetest.Recorder{}}
	cases := []struct {
		name string
		drop func(c *service.Config)
	}{
		{"no store", func(c *service.Config) { c.Store = nil }},
		{"no ledger", func(c *service.Config) { c.Ledger = nil }},
		{"no stake gate", func(c *service.Config) { c.Gate = nil }},
		{"no publisher", func(c *service.Config) { c.Publisher = nil }},
	}
	for _, tc := range cases {
		c := full
		tc.drop(&c)
		if _, err := service.New(c); errs.CodeOf(err) != errs.Internal {
			t.Errorf("%s: %v, want Internal", tc.name, err)
		}
	}
	if _, err := service.New(full); err != nil {
		t.Errorf("a full config: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestUpdateTableRefusesBadSettings(t *testing.T) {
	e := newEnv(t, 3)
	cases := []struct {
		name   string
		u      tote.SettingsUpdate
		reason string
	}{
		{"min stake under the floor", tote.SettingsUpdate{MinStake: ptr(tote.MinStakeFloor - 1)}, tote.ReasonMinStakeTooLow},
		{"max under min", tote.SettingsUpdate{MinStake: ptr(money.Tenge(500)), MaxStake: ptr(money.Tenge(400))}, tote.ReasonInvalidStakeLimits},
		{"max over the ceiling", tote.SettingsUpdate{MaxStake: ptr(tote.MaxStakeCeiling + 1)}, tote.ReasonInvalidStakeLimits},
		{"commission under 3%", tote.SettingsUpdate{Commission: ptr(money.BasisPoints(299))}, parimutuel.ReasonCommissionTooLow},
		{"express shares not 100%", tote.SettingsUpdate{ExpressShares: &[2]money.BasisPoints{6000, 3000}}, parimutuel.ReasonInvalidPoolConfig},
		{"a round under 1 s", tote.SettingsUpdate{RoundLengths: &[4]time.Duration{time.Second, 999 * time.Millisecond, time.Second, time.Second}}, tote.ReasonInvalidTiming},
		{"a negative card interval", tote.SettingsUpdate{CardInterval: ptr(-time.Millisecond)}, tote.ReasonInvalidTiming},
		{"a result shown over 10 min", tote.SettingsUpdate{ResultDisplay: ptr(10*time.Minute + time.Second)}, tote.ReasonInvalidTiming},
		{"suspension under its minimum", tote.SettingsUpdate{SuspendAt: ptr(tote.SuspendAtMin - 1)}, tote.ReasonInvalidSuspendAt},
		{"suspension over its maximum", tote.SettingsUpdate{SuspendAt: ptr(tote.SuspendAtMax + 1)}, tote.ReasonInvalidSuspendAt},
	}
	e.aud.take()
	for _, tc := range cases {
		before := e.snapshot()
		_, err := e.svc.UpdateTable(e.Ctx, admin, e.Table.ID, tc.u)
		errstest.Is(t, err, errs.Invalid, tc.reason)
		e.unchanged(t, tc.name, before)
	}
	_, err := e.svc.UpdateTable(e.Ctx, admin, e.Table.ID+1000, tote.SettingsUpdate{})
	errstest.Code(t, err, errs.NotFound)
}
