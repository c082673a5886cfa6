// Package protectiontest is the conformance suite of player protection: a
// ledger store with its protection guard, and a protection.Store, must
// refuse and count exactly as the domain rules say. The in-memory twins
// run it in their unit tests; persistence runs the very same tests against
// SQLite and Postgres.
//
//	protectiontest.Run(t, func(t *testing.T, now func() time.Time, loc *time.Location) protectiontest.Env { ... })
package protectiontest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/internal/clocktest"
)

// Env is one fresh world: a ledger that guards every post, the protection
// store, and the users both see. All of them tell time with the now and
// zone given to the factory.
type Env struct {
	Ledger ledger.Store
	// InTx runs fn in one ledger transaction (ledgertest.MemStore.InTx or the
	// database's), all of fn's posts undone when fn fails.
	InTx  func(ctx context.Context, fn func(ctx context.Context, tx ledger.Poster) error) error
	Store protection.Store
	Users account.UserStore
}

// racers is how many concurrent stakes race a limit.
const racers = 40

// Start is the suite's first instant: Wednesday 4 March 2026, 10:00 in
// Almaty (05:00 UTC).
var Start = time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)

// Run runs the whole suite; newEnv is called once per subtest.
func Run(t *testing.T, newEnv func(t *testing.T, now func() time.Time, loc *time.Location) Env) {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Almaty")
	if err != nil {
		t.Fatalf("load zone: %v", err)
	}
	tests := []struct {
		name string
		run  func(t *testing.T, w *world)
	}{
		{"DepositLimitPerDay", testDepositLimit},
		{"StakeLimitPerWeekBothGames", testStakeLimit},
		{"LossLimitCountsReturns", testLossLimit},
		{"LowerAtOnceRaiseAfterCoolingOff", testCoolingOff},
		{"MonthFollowsAlmatyCalendar", testMonthCalendar},
		{"TimeOut", testTimeOut},
		{"SelfExclusionPermanent", testSelfExclusion},
		{"RegisterByNameAndDocument", testRegister},
		{"RefusedStakeRollsBackTransaction", testRollback},
		{"RealityChecks", testRealityChecks},
		{"ConcurrentStakesNeverExceedLimit", func(t *testing.T, w *world) { testConcurrentStakes(t, w, racers) }},
		{"StakesRacingLimitChange", func(t *testing.T, w *world) { testRacingLimitChange(t, w, racers) }},
		{"PropertyMatchesModel", testProperty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each test has its own store and clock
			clock := clocktest.New(Start)
			env := newEnv(t, clock.Now, loc)
			w := &world{Env: env, clock: clock, loc: loc, ctx: context.Background(),
				svc: protection.NewService(env.Store, env.Users, loc, clock.Now)}
			tc.run(t, w)
		})
	}
}

// world is one subtest's environment and helpers.
type world struct {
	Env
	clock *clocktest.Clock
	loc   *time.Location
	ctx   context.Context
	svc   *protection.Service
	keys  atomic.Int64
}

func (w *world) key(what string) string { return fmt.Sprintf("%s-%d", what, w.keys.Add(1)) }

// player creates a player named name, born dob.
func (w *world) player(t testing.TB, name string, dob account.Date) int64 {
	t.Helper()
	u, err := w.Users.Create(w.ctx, account.User{
		Email: fmt.Sprintf("p%d@example.kz", w.keys.Add(1)), Name: name, DateOfBirth: dob,
		Role: account.Player, PasswordHash: "not-a-real-hash", CreatedAt: w.clock.Now(), Verification: account.NotSubmitted,
	})
	if err != nil {
		t.Fatalf("create player: %v", err)
	}
	return u.ID
}

func (w *world) admin(t testing.TB) int64 {
	t.Helper()
	u, err := w.Users.Create(w.ctx, account.User{
		Email: fmt.Sprintf("a%d@example.kz", w.keys.Add(1)), Name: "Admin", DateOfBirth: account.MustParseDate("1970-01-01"),
		Role: account.Admin, PasswordHash: "not-a-real-hash", CreatedAt: w.clock.Now(), Verification: account.NotSubmitted,
	})
	if err != nil {
		t.Fatalf("create admin: %v", err)
	}
	return u.ID
}

var dob = account.MustParseDate("1990-05-17")

func (w *world) deposit(id int64, a money.Amount) error {
	_, err := w.Ledger.Post(w.ctx, ledger.Move(w.key("dep"), ledger.Deposit, "cashier", ledger.CashAccount, ledger.UserWallet(ids.UserID(id)), a))
	return err
}

func (w *world) withdraw(id int64, a money.Amount) error {
	_, err := w.Ledger.Post(w.ctx, ledger.Move(w.key("wd"), ledger.Withdrawal, "cashier", ledger.UserWallet(ids.UserID(id)), ledger.CashAccount, a))
	return err
}

// bet stakes on the totalizator: wallet → a pool's escrow.
func (w *world) bet(id int64, a money.Amount) error {
	_, err := w.Ledger.Post(w.ctx, ledger.Move(w.key("bet"), ledger.BetStake, "bet", ledger.UserWallet(ids.UserID(id)), ledger.EscrowOf("d1:1:WIN"), a))
	return err
}

// ante stakes in Casino Hold'em: wallet → house.
func (w *world) ante(id int64, a money.Amount) error {
	_, err := w.Ledger.Post(w.ctx, ledger.Move(w.key("ante"), ledger.HoldemStake, "ante", ledger.UserWallet(ids.UserID(id)), ledger.HouseAccount, a))
	return err
}

// payout returns money from the house (a Hold'em win).
func (w *world) payout(id int64, a money.Amount) error {
	_, err := w.Ledger.Post(w.ctx, ledger.Move(w.key("pay"), ledger.HoldemPayout, "win", ledger.HouseAccount, ledger.UserWallet(ids.UserID(id)), a))
	return err
}

func (w *world) setLimit(t testing.TB, id int64, k protection.LimitKind, p protection.Period, a money.Amount) protection.Limit {
	t.Helper()
	l, err := w.svc.SetLimit(w.ctx, id, k, p, int64(a))
	if err != nil {
		t.Fatalf("SetLimit(%s %s %s): %v", k, p, a, err)
	}
	return l
}

func ok(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func (w *world) balance(t testing.TB, id int64) money.Amount {
	t.Helper()
	b, err := w.Ledger.Balance(w.ctx, ledger.UserWallet(ids.UserID(id)))
	ok(t, err)
	return b
}

func (w *world) counters(t testing.TB, id int64) protection.Counters {
	t.Helper()
	c, err := w.Store.Counters(w.ctx, id, w.clock.Now(), w.loc)
	ok(t, err)
	return c
}

// advanceTo moves the clock to the given Almaty wall time.
func (w *world) advanceTo(t testing.TB, y int, m time.Month, d, h, min int) {
	t.Helper()
	target := time.Date(y, m, d, h, min, 0, 0, w.loc)
	now := w.clock.Now()
	if target.Before(now) {
		t.Fatalf("clock cannot go back from %s to %s", now, target)
	}
	w.clock.Advance(target.Sub(now))
}

func testDepositLimit(t *testing.T, w *world) {
	id := w.player(t, "Aigerim", dob)
	w.setLimit(t, id, protection.DepositLimit, protection.Day, money.Tenge(100))
	ok(t, w.deposit(id, money.Tenge(60)))
	errstest.Is(t, w.deposit(id, money.Tenge(50)), errs.Conflict, "DEPOSIT_LIMIT")
	errstest.Is(t, w.deposit(id, money.Tenge(101)), errs.Conflict, "DEPOSIT_LIMIT")
	ok(t, w.deposit(id, money.Tenge(40)))
	if b := w.balance(t, id); b != money.Tenge(100) {
		t.Fatalf("balance = %s, want 100.00: a refused deposit moved money", b)
	}
	if c := w.counters(t, id)[protection.Day]; c.Deposits != money.Tenge(100) {
		t.Fatalf("day counter = %+v, want deposits 100.00", c)
	}
	// Withdrawals and stakes are not deposits.
	ok(t, w.withdraw(id, money.Tenge(10)))
	ok(t, w.bet(id, money.Tenge(10)))
	// Local midnight in Almaty starts a new day.
	w.advanceTo(t, 2026, 3, 4, 23, 59)
	errstest.Is(t, w.deposit(id, money.Tenge(1)), errs.Conflict, "DEPOSIT_LIMIT")
	w.advanceTo(t, 2026, 3, 5, 0, 0)
	ok(t, w.deposit(id, money.Tenge(100)))
}

func testStakeLimit(t *testing.T, w *world) {
	id := w.player(t, "Bauyrzhan", dob)
	ok(t, w.deposit(id, money.Tenge(1000)))
	w.setLimit(t, id, protection.StakeLimit, protection.Week, money.Tenge(100))
	ok(t, w.bet(id, money.Tenge(50)))
	ok(t, w.ante(id, money.Tenge(30)))
	errstest.Is(t, w.ante(id, money.Tenge(25)), errs.Conflict, "STAKE_LIMIT")
	errstest.Is(t, w.bet(id, money.Tenge(21)), errs.Conflict, "STAKE_LIMIT")
	ok(t, w.payout(id, money.Tenge(500))) // winnings do not give stake room back
	errstest.Is(t, w.bet(id, money.Tenge(21)), errs.Conflict, "STAKE_LIMIT")
	ok(t, w.bet(id, money.Tenge(20)))
	if b := w.balance(t, id); b != money.Tenge(1000-100+500) {
		t.Fatalf("balance = %s, want 1400.00", b)
	}
	// The week runs Monday to Sunday in Almaty: Sunday 23:00 still counts,
	// Monday 00:00 starts afresh.
	w.advanceTo(t, 2026, 3, 8, 23, 0)
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Conflict, "STAKE_LIMIT")
	w.advanceTo(t, 2026, 3, 9, 0, 0)
	ok(t, w.bet(id, money.Tenge(100)))
}

func testLossLimit(t *testing.T, w *world) {
	id := w.player(t, "Dana", dob)
	ok(t, w.deposit(id, money.Tenge(1000)))
	w.setLimit(t, id, protection.LossLimit, protection.Day, money.Tenge(150))
	ok(t, w.bet(id, money.Tenge(100)))
	ok(t, w.payout(id, money.Tenge(80))) // net loss 20
	ok(t, w.ante(id, money.Tenge(130)))  // 150
	errstest.Is(t, w.ante(id, money.Tenge(1)), errs.Conflict, "LOSS_LIMIT")
	ok(t, w.payout(id, money.Tenge(60))) // 90
	ok(t, w.bet(id, money.Tenge(60)))    // 150
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Conflict, "LOSS_LIMIT")
	c := w.counters(t, id)[protection.Day]
	if c.Stakes != money.Tenge(290) || c.Returns != money.Tenge(140) || c.NetLoss() != money.Tenge(150) {
		t.Fatalf("day counter = %+v, want stakes 290, returns 140", c)
	}
	// A player ahead for the period may stake the limit plus their winnings.
	other := w.player(t, "Erlan", dob)
	ok(t, w.deposit(other, money.Tenge(1000)))
	w.setLimit(t, other, protection.LossLimit, protection.Month, money.Tenge(50))
	ok(t, w.bet(other, money.Tenge(50)))
	ok(t, w.payout(other, money.Tenge(200))) // net loss -150
	ok(t, w.bet(other, money.Tenge(200)))    // 50
	errstest.Is(t, w.bet(other, money.Tenge(1)), errs.Conflict, "LOSS_LIMIT")
}

func testCoolingOff(t *testing.T, w *world) {
	id := w.player(t, "Gulnara", dob)
	ok(t, w.deposit(id, money.Tenge(10_000)))
	w.setLimit(t, id, protection.StakeLimit, protection.Month, money.Tenge(100))
	ok(t, w.bet(id, money.Tenge(60)))
	// Lowering applies at once.
	l := w.setLimit(t, id, protection.StakeLimit, protection.Month, money.Tenge(70))
	if l.Amount != money.Tenge(70) || l.Pending {
		t.Fatalf("lowered limit = %+v", l)
	}
	errstest.Is(t, w.bet(id, money.Tenge(11)), errs.Conflict, "STAKE_LIMIT")
	// Raising waits 24 hours.
	l = w.setLimit(t, id, protection.StakeLimit, protection.Month, money.Tenge(500))
	if l.Amount != money.Tenge(70) || !l.Pending || l.PendingAmount != money.Tenge(500) || !l.PendingAt.Equal(w.clock.Now().Add(protection.CoolingOff)) {
		t.Fatalf("raised limit = %+v", l)
	}
	errstest.Is(t, w.bet(id, money.Tenge(11)), errs.Conflict, "STAKE_LIMIT")
	w.clock.Advance(protection.CoolingOff - time.Second)
	errstest.Is(t, w.bet(id, money.Tenge(11)), errs.Conflict, "STAKE_LIMIT")
	w.clock.Advance(time.Second)
	ok(t, w.bet(id, money.Tenge(400)))
	errstest.Is(t, w.bet(id, money.Tenge(41)), errs.Conflict, "STAKE_LIMIT")
	// Removing waits too; lowering again cancels a pending removal.
	l = w.setLimit(t, id, protection.StakeLimit, protection.Month, 0)
	if l.Amount != money.Tenge(500) || !l.Pending || l.PendingAmount != 0 {
		t.Fatalf("removed limit = %+v", l)
	}
	errstest.Is(t, w.bet(id, money.Tenge(41)), errs.Conflict, "STAKE_LIMIT")
	l = w.setLimit(t, id, protection.StakeLimit, protection.Month, money.Tenge(480))
	if l.Amount != money.Tenge(480) || l.Pending {
		t.Fatalf("lowered again = %+v", l)
	}
	w.clock.Advance(2 * protection.CoolingOff)
	errstest.Is(t, w.bet(id, money.Tenge(21)), errs.Conflict, "STAKE_LIMIT")
	w.setLimit(t, id, protection.StakeLimit, protection.Month, 0)
	w.clock.Advance(protection.CoolingOff)
	ok(t, w.bet(id, money.Tenge(5000)))
	// The overview shows the state as it stands.
	o, err := w.svc.Overview(w.ctx, id)
	ok(t, err)
	for _, l := range o.Limits {
		if l.Amount != 0 || l.Pending {
			t.Fatalf("overview limit %+v, want none", l)
		}
	}
	if o.Counters[protection.Month].Stakes != money.Tenge(5460) {
		t.Fatalf("month stakes = %s, want 5460.00", o.Counters[protection.Month].Stakes)
	}
	// Bad requests.
	_, err = w.svc.SetLimit(w.ctx, id, "SPEND", protection.Day, 1)
	errstest.Is(t, err, errs.Invalid, protection.ReasonInvalidLimit)
	_, err = w.svc.SetLimit(w.ctx, id, protection.StakeLimit, protection.Day, -1)
	errstest.Is(t, err, errs.Invalid, protection.ReasonInvalidLimit)
	_, err = w.svc.SetLimit(w.ctx, w.admin(t), protection.StakeLimit, protection.Day, 1)
	errstest.Is(t, err, errs.Forbidden, "NOT_A_PLAYER")
}

func testMonthCalendar(t *testing.T, w *world) {
	id := w.player(t, "Kairat", dob)
	ok(t, w.deposit(id, money.Tenge(1000)))
	w.advanceTo(t, 2026, 3, 31, 23, 30) // 18:30 UTC: already April 1st nowhere but still March here
	w.setLimit(t, id, protection.StakeLimit, protection.Month, money.Tenge(100))
	ok(t, w.bet(id, money.Tenge(100)))
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Conflict, "STAKE_LIMIT")
	w.advanceTo(t, 2026, 4, 1, 0, 0) // 19:00 UTC on March 31st, but April in Almaty
	ok(t, w.bet(id, money.Tenge(100)))
	c := w.counters(t, id)
	if c[protection.Month].Start != account.MustParseDate("2026-04-01") || c[protection.Month].Stakes != money.Tenge(100) {
		t.Fatalf("month counter = %+v", c[protection.Month])
	}
	if c[protection.Week].Start != account.MustParseDate("2026-03-30") || c[protection.Week].Stakes != money.Tenge(200) {
		t.Fatalf("week counter = %+v (the week spans the month's end)", c[protection.Week])
	}
}

func testTimeOut(t *testing.T, w *world) {
	id := w.player(t, "Madina", dob)
	ok(t, w.deposit(id, money.Tenge(100)))
	_, err := w.svc.TakeTimeOut(w.ctx, id, 23*time.Hour)
	errstest.Is(t, err, errs.Invalid, protection.ReasonInvalidExclusion)
	_, err = w.svc.TakeTimeOut(w.ctx, id, 43*24*time.Hour)
	errstest.Is(t, err, errs.Invalid, protection.ReasonInvalidExclusion)
	e, err := w.svc.TakeTimeOut(w.ctx, id, 48*time.Hour)
	ok(t, err)
	if e.Kind != protection.TimeOut || !e.Until.Equal(w.clock.Now().Add(48*time.Hour)) {
		t.Fatalf("time-out = %+v", e)
	}
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Forbidden, protection.ReasonTimedOut)
	errstest.Is(t, w.ante(id, money.Tenge(1)), errs.Forbidden, protection.ReasonTimedOut)
	errstest.Is(t, w.deposit(id, money.Tenge(1)), errs.Forbidden, protection.ReasonTimedOut)
	ok(t, w.withdraw(id, money.Tenge(10))) // money may always leave
	ok(t, w.payout(id, money.Tenge(5)))    // and winnings of earlier stakes arrive
	// Not revocable: a shorter break is refused; a longer one extends it.
	_, err = w.svc.TakeTimeOut(w.ctx, id, 24*time.Hour)
	errstest.Is(t, err, errs.Conflict, protection.ReasonAlreadyExcluded)
	e, err = w.svc.TakeTimeOut(w.ctx, id, 72*time.Hour)
	ok(t, err)
	w.clock.Advance(72*time.Hour - time.Second)
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Forbidden, protection.ReasonTimedOut)
	w.clock.Advance(time.Second)
	ok(t, w.bet(id, money.Tenge(1)))
	ok(t, w.deposit(id, money.Tenge(1)))
	_ = e
}

func testSelfExclusion(t *testing.T, w *world) {
	id := w.player(t, "Nurlan", dob)
	ok(t, w.deposit(id, money.Tenge(100)))
	_, err := w.svc.SelfExclude(w.ctx, id, 5)
	errstest.Is(t, err, errs.Invalid, protection.ReasonInvalidExclusion)
	e, err := w.svc.SelfExclude(w.ctx, id, 6)
	ok(t, err)
	if e.Kind != protection.SelfExclusion || !e.Until.Equal(w.clock.Now().AddDate(0, 6, 0)) {
		t.Fatalf("self-exclusion = %+v", e)
	}
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Forbidden, protection.ReasonSelfExcluded)
	errstest.Is(t, w.deposit(id, money.Tenge(1)), errs.Forbidden, protection.ReasonSelfExcluded)
	ok(t, w.withdraw(id, money.Tenge(100)))
	_, err = w.svc.TakeTimeOut(w.ctx, id, 42*24*time.Hour)
	errstest.Is(t, err, errs.Conflict, protection.ReasonAlreadyExcluded)
	e, err = w.svc.SelfExclude(w.ctx, id, 0)
	ok(t, err)
	if !e.Permanent() {
		t.Fatalf("permanent self-exclusion = %+v", e)
	}
	_, err = w.svc.SelfExclude(w.ctx, id, 60)
	errstest.Is(t, err, errs.Conflict, protection.ReasonAlreadyExcluded)
	w.clock.Advance(10 * 365 * 24 * time.Hour)
	errstest.Is(t, w.bet(id, money.Tenge(1)), errs.Forbidden, protection.ReasonSelfExcluded)
	got, err := w.Store.Exclusion(w.ctx, id)
	ok(t, err)
	if !got.Permanent() || !got.ActiveAt(w.clock.Now()) {
		t.Fatalf("stored exclusion = %+v", got)
	}
}

func testRegister(t *testing.T, w *world) {
	admin := w.admin(t)
	byName := w.player(t, "Ivanov  IVAN", dob)
	byDoc := w.player(t, "Petrov Petr", dob)
	other := w.player(t, "Ivanov Ivan", account.MustParseDate("1990-05-18"))
	docHash := "ab" + fmt.Sprintf("%062d", 7)
	_, err := w.Users.SaveVerification(w.ctx, account.VerificationChange{
		Verification: account.Verification{UserID: byDoc, DocumentType: account.IDCard, DocumentHash: docHash,
			DateOfBirth: dob, Status: account.Approved, SubmittedAt: w.clock.Now()},
		From: account.NotSubmitted,
	})
	ok(t, err)
	for _, id := range []int64{byName, byDoc, other} {
		ok(t, w.deposit(id, money.Tenge(100)))
	}
	_, err = w.svc.ImportRegister(w.ctx, byName, stringsReader("document_hash\n"+docHash+"\n"))
	errstest.Is(t, err, errs.Forbidden, "NOT_ADMIN")
	added, err := w.svc.ImportRegister(w.ctx, admin, stringsReader("name,date_of_birth,note\n\"ivanov ivan\",1990-05-17,court order\n"))
	ok(t, err)
	docEntry, err := w.svc.AddRegisterEntry(w.ctx, admin, docHash, "", account.Date{}, "")
	ok(t, err)
	errstest.Is(t, w.bet(byName, money.Tenge(1)), errs.Forbidden, protection.ReasonRegisterExcluded)
	errstest.Is(t, w.deposit(byName, money.Tenge(1)), errs.Forbidden, protection.ReasonRegisterExcluded)
	errstest.Is(t, w.ante(byDoc, money.Tenge(1)), errs.Forbidden, protection.ReasonRegisterExcluded)
	ok(t, w.bet(other, money.Tenge(1))) // same name, another birthday
	ok(t, w.withdraw(byName, money.Tenge(100)))
	// Screening at registration and verification.
	errstest.Is(t, w.svc.ScreenRegistration(w.ctx, "IVANOV ivan", dob), errs.Forbidden, protection.ReasonRegisterExcluded)
	// Look-alikes: Cyrillic letters, surname last, a hyphen, no space.
	for _, alike := range []string{"Ivаnov Ivan", "Ivan Ivanov", "Ivanov-Ivan", "IvanIvanov", "Іvanov Ivan"} {
		errstest.Is(t, w.svc.ScreenRegistration(w.ctx, alike, dob), errs.Forbidden, protection.ReasonRegisterExcluded)
	}
	ok(t, w.svc.ScreenRegistration(w.ctx, "Ivanova Ivanna", dob))
	errstest.Is(t, w.svc.ScreenDocument(w.ctx, docHash, "Someone Else", dob), errs.Forbidden, protection.ReasonRegisterExcluded)
	// Removal is audited and lifts the refusal; removing twice is a conflict.
	_, err = w.svc.RemoveRegisterEntry(w.ctx, admin, docEntry.ID, "entered in error")
	ok(t, err)
	_, err = w.svc.RemoveRegisterEntry(w.ctx, admin, docEntry.ID, "again")
	errstest.Is(t, err, errs.Conflict, protection.ReasonAlreadyRemoved)
	if _, err = w.svc.RemoveRegisterEntry(w.ctx, admin, 999_999, "none"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("removing an unknown entry: %v, want NOT_FOUND", err)
	}
	ok(t, w.ante(byDoc, money.Tenge(1)))
	active, _, err := w.svc.Register(w.ctx, admin, false, account.Page{})
	ok(t, err)
	if len(active) != 1 || active[0].ID != added[0].ID || active[0].NameKey != protection.NameKey("Ivanov Ivan") || active[0].Note != "court order" {
		t.Fatalf("active register = %+v", active)
	}
	all, _, err := w.svc.Register(w.ctx, admin, true, account.Page{})
	ok(t, err)
	if len(all) != 2 || all[0].ID != docEntry.ID || all[0].RemovedAt.IsZero() || all[0].RemovedBy != admin {
		t.Fatalf("whole register = %+v", all)
	}
	audit, _, err := w.Users.ListAudit(w.ctx, account.AuditFilter{}, account.Page{})
	ok(t, err)
	var adds, removes int
	for _, a := range audit {
		switch a.Action {
		case protection.ActionRegisterAdded:
			adds++
		case protection.ActionRegisterRemoved:
			removes++
		}
		if a.ActorID != admin {
			t.Fatalf("audit entry %+v not by the admin", a)
		}
	}
	if adds != 2 || removes != 1 {
		t.Fatalf("audit has %d additions and %d removals, want 2 and 1: %+v", adds, removes, audit)
	}
}

func testRollback(t *testing.T, w *world) {
	id := w.player(t, "Olzhas", dob)
	ok(t, w.deposit(id, money.Tenge(1000)))
	w.setLimit(t, id, protection.StakeLimit, protection.Day, money.Tenge(100))
	// A unit of work whose second stake is refused: the first is undone too
	// when the work fails, and its counters with it.
	err := w.InTx(w.ctx, func(ctx context.Context, tx ledger.Poster) error {
		if _, err := tx.Post(ctx, ledger.Move(w.key("bet"), ledger.BetStake, "bet", ledger.UserWallet(ids.UserID(id)), ledger.EscrowOf("d:1:W"), money.Tenge(70))); err != nil {
			return err
		}
		_, err := tx.Post(ctx, ledger.Move(w.key("bet"), ledger.BetStake, "bet", ledger.UserWallet(ids.UserID(id)), ledger.EscrowOf("d:1:P"), money.Tenge(70)))
		return err
	})
	errstest.Is(t, err, errs.Conflict, "STAKE_LIMIT")
	if c := w.counters(t, id)[protection.Day]; c.Stakes != 0 {
		t.Fatalf("counters kept a rolled-back stake: %+v", c)
	}
	if b := w.balance(t, id); b != money.Tenge(1000) {
		t.Fatalf("balance = %s after a rolled-back unit of work", b)
	}
	// A refused post inside a unit of work that goes on leaves the rest.
	err = w.InTx(w.ctx, func(ctx context.Context, tx ledger.Poster) error {
		if _, err := tx.Post(ctx, ledger.Move(w.key("bet"), ledger.BetStake, "bet", ledger.UserWallet(ids.UserID(id)), ledger.EscrowOf("d:1:W"), money.Tenge(70))); err != nil {
			return err
		}
		_, err := tx.Post(ctx, ledger.Move(w.key("bet"), ledger.BetStake, "bet", ledger.UserWallet(ids.UserID(id)), ledger.EscrowOf("d:1:P"), money.Tenge(70)))
		if errs.ReasonOf(err) != "STAKE_LIMIT" {
			return fmt.Errorf("second stake: %v, want STAKE_LIMIT", err)
		}
		return nil
	})
	ok(t, err)
	if c := w.counters(t, id)[protection.Day]; c.Stakes != money.Tenge(70) {
		t.Fatalf("counters = %+v, want stakes 70.00", c)
	}
	// A batch of stakes (the tote's bet intake, ledger.PostEach) is checked
	// transfer by transfer, exactly like single posts.
	err = w.InTx(w.ctx, func(ctx context.Context, tx ledger.Poster) error {
		var ts []ledger.Transfer
		for range 3 {
			ts = append(ts, ledger.Move(w.key("bet"), ledger.BetStake, "bet", ledger.UserWallet(ids.UserID(id)), ledger.EscrowOf("d:2:W"), money.Tenge(15)))
		}
		_, errList, err := ledger.PostEach(ctx, tx, ts)
		if err != nil {
			return err
		}
		if errList[0] != nil || errList[1] != nil || errs.ReasonOf(errList[2]) != "STAKE_LIMIT" {
			return fmt.Errorf("batch results %v, want ok, ok, STAKE_LIMIT", errList)
		}
		return nil
	})
	ok(t, err)
	if c := w.counters(t, id)[protection.Day]; c.Stakes != money.Tenge(100) {
		t.Fatalf("counters after the batch = %+v, want stakes 100.00", c)
	}
}

func testConcurrentStakes(t *testing.T, w *world, n int) {
	id := w.player(t, "Saule", dob)
	ok(t, w.deposit(id, money.Tenge(int64(n)*10)))
	limit := int64(n) / 4 * 10
	w.setLimit(t, id, protection.StakeLimit, protection.Day, money.Tenge(limit))
	var wg sync.WaitGroup
	var won, lost atomic.Int64
	for i := range n {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				err = w.bet(id, money.Tenge(10))
			} else {
				err = w.ante(id, money.Tenge(10))
			}
			switch errs.ReasonOf(err) {
			case "":
				if err == nil {
					won.Add(1)
					return
				}
			case "STAKE_LIMIT":
				lost.Add(1)
				return
			}
			t.Errorf("stake: %v", err)
		})
	}
	wg.Wait()
	if won.Load() != limit/10 || lost.Load() != int64(n)-limit/10 {
		t.Fatalf("%d stakes went through and %d were refused; want exactly %d through", won.Load(), lost.Load(), limit/10)
	}
	if c := w.counters(t, id)[protection.Day]; c.Stakes != money.Tenge(limit) {
		t.Fatalf("counter = %+v, want stakes %d", c, limit)
	}
	if b := w.balance(t, id); b != money.Tenge(int64(n)*10-limit) {
		t.Fatalf("balance = %s", b)
	}
}

// testRacingLimitChange races stakes against a player lowering their limit:
// whatever the interleaving, the stakes never exceed the old limit, stakes
// begun after the lowering returned obey the new one, and the wallet and
// the counter agree.
func testRacingLimitChange(t *testing.T, w *world, n int) {
	id := w.player(t, "Timur", dob)
	ok(t, w.deposit(id, money.Tenge(int64(n)*20)))
	oldLimit, newLimit := money.Tenge(int64(n)*10/2), money.Tenge(int64(n)*10/8)
	w.setLimit(t, id, protection.StakeLimit, protection.Day, oldLimit)
	var wg sync.WaitGroup
	start := make(chan struct{})
	lowered := make(chan struct{})
	var afterLowering atomic.Int64 // stakes begun and accepted after the lowering returned
	for i := range n {
		wg.Go(func() {
			<-start
			began := false
			select {
			case <-lowered:
				began = true
			default:
			}
			err := w.bet(id, money.Tenge(10))
			if err != nil && errs.ReasonOf(err) != "STAKE_LIMIT" {
				t.Errorf("stake %d: %v", i, err)
			}
			if err == nil && began {
				afterLowering.Add(1)
			}
		})
	}
	wg.Go(func() {
		<-start
		w.setLimit(t, id, protection.StakeLimit, protection.Day, newLimit)
		close(lowered)
	})
	close(start)
	wg.Wait()
	c := w.counters(t, id)[protection.Day]
	if c.Stakes > oldLimit {
		t.Fatalf("stakes %s exceed the old limit %s", c.Stakes, oldLimit)
	}
	// Each stake begun after the lowering returned read the new limit, and
	// its guarded update left the counter at or below it: the counter only
	// grows, so at most newLimit/10 of them can have gone through.
	if money.Tenge(10)*money.Amount(afterLowering.Load()) > newLimit {
		t.Fatalf("%d stakes begun after the lowering went through; the new limit %s allows at most %d", afterLowering.Load(), newLimit, newLimit/money.Tenge(10))
	}
	// From here on the new limit holds.
	err := w.bet(id, money.Tenge(10))
	if c.Stakes+money.Tenge(10) > newLimit {
		errstest.Is(t, err, errs.Conflict, "STAKE_LIMIT")
	} else {
		ok(t, err)
	}
	if b := w.balance(t, id); b != money.Tenge(int64(n)*20)-w.counters(t, id)[protection.Day].Stakes {
		t.Fatalf("balance %s does not match the stakes counted", b)
	}
}

func testRealityChecks(t *testing.T, w *world) {
	id := w.player(t, "Yerlan", dob)
	ok(t, w.deposit(id, money.Tenge(1000)))
	w.setLimit(t, id, protection.StakeLimit, protection.Day, money.Tenge(500))
	const every = 15 * time.Minute
	due := func(want int) []protection.Reminder {
		t.Helper()
		rs, err := w.svc.DueRealityChecks(w.ctx, every)
		ok(t, err)
		if len(rs) != want {
			t.Fatalf("%d reality checks due, want %d: %+v", len(rs), want, rs)
		}
		return rs
	}
	due(0)
	start := w.clock.Now()
	ok(t, w.bet(id, money.Tenge(100)))
	w.clock.Advance(10 * time.Minute)
	ok(t, w.payout(id, money.Tenge(30)))
	errstest.Is(t, w.ante(id, money.Tenge(450)), errs.Conflict, "STAKE_LIMIT") // refused: not in the session
	ok(t, w.ante(id, money.Tenge(50)))
	w.clock.Advance(4 * time.Minute)
	due(0)
	w.clock.Advance(time.Minute)
	r := due(1)[0]
	if r.UserID != id || !r.StartedAt.Equal(start) || r.Elapsed != every || r.Stakes != money.Tenge(150) || r.Returns != money.Tenge(30) || r.Net() != -money.Tenge(120) {
		t.Fatalf("reminder = %+v", r)
	}
	due(0) // claimed once, not twice
	ok(t, w.bet(id, money.Tenge(10)))
	w.clock.Advance(every)
	if r := due(1)[0]; r.Elapsed != 2*every || r.Stakes != money.Tenge(160) {
		t.Fatalf("second reminder = %+v", r)
	}
	// Half an hour without a stake ends the session; the next starts afresh.
	w.clock.Advance(protection.SessionIdle + time.Minute)
	due(0)
	ok(t, w.bet(id, money.Tenge(5)))
	restart := w.clock.Now()
	w.clock.Advance(every)
	if r := due(1)[0]; !r.StartedAt.Equal(restart) || r.Stakes != money.Tenge(5) || r.Returns != 0 {
		t.Fatalf("new session's reminder = %+v", r)
	}
}
