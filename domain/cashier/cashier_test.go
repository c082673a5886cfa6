package cashier_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/account/accounttest"
	"github.com/pokertote/pokertote/domain/cashier"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/money"
)

// tb is what the helpers need of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
}

// published records what the desk tells the players' sessions.
type published struct {
	mu     sync.Mutex
	topics []string
	events []event.UserEvent
}

func (p *published) Publish(_ context.Context, topic string, data []byte) error {
	e, err := event.DecodeUserEvent(data)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.topics, p.events = append(p.topics, topic), append(p.events, e)
	return nil
}

type desk struct {
	svc    *cashier.Service
	users  *accounttest.MemStore
	ledger *ledgertest.MemStore
	pub    *published
	player account.User
	admin  account.User
}

func newDesk(t tb) *desk {
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	d := &desk{users: accounttest.NewMemStore(now), ledger: ledgertest.NewMemStore(now), pub: &published{}}
	d.svc = cashier.New(cashier.Config{Users: d.users, Ledger: d.ledger, Publisher: d.pub, Now: now})
	ctx := context.Background()
	var err error
	if d.admin, err = d.users.Create(ctx, account.User{Email: "admin@example.kz", Name: "Admin", Role: account.Admin}); err != nil {
		t.Fatal(err)
	}
	if d.player, err = d.users.Create(ctx, account.User{Email: "player@example.kz", Name: "Player", Role: account.Player}); err != nil {
		t.Fatal(err)
	}
	return d
}

func (d *desk) req(amount money.Amount, key string) cashier.Request {
	return cashier.Request{AdminID: ids.UserID(d.admin.ID), UserID: ids.UserID(d.player.ID), Amount: amount, IdempotencyKey: key}
}

func (d *desk) audit(t tb) []account.AuditEntry {
	t.Helper()
	es, _, err := d.users.ListAudit(context.Background(), account.AuditFilter{}, account.Page{})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func TestDepositThenReplay(t *testing.T) {
	d := newDesk(t)
	ctx := context.Background()
	r, err := d.svc.Deposit(ctx, d.req(500*money.KZT, "desk-1"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Replayed || r.Balance != 500*money.KZT || r.Amount != 500*money.KZT || r.User.ID != d.player.ID || r.TransferID == 0 {
		t.Fatalf("receipt %+v", r)
	}
	audit := d.audit(t)
	if len(audit) != 1 || audit[0].Action != "DEPOSIT" || audit[0].ActorID != d.admin.ID || audit[0].SubjectID != d.player.ID ||
		!strings.HasPrefix(audit[0].Detail, "Deposit of 500.00 KZT at the desk") || !strings.HasSuffix(audit[0].Detail, ": cashier") {
		t.Fatalf("audit %+v", audit)
	}
	if len(d.pub.events) != 1 || d.pub.topics[0] != event.UserTopic(ids.UserID(d.player.ID)) ||
		d.pub.events[0].Type != event.BalanceChanged || d.pub.events[0].Balance != int64(500*money.KZT) {
		t.Fatalf("published %v %+v", d.pub.topics, d.pub.events)
	}

	again, err := d.svc.Deposit(ctx, d.req(500*money.KZT, "desk-1"))
	if err != nil {
		t.Fatal(err)
	}
	if !again.Replayed || again.TransferID != r.TransferID || again.Balance != 500*money.KZT || !again.At.Equal(r.At) {
		t.Fatalf("replay %+v, first %+v", again, r)
	}
	if len(d.audit(t)) != 1 || len(d.pub.events) != 1 {
		t.Fatal("a replay audited or published again")
	}
	if bal, err := d.svc.Balance(ctx, ids.UserID(d.player.ID)); err != nil || bal != 500*money.KZT {
		t.Fatalf("balance %s, %v", bal, err)
	}
	if err := d.ledger.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestWithdrawNeverOverdraws(t *testing.T) {
	d := newDesk(t)
	ctx := context.Background()
	if _, err := d.svc.Deposit(ctx, d.req(100*money.KZT, "in")); err != nil {
		t.Fatal(err)
	}
	_, err := d.svc.Withdraw(ctx, d.req(100*money.KZT+1, "out-1"))
	if !errs.Is(err, errs.Conflict) || errs.ReasonOf(err) != "INSUFFICIENT_FUNDS" {
		t.Fatalf("overdraw: %v", err)
	}
	if len(d.audit(t)) != 1 || len(d.pub.events) != 1 {
		t.Fatal("a refused withdrawal was audited or published")
	}
	memo := "  paid in cash  "
	req := d.req(40*money.KZT, "out-2")
	req.Memo = &memo
	r, err := d.svc.Withdraw(ctx, req)
	if err != nil || r.Balance != 60*money.KZT {
		t.Fatalf("withdraw: %+v, %v", r, err)
	}
	h, err := d.svc.History(ctx, ids.UserID(d.player.ID), ledger.Page{})
	if err != nil || len(h.Items) != 2 {
		t.Fatalf("history %+v, %v", h, err)
	}
	if got := h.Items[0]; got.Kind != ledger.Withdrawal || got.Memo != "paid in cash" || got.Amount != -40*money.KZT || got.BalanceAfter != 60*money.KZT {
		t.Fatalf("newest entry %+v", got)
	}
	if got := h.Items[1]; got.Kind != ledger.Deposit || got.Memo != cashier.DefaultMemo {
		t.Fatalf("oldest entry %+v", got)
	}
	if a := d.audit(t); a[0].Action != "WITHDRAWAL" || !strings.HasPrefix(a[0].Detail, "Withdrawal of 40.00 KZT") || !strings.HasSuffix(a[0].Detail, ": paid in cash") {
		t.Fatalf("audit %+v", a[0])
	}
}

func TestRefusedRequestsMoveNothing(t *testing.T) {
	d := newDesk(t)
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		req    cashier.Request
		code   errs.Code
		reason string
	}{
		{"zero", d.req(0, "k"), errs.Invalid, "INVALID_AMOUNT"},
		{"negative", d.req(-1, "k"), errs.Invalid, "INVALID_AMOUNT"},
		{"no key", d.req(1, ""), errs.Invalid, "INVALID_IDEMPOTENCY_KEY"},
		{"blank key", d.req(1, "   "), errs.Invalid, "INVALID_IDEMPOTENCY_KEY"},
		{"long key", d.req(1, strings.Repeat("k", 101)), errs.Invalid, "INVALID_IDEMPOTENCY_KEY"},
		{"non-ASCII key", d.req(1, "ключ"), errs.Invalid, "INVALID_IDEMPOTENCY_KEY"},
		{"no such user", cashier.Request{AdminID: ids.UserID(d.admin.ID), UserID: 999, Amount: 1, IdempotencyKey: "k"}, errs.NotFound, ""},
	} {
		_, err := d.svc.Deposit(ctx, c.req)
		if !errs.Is(err, c.code) || errs.ReasonOf(err) != c.reason {
			t.Errorf("%s: %v, want %s / %q", c.name, err, c.code, c.reason)
		}
	}
	if bal, _ := d.svc.Balance(ctx, ids.UserID(d.player.ID)); bal != 0 || len(d.audit(t)) != 0 || len(d.pub.events) != 0 {
		t.Fatalf("refused requests left balance %s, %d audit lines, %d events", bal, len(d.audit(t)), len(d.pub.events))
	}
}

// TestDeskBalanceProperty: any run of deposits and withdrawals, each maybe
// retried with its key, leaves the wallet at the sum of the distinct
// requests that succeeded, never below zero, one audit line and one event
// each, and the books reconciled.
func TestDeskBalanceProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		d := newDesk(rt)
		ctx := context.Background()
		var want money.Amount
		moved := 0
		n := rapid.IntRange(1, 30).Draw(rt, "n")
		for i := 0; i < n; i++ {
			amount := money.Amount(rapid.Int64Range(1, 1000).Draw(rt, "amount")) * money.KZT
			out := rapid.Bool().Draw(rt, "withdraw")
			key := "k" + strings.Repeat("x", i)
			move := d.svc.Deposit
			if out {
				move = d.svc.Withdraw
			}
			tries := rapid.IntRange(1, 3).Draw(rt, "tries")
			var first cashier.Receipt
			for try := 0; try < tries; try++ {
				r, err := move(ctx, d.req(amount, key))
				if out && amount > want {
					if errs.ReasonOf(err) != "INSUFFICIENT_FUNDS" {
						rt.Fatalf("overdraw of %s from %s: %v", amount, want, err)
					}
					continue
				}
				if err != nil {
					rt.Fatal(err)
				}
				if try == 0 {
					first = r
					continue
				}
				if !r.Replayed || r.TransferID != first.TransferID {
					rt.Fatalf("retry %d of %s moved again: %+v", try, key, r)
				}
			}
			if out && amount > want {
				continue
			}
			if out {
				want -= amount
			} else {
				want += amount
			}
			moved++
			if first.Balance != want {
				rt.Fatalf("receipt balance %s, want %s", first.Balance, want)
			}
		}
		if bal, err := d.svc.Balance(ctx, ids.UserID(d.player.ID)); err != nil || bal != want || bal < 0 {
			rt.Fatalf("balance %s (%v), want %s", bal, err, want)
		}
		if len(d.audit(rt)) != moved || len(d.pub.events) != moved {
			rt.Fatalf("%d audit lines, %d events for %d transfers", len(d.audit(rt)), len(d.pub.events), moved)
		}
		if err := d.ledger.Reconcile(ctx); err != nil {
			rt.Fatal(err)
		}
	})
}
