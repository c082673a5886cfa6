package service_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
)

var deposit = money.Tenge(10_000)

// betOn funds users 1..3 and places two bets in d.
func (e *env) betOn(d tote.Draw) {
	e.T.Helper()
	e.MustBet(1, d, parimutuel.MarketWin, "1", money.Tenge(200))
	e.MustBet(2, d, parimutuel.MarketCombination, "PAIR", money.Tenge(300))
}

func TestVoidDraw(t *testing.T) {
	e := newEnv(t, 4)
	for u := int64(1); u <= 3; u++ {
		e.Deposit(u, deposit)
	}
	d := e.RunUntil(e.Dealer, "PRE_DEAL", totetest.InPhase(tote.PhasePreDeal))
	e.betOn(d)
	e.aud.take()
	refusals := []struct {
		name, why string
		drawID    int64
		code      errs.Code
		reason    string
	}{
		{"no reason", "", d.ID, errs.Invalid, tote.ReasonInvalidReason},
		{"501 characters", strings.Repeat("я", 501), d.ID, errs.Invalid, tote.ReasonInvalidReason},
		{"not UTF-8", "camera \xff failure", d.ID, errs.Invalid, tote.ReasonInvalidReason},
		{"no such draw", "camera failure", d.ID + 1000, errs.NotFound, tote.ReasonNotFound},
	}
	for _, tc := range refusals {
		before := e.snapshot()
		_, err := e.svc.VoidDraw(e.Ctx, admin, tc.drawID, tc.why)
		errstest.Is(t, err, tc.code, tc.reason)
		e.unchanged(t, tc.name, before)
	}

	// A reason of 500 characters in Cyrillic (1,000 bytes) is accepted.
	why := strings.Repeat("я", 500)
	v, err := e.svc.VoidDraw(e.Ctx, admin, d.ID, why)
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase != tote.PhaseVoid || v.Result == nil || v.Result.VoidDetail == nil || v.Result.VoidDetail.Why != why {
		t.Fatalf("voided draw %s, result %+v", v.Phase, v.Result)
	}
	for u := int64(1); u <= 3; u++ {
		if b := e.Balance(ledger.UserWallet(ids.UserID(u))); b != deposit {
			t.Errorf("user %d holds %s after the void, deposited %s", u, b, deposit)
		}
	}
	checkVoidPublished(t, e, d)
	checkAudit(t, e.aud.take(), account.AuditEntry{Action: "TOTE_DRAW_VOIDED", ActorID: admin, At: e.Clock.Now(),
		SubjectKind: account.SubjectDraw, SubjectID: d.ID, TableID: e.Table.ID}, why)

	before := e.snapshot()
	_, err = e.svc.VoidDraw(e.Ctx, admin, d.ID, "again")
	errstest.Is(t, err, errs.Conflict, tote.ReasonDrawFinished)
	e.unchanged(t, "a second void", before)

	// The next draw: at the instant its round 1 closes, before any dealer
	// has acted on it, and after its pockets are dealt, no void.
	d2 := e.RunUntil(e.Dealer, "draw 2", func(x tote.Draw) bool { return x.Number == 2 && x.Phase == tote.PhasePreDeal })
	e.betOn(d2)
	e.Clock.Advance(d2.RoundClosesAt.Sub(e.Clock.Now()))
	for _, when := range []string{"at round 1's close", "in round 2"} {
		if when == "in round 2" {
			e.RunUntil(e.Dealer, "POCKET", func(x tote.Draw) bool { return x.ID == d2.ID && x.Phase == tote.PhasePocket })
		}
		before := e.snapshot()
		_, err := e.svc.VoidDraw(e.Ctx, admin, d2.ID, "the house dislikes the cards")
		errstest.Is(t, err, errs.Conflict, tote.ReasonVoidAfterDeal)
		e.unchanged(t, "a void "+when, before)
	}
}

// checkVoidPublished checks the void's DRAW_VOIDED went out on the table
// topic and each bettor heard of their bet and balance.
func checkVoidPublished(t *testing.T, e *env, d tote.Draw) {
	t.Helper()
	msgs := e.pub.Messages("table:" + itoa(e.Table.ID))
	if len(msgs) != 1 {
		t.Fatalf("%d table events published, want DRAW_VOIDED", len(msgs))
	}
	if ev, err := tote.DecodeTableEvent(msgs[0]); err != nil || ev.Type != tote.EventDrawVoided || ev.DrawID != d.ID || ev.Seq == 0 {
		t.Errorf("published %+v (%v), want DRAW_VOIDED of draw %d", ev, err, d.ID)
	}
	for u := int64(1); u <= 2; u++ {
		var types []string
		for _, m := range e.pub.Messages(event.UserTopic(ids.UserID(u))) {
			ev, err := event.DecodeUserEvent(m)
			if err != nil {
				t.Fatal(err)
			}
			types = append(types, ev.Type)
		}
		if strings.Join(types, " ") != event.BetSettled+" "+event.BalanceChanged {
			t.Errorf("user %d heard %v", u, types)
		}
	}
}

// checkAudit checks entries is the one entry want whose detail mentions
// each of details.
func checkAudit(t *testing.T, entries []account.AuditEntry, want account.AuditEntry, details ...string) {
	t.Helper()
	if len(entries) != 1 {
		t.Fatalf("%d audit entries %+v, want one %s", len(entries), entries, want.Action)
	}
	got := entries[0]
	detail, changes := got.Detail, got.Changes
	got.ID, got.Detail, got.Changes = 0, "", nil
	if want.Changes != nil {
		if len(changes) != len(want.Changes) {
			t.Errorf("%s changes %+v, want %+v", want.Action, changes, want.Changes)
		}
		for i := range min(len(changes), len(want.Changes)) {
			if changes[i] != want.Changes[i] {
				t.Errorf("%s change %d: %+v, want %+v", want.Action, i, changes[i], want.Changes[i])
			}
		}
		want.Changes = nil
	}
	if !got.At.Equal(want.At) {
		t.Errorf("%s audited at %v, want %v", want.Action, got.At, want.At)
	}
	if !equalEntries(got, want) {
		t.Errorf("audit entry %+v, want %+v", got, want)
	}
	for _, d := range details {
		if !strings.Contains(detail, d) {
			t.Errorf("%s detail %q does not mention %q", want.Action, detail, d)
		}
	}
}

func equalEntries(a, b account.AuditEntry) bool {
	return a.ActorID == b.ActorID && a.Action == b.Action && a.SubjectKind == b.SubjectKind && a.SubjectID == b.SubjectID && a.TableID == b.TableID
}

func TestPauseResume(t *testing.T) {
	e := newEnv(t, 2)
	e.aud.take()
	steps := []struct {
		name   string
		act    func() (tote.Table, error)
		status tote.TableStatus
		event  tote.EventType // "" when nothing changes
	}{
		{"pause", func() (tote.Table, error) { return e.svc.PauseTable(e.Ctx, admin, e.Table.ID) }, tote.TablePaused, tote.EventTablePaused},
		{"pause again", func() (tote.Table, error) { return e.svc.PauseTable(e.Ctx, admin, e.Table.ID) }, tote.TablePaused, ""},
		{"resume", func() (tote.Table, error) { return e.svc.ResumeTable(e.Ctx, admin, e.Table.ID) }, tote.TableRunning, tote.EventTableResumed},
		{"resume again", func() (tote.Table, error) { return e.svc.ResumeTable(e.Ctx, admin, e.Table.ID) }, tote.TableRunning, ""},
	}
	for _, st := range steps {
		before := e.snapshot()
		e.Clock.Advance(time.Second)
		tab, err := st.act()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		stored, err := e.Env.Store.Table(e.Ctx, e.Table.ID)
		if err != nil || stored.Status != st.status || tab.Status != st.status || tab.LastSeq != stored.LastSeq {
			t.Fatalf("%s: returned %s seq %d, stored %s seq %d (%v), want %s", st.name, tab.Status, tab.LastSeq, stored.Status, stored.LastSeq, err, st.status)
		}
		if st.event == "" {
			e.unchanged(t, st.name, before)
			continue
		}
		evs := e.Events()
		last := evs[len(evs)-1]
		if len(evs) != before.events+1 || last.Type != st.event || last.Seq != stored.LastSeq || !last.At.Equal(e.Clock.Now()) {
			t.Errorf("%s: %d events after %d, last %+v, want %s at seq %d", st.name, len(evs), before.events, last, st.event, stored.LastSeq)
		}
		pub := e.pub.Messages("table:" + itoa(e.Table.ID))
		if ev, err := tote.DecodeTableEvent(pub[len(pub)-1]); len(pub) != before.published+1 || err != nil || ev.Seq != last.Seq || ev.Type != st.event {
			t.Errorf("%s: published %d events after %d, last %+v (%v)", st.name, len(pub), before.published, ev, err)
		}
		checkAudit(t, e.aud.take(), account.AuditEntry{Action: "TOTE_" + string(st.event), ActorID: admin, At: e.Clock.Now(),
			SubjectKind: account.SubjectTable, SubjectID: e.Table.ID, TableID: e.Table.ID}, e.Table.Name)
	}
	_, err := e.svc.PauseTable(e.Ctx, admin, e.Table.ID+1000)
	errstest.Code(t, err, errs.NotFound)
}

func TestAuditEntries(t *testing.T) {
	e := newEnv(t, 2)
	e.aud.take()
	nt, err := e.svc.CreateTable(e.Ctx, admin, service.NewTable{Name: "Audited", Positions: 7})
	if err != nil {
		t.Fatal(err)
	}
	checkAudit(t, e.aud.take(), account.AuditEntry{Action: "TOTE_TABLE_CREATED", ActorID: admin, At: e.Clock.Now(),
		SubjectKind: account.SubjectTable, SubjectID: nt.ID, TableID: nt.ID}, `"Audited"`, "7 positions")

	old := nt.Settings
	minStake, commission := old.MinStake*2, old.Commission+100
	if _, err := e.svc.UpdateTable(e.Ctx, admin, nt.ID, tote.SettingsUpdate{MinStake: &minStake, Commission: &commission}); err != nil {
		t.Fatal(err)
	}
	checkAudit(t, e.aud.take(), account.AuditEntry{Action: "TOTE_TABLE_UPDATED", ActorID: admin, At: e.Clock.Now(),
		SubjectKind: account.SubjectTable, SubjectID: nt.ID, TableID: nt.ID, Changes: []account.AuditChange{
			{Field: "minStake", From: old.MinStake.String(), To: minStake.String()},
			{Field: "commission", From: tote.FormatPercent(old.Commission), To: tote.FormatPercent(commission)},
		}}, "minStake "+old.MinStake.String()+" → "+minStake.String())

	jackpot := e.Balance(ledger.JackpotAccount)
	_, err = e.svc.UpdateTable(e.Ctx, 0, nt.ID, tote.SettingsUpdate{MinStake: &old.MinStake})
	errstest.Is(t, e.svc.JackpotTopUp(e.Ctx, admin, 0, "k1"), errs.Invalid, tote.ReasonInvalidAmount)
	errstest.Is(t, e.svc.JackpotTopUp(e.Ctx, admin, money.Tenge(1), ""), errs.Invalid, ledger.ReasonInvalidIdempotencyKey)
	if err != nil || len(e.aud.take()) != 0 {
		t.Fatalf("a change by nobody (actor 0) or a refused top-up was audited (%v)", err)
	}
	for range 2 { // the retry moves nothing and is not audited again
		if err := e.svc.JackpotTopUp(e.Ctx, admin, money.Tenge(1000), "k1"); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.Balance(ledger.JackpotAccount); got != jackpot+money.Tenge(1000) {
		t.Errorf("jackpot %s after a top-up of 1000.00 and its retry, was %s", got, jackpot)
	}
	checkAudit(t, e.aud.take(), account.AuditEntry{Action: "TOTE_JACKPOT_TOPUP", ActorID: admin, At: e.Clock.Now()}, money.Tenge(1000).String())

	for _, on := range []bool{false, true} {
		if err := e.svc.SetJackpotEnabled(e.Ctx, admin, on); err != nil {
			t.Fatal(err)
		}
		state := map[bool]string{false: "Jackpot disabled", true: "Jackpot enabled"}[on]
		checkAudit(t, e.aud.take(), account.AuditEntry{Action: "TOTE_JACKPOT_ENABLED", ActorID: admin, At: e.Clock.Now()}, state)
		if _, got, err := e.svc.Jackpot(e.Ctx); err != nil || got != on {
			t.Errorf("jackpot enabled %v (%v), set %v", got, err, on)
		}
	}

	// A lost audit entry does not undo the action.
	e.aud.fail = true
	if tab, err := e.svc.PauseTable(e.Ctx, admin, nt.ID); err != nil || tab.Status != tote.TablePaused {
		t.Errorf("pause with the audit store down: %s %v", tab.Status, err)
	}
}
