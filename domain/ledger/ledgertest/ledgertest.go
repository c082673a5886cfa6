// Package ledgertest is the conformance suite every ledger.Store must pass:
// the in-memory store runs it in its unit tests, and the Postgres and SQLite
// adapters run the very same tests against a real database.
//
//	func TestConformance(t *testing.T) {
//		ledgertest.Run(t, func(t *testing.T) ledger.Store { return newStoreOnFreshSchema(t) })
//	}
package ledgertest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// How many goroutines race in the concurrency tests: 1-KZT debits against
// a wallet holding a tenth of that many tenge (exactly a tenth must
// succeed), posts sharing one idempotency key, and wallet-to-wallet moves
// both ways in the deadlock test.
const (
	concurrentDebits = 1000
	sameKeyPosts     = 50
	concurrentMoves  = 200
)

// Run runs the whole suite. newStore must return an empty store, private to
// the calling (sub)test; it is called once per subtest.
func Run(t *testing.T, newStore func(t *testing.T) ledger.Store) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s ledger.Store)
	}{
		{"DepositAndBalance", testDepositAndBalance},
		{"UnknownAccountIsZero", testUnknownAccountIsZero},
		{"InvalidTransferRejected", testInvalidTransfer},
		{"InsufficientFunds", testInsufficientFunds},
		{"NegativeBalancesByKind", testNegativeByKind},
		{"IdempotentReplay", testIdempotentReplay},
		{"IdempotencyKeyReused", testKeyReused},
		{"History", testHistory},
		{"ConcurrentDebits", func(t *testing.T, s ledger.Store) { testConcurrentDebits(t, s, concurrentDebits) }},
		{"ConcurrentSameKey", func(t *testing.T, s ledger.Store) { testConcurrentSameKey(t, s, sameKeyPosts) }},
		{"ConcurrentMovesBothWays", func(t *testing.T, s ledger.Store) { testConcurrentMoves(t, s, concurrentMoves) }},
		{"PropertyRandomTransfers", testProperty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each test has its own store
			tc.run(t, newStore(t))
		})
	}
}

func deposit(key string, to ledger.AccountRef, amount money.Amount) ledger.Transfer {
	return ledger.Move(key, ledger.Deposit, "cashier deposit", ledger.CashAccount, to, amount)
}

func withdraw(key string, from ledger.AccountRef, amount money.Amount) ledger.Transfer {
	return ledger.Move(key, ledger.Withdrawal, "cashier withdrawal", from, ledger.CashAccount, amount)
}

// MustPost posts tr through s and fails the test on an error; the stores'
// own tests share it with the suite.
func MustPost(t testing.TB, s ledger.Poster, tr ledger.Transfer) ledger.Posted {
	t.Helper()
	p, err := s.Post(context.Background(), tr)
	if err != nil {
		t.Fatalf("Post(%s): %v", tr.IdempotencyKey, err)
	}
	return p
}

// WantBalance fails the test unless account a of s holds want.
func WantBalance(t testing.TB, s ledger.Store, a ledger.AccountRef, want money.Amount) {
	t.Helper()
	got, err := s.Balance(context.Background(), a)
	if err != nil {
		t.Fatalf("Balance(%s): %v", a, err)
	}
	if got != want {
		t.Fatalf("Balance(%s) = %s, want %s", a, got, want)
	}
}

// Reconcile fails the test when s.Reconcile finds the books broken.
func Reconcile(t testing.TB, s ledger.Store) {
	t.Helper()
	if err := s.Reconcile(context.Background()); err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
}

func testDepositAndBalance(t *testing.T, s ledger.Store) {
	w := ledger.UserWallet(42)
	p := MustPost(t, s, deposit("dep-1", w, money.Tenge(100)))
	if p.ID <= 0 || p.Replayed || p.Kind != ledger.Deposit || p.IdempotencyKey != "dep-1" || p.Memo != "cashier deposit" {
		t.Fatalf("Posted = %+v", p)
	}
	if p.PostedAt.IsZero() {
		t.Fatalf("PostedAt is zero")
	}
	if len(p.Entries) != 2 {
		t.Fatalf("got %d entries, want 2", len(p.Entries))
	}
	want := []ledger.PostedEntry{
		{Account: ledger.CashAccount, Amount: -money.Tenge(100), BalanceAfter: -money.Tenge(100)},
		{Account: w, Amount: money.Tenge(100), BalanceAfter: money.Tenge(100)},
	}
	for i, e := range p.Entries {
		if e.ID <= 0 || e.Account != want[i].Account || e.Amount != want[i].Amount || e.BalanceAfter != want[i].BalanceAfter {
			t.Fatalf("entry %d = %+v, want %+v", i, e, want[i])
		}
	}
	if p.Entries[1].ID <= p.Entries[0].ID {
		t.Fatalf("entry ids not increasing: %d, %d", p.Entries[0].ID, p.Entries[1].ID)
	}
	p2 := MustPost(t, s, deposit("dep-2", w, money.Tenge(5)))
	if p2.ID <= p.ID {
		t.Fatalf("transfer ids not increasing: %d then %d", p.ID, p2.ID)
	}
	WantBalance(t, s, w, money.Tenge(105))
	WantBalance(t, s, ledger.CashAccount, -money.Tenge(105))
	Reconcile(t, s)
}

func testUnknownAccountIsZero(t *testing.T, s ledger.Store) {
	WantBalance(t, s, ledger.UserWallet(7), 0)
	WantBalance(t, s, ledger.JackpotAccount, 0)
	h, err := s.History(context.Background(), ledger.UserWallet(7), ledger.Page{})
	if err != nil || len(h.Items) != 0 || h.Next != "" {
		t.Fatalf("History of an unknown account = %+v, %v", h, err)
	}
	if _, err := s.Balance(context.Background(), ledger.AccountRef{Kind: "BOGUS"}); !errs.Is(err, errs.Invalid) {
		t.Fatalf("Balance of a bogus account: %v, want Invalid", err)
	}
	Reconcile(t, s)
}

func testInvalidTransfer(t *testing.T, s ledger.Store) {
	w := ledger.UserWallet(1)
	bad := []ledger.Transfer{
		{},
		{IdempotencyKey: "k", Kind: ledger.Deposit, Entries: []ledger.Entry{{Account: w, Amount: 1}}},
		{IdempotencyKey: "k", Kind: ledger.Deposit, Entries: []ledger.Entry{{Account: ledger.CashAccount, Amount: -1}, {Account: w, Amount: 2}}},
		{IdempotencyKey: "k", Kind: ledger.Deposit, Entries: []ledger.Entry{{Account: ledger.CashAccount, Amount: 0}, {Account: w, Amount: 0}}},
		deposit("", w, 1),
		deposit("k", w, 0),
		deposit("k", w, ledger.MaxEntryAmount+1),
		ledger.Move("k", "BOGUS", "", ledger.CashAccount, w, 1),
		ledger.Move("k", ledger.Deposit, "", w, w, 1),
		deposit("k", ledger.AccountRef{Kind: ledger.Wallet}, 1),
	}
	for i, tr := range bad {
		if _, err := s.Post(context.Background(), tr); !errs.Is(err, errs.Invalid) {
			t.Errorf("bad transfer %d: Post error = %v, want Invalid", i, err)
		}
	}
	WantBalance(t, s, w, 0)
	WantBalance(t, s, ledger.CashAccount, 0)
	Reconcile(t, s)
}

func testInsufficientFunds(t *testing.T, s ledger.Store) {
	w := ledger.UserWallet(1)
	MustPost(t, s, deposit("dep", w, money.Tenge(10)))
	_, err := s.Post(context.Background(), withdraw("wd", w, money.Tenge(10)+1))
	errstest.Is(t, err, errs.Conflict, ledger.ReasonInsufficientFunds)
	// It says how much there is and how much was asked.
	if d := errs.DetailsOf(err); d[ledger.DetailBalance] != "10.00" || d[ledger.DetailRequired] != "10.01" {
		t.Errorf("INSUFFICIENT_FUNDS details %v, want balance 10.00 and required 10.01", d)
	}
	WantBalance(t, s, w, money.Tenge(10))
	WantBalance(t, s, ledger.CashAccount, -money.Tenge(10))

	// A failed post records nothing: the same key succeeds once funds arrive.
	MustPost(t, s, deposit("dep-more", w, 1))
	p := MustPost(t, s, withdraw("wd", w, money.Tenge(10)+1))
	if p.Replayed {
		t.Fatalf("first successful post of a key reported Replayed")
	}
	WantBalance(t, s, w, 0)

	// Exactly to zero is fine; one tiyn below is not.
	MustPost(t, s, deposit("dep-3", w, 1))
	MustPost(t, s, withdraw("wd-3", w, 1))
	_, err = s.Post(context.Background(), withdraw("wd-4", w, 1))
	errstest.Is(t, err, errs.Conflict, ledger.ReasonInsufficientFunds)
	WantBalance(t, s, w, 0)
	Reconcile(t, s)
}

func testNegativeByKind(t *testing.T, s ledger.Store) {
	w := ledger.UserWallet(9)
	MustPost(t, s, deposit("seed", w, money.Tenge(1000)))
	tests := []struct {
		account  ledger.AccountRef
		negative bool
	}{
		{ledger.UserWallet(10), false},
		{ledger.EscrowOf("d1:1:WIN"), false},
		{ledger.JackpotAccount, false},
		{ledger.OrganiserAccount, true},
		{ledger.HouseAccount, true},
	}
	for i, tc := range tests {
		t.Run(string(tc.account.Kind), func(t *testing.T) {
			_, err := s.Post(context.Background(), ledger.Move(fmt.Sprintf("neg-%d", i), ledger.Payout, "", tc.account, w, money.Tenge(1)))
			if tc.negative {
				if err != nil {
					t.Fatalf("%s may go negative, Post: %v", tc.account, err)
				}
				WantBalance(t, s, tc.account, -money.Tenge(1))
				return
			}
			errstest.Is(t, err, errs.Conflict, ledger.ReasonInsufficientFunds)
			WantBalance(t, s, tc.account, 0)
		})
	}
	Reconcile(t, s)
}

func testIdempotentReplay(t *testing.T, s ledger.Store) {
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	MustPost(t, s, deposit("dep", w1, money.Tenge(100)))
	tr := ledger.Transfer{
		IdempotencyKey: "split",
		Kind:           ledger.BetStake,
		Memo:           "two legs",
		Entries: []ledger.Entry{
			{Account: w1, Amount: -money.Tenge(30)},
			{Account: w2, Amount: money.Tenge(20)},
			{Account: ledger.OrganiserAccount, Amount: money.Tenge(10)},
		},
	}
	first := MustPost(t, s, tr)
	again := MustPost(t, s, tr)
	// The same request with entries in another order is the same request.
	tr.Entries[0], tr.Entries[2] = tr.Entries[2], tr.Entries[0]
	reordered := MustPost(t, s, tr)
	for _, p := range []ledger.Posted{again, reordered} {
		if !p.Replayed || p.ID != first.ID || len(p.Entries) != len(first.Entries) {
			t.Fatalf("replay = %+v, want the first post %+v with Replayed", p, first)
		}
		for i := range p.Entries {
			if p.Entries[i] != first.Entries[i] {
				t.Fatalf("replayed entry %d = %+v, want %+v", i, p.Entries[i], first.Entries[i])
			}
		}
	}
	WantBalance(t, s, w1, money.Tenge(70))
	WantBalance(t, s, w2, money.Tenge(20))
	WantBalance(t, s, ledger.OrganiserAccount, money.Tenge(10))
	Reconcile(t, s)
}

func testKeyReused(t *testing.T, s ledger.Store) {
	w := ledger.UserWallet(1)
	MustPost(t, s, deposit("dep", w, money.Tenge(100)))
	variants := []ledger.Transfer{
		deposit("dep", w, money.Tenge(101)),
		deposit("dep", ledger.UserWallet(2), money.Tenge(100)),
		ledger.Move("dep", ledger.Refund, "cashier deposit", ledger.CashAccount, w, money.Tenge(100)),
		ledger.Move("dep", ledger.Deposit, "another memo", ledger.CashAccount, w, money.Tenge(100)),
	}
	for i, tr := range variants {
		_, err := s.Post(context.Background(), tr)
		if errs.CodeOf(err) != errs.Conflict || errs.ReasonOf(err) != ledger.ReasonKeyReused {
			t.Errorf("variant %d: error = %v, want Conflict %s", i, err, ledger.ReasonKeyReused)
		}
	}
	WantBalance(t, s, w, money.Tenge(100))
	WantBalance(t, s, ledger.UserWallet(2), 0)
	Reconcile(t, s)
}

func testHistory(t *testing.T, s ledger.Store) {
	ctx := context.Background()
	w := ledger.UserWallet(5)
	var want []ledger.HistoryItem // oldest first
	var bal money.Amount
	for i := 1; i <= 11; i++ {
		var tr ledger.Transfer
		if i%3 == 0 {
			tr = withdraw(fmt.Sprintf("h-%d", i), w, money.Amount(i))
		} else {
			tr = deposit(fmt.Sprintf("h-%d", i), w, money.Amount(i*10))
		}
		p := MustPost(t, s, tr)
		e := p.Entries[0]
		if e.Account != w {
			e = p.Entries[1]
		}
		bal += e.Amount
		want = append(want, ledger.HistoryItem{EntryID: e.ID, TransferID: p.ID, Kind: tr.Kind, Memo: tr.Memo, Amount: e.Amount, BalanceAfter: bal})
		// Another account's traffic must not show up.
		MustPost(t, s, deposit(fmt.Sprintf("other-%d", i), ledger.UserWallet(6), 1))
	}
	var got []ledger.HistoryItem
	page := ledger.Page{Limit: 4}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatalf("paging does not end")
		}
		h, err := s.History(ctx, w, page)
		if err != nil {
			t.Fatalf("History: %v", err)
		}
		if len(h.Items) > 4 {
			t.Fatalf("page of %d items, limit 4", len(h.Items))
		}
		got = append(got, h.Items...)
		if h.Next == "" {
			break
		}
		page.After = h.Next
	}
	if len(got) != len(want) {
		t.Fatalf("history has %d items, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[len(want)-1-i]
		if g.EntryID != w.EntryID || g.TransferID != w.TransferID || g.Kind != w.Kind || g.Memo != w.Memo ||
			g.Amount != w.Amount || g.BalanceAfter != w.BalanceAfter || g.PostedAt.IsZero() {
			t.Fatalf("history item %d = %+v, want %+v", i, g, w)
		}
	}
	// Backward from an entry: each page is the entries just newer than its
	// cursor, newest first, and its Next reads on towards the newest.
	var back []ledger.HistoryItem
	page = ledger.Page{Limit: 4, Backward: true, After: ledger.EncodeCursor(want[1].EntryID)}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatalf("backward paging does not end")
		}
		h, err := s.History(ctx, w, page)
		if err != nil {
			t.Fatalf("History backward: %v", err)
		}
		if len(h.Items) > 4 || len(h.Items) == 0 {
			t.Fatalf("backward page of %d items, limit 4", len(h.Items))
		}
		back = append(h.Items, back...)
		if h.Next == "" {
			break
		}
		page.After = h.Next
	}
	// want[1] is the cursor: the pages hold want[2:], newest first.
	if len(back) != len(want)-2 {
		t.Fatalf("backward history has %d items, want %d", len(back), len(want)-2)
	}
	for i, g := range back {
		if w := want[len(want)-1-i]; g.EntryID != w.EntryID || g.BalanceAfter != w.BalanceAfter {
			t.Fatalf("backward history item %d = %+v, want %+v", i, g, w)
		}
	}
	if _, err := s.History(ctx, w, ledger.Page{After: "not a cursor"}); !errs.Is(err, errs.Invalid) {
		t.Fatalf("History with a bad cursor: %v, want Invalid", err)
	}
	Reconcile(t, s)
}

func testConcurrentDebits(t *testing.T, s ledger.Store, n int) {
	w := ledger.UserWallet(77)
	funds := int64(n / 10)
	MustPost(t, s, deposit("fund", w, money.Tenge(funds)))
	var ok, short atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			_, err := s.Post(context.Background(), withdraw(fmt.Sprintf("debit-%d", i), w, money.Tenge(1)))
			switch {
			case err == nil:
				ok.Add(1)
			case errs.ReasonOf(err) == ledger.ReasonInsufficientFunds:
				short.Add(1)
			default:
				errc <- err
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Errorf("unexpected error: %v", err)
	}
	if ok.Load() != funds || short.Load() != int64(n)-funds {
		t.Fatalf("%d debits succeeded and %d were short, want %d and %d", ok.Load(), short.Load(), funds, int64(n)-funds)
	}
	WantBalance(t, s, w, 0)
	WantBalance(t, s, ledger.CashAccount, 0)
	Reconcile(t, s)
}

func testConcurrentSameKey(t *testing.T, s ledger.Store, n int) {
	w := ledger.UserWallet(3)
	tr := deposit("same-key", w, money.Tenge(25))
	results := make([]ledger.Posted, n)
	errsSeen := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i], errsSeen[i] = s.Post(context.Background(), tr) })
	}
	wg.Wait()
	fresh := 0
	for i := range n {
		if errsSeen[i] != nil {
			t.Fatalf("post %d: %v", i, errsSeen[i])
		}
		if results[i].ID != results[0].ID {
			t.Fatalf("post %d got transfer %d, post 0 got %d", i, results[i].ID, results[0].ID)
		}
		if !results[i].Replayed {
			fresh++
		}
	}
	if fresh != 1 {
		t.Fatalf("%d posts claim to have moved the money, want exactly 1", fresh)
	}
	WantBalance(t, s, w, money.Tenge(25))
	h, err := s.History(context.Background(), w, ledger.Page{})
	if err != nil || len(h.Items) != 1 {
		t.Fatalf("History = %d items, %v; want exactly one transfer", len(h.Items), err)
	}
	Reconcile(t, s)
}

// testConcurrentMoves moves money back and forth between wallets from many
// goroutines: a store that locks accounts in posting order deadlocks here.
func testConcurrentMoves(t *testing.T, s ledger.Store, n int) {
	wallets := []ledger.AccountRef{ledger.UserWallet(1), ledger.UserWallet(2), ledger.UserWallet(3), ledger.UserWallet(4)}
	for i, w := range wallets {
		MustPost(t, s, deposit(fmt.Sprintf("fund-%d", i), w, money.Tenge(10)))
	}
	var wg sync.WaitGroup
	errc := make(chan error, n)
	for i := range n {
		from, to := wallets[i%len(wallets)], wallets[(i+1+i/len(wallets))%len(wallets)]
		if from == to {
			to = wallets[(i+1)%len(wallets)]
		}
		if i%2 == 1 {
			from, to = to, from
		}
		wg.Go(func() {
			_, err := s.Post(context.Background(), ledger.Move(fmt.Sprintf("mv-%d", i), ledger.Payout, "", from, to, money.Tenge(1)))
			if err != nil && errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
				errc <- err
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Errorf("unexpected error: %v", err)
	}
	var total money.Amount
	for _, w := range wallets {
		b, err := s.Balance(context.Background(), w)
		if err != nil {
			t.Fatal(err)
		}
		if b < 0 {
			t.Fatalf("%s went negative: %s", w, b)
		}
		total += b
	}
	if total != money.Tenge(40) {
		t.Fatalf("wallets hold %s in total, want 40.00", total)
	}
	Reconcile(t, s)
}

// testProperty posts random deposits, moves, stakes, withdrawals that may
// fail and replays, checking every outcome against a model and the books
// after each run.
func testProperty(t *testing.T, s ledger.Store) {
	ctx := context.Background()
	var run atomic.Int64
	rapid.Check(t, func(rt *rapid.T) {
		r := run.Add(1)
		wallets := make([]ledger.AccountRef, 4)
		for i := range wallets {
			wallets[i] = ledger.AccountRef{Kind: ledger.Wallet, Ref: fmt.Sprintf("prop:%d:w%d", r, i)}
		}
		escrow := ledger.EscrowOf(fmt.Sprintf("prop:%d", r))
		model := map[ledger.AccountRef]money.Amount{}
		cash0, err := s.Balance(ctx, ledger.CashAccount)
		if err != nil {
			rt.Fatal(err)
		}
		model[ledger.CashAccount] = cash0
		var posted []ledger.Transfer
		steps := rapid.IntRange(1, 30).Draw(rt, "steps")
		for i := range steps {
			key := fmt.Sprintf("prop:%d:%d", r, i)
			amt := money.Amount(rapid.Int64Range(1, 50_000).Draw(rt, "amount"))
			w := wallets[rapid.IntRange(0, len(wallets)-1).Draw(rt, "wallet")]
			var tr ledger.Transfer
			switch op := rapid.IntRange(0, 4).Draw(rt, "op"); op {
			case 0:
				tr = deposit(key, w, amt)
			case 1:
				tr = withdraw(key, w, amt)
			case 2:
				to := wallets[rapid.IntRange(0, len(wallets)-1).Draw(rt, "to")]
				if to == w {
					continue
				}
				tr = ledger.Move(key, ledger.Payout, "move", w, to, amt)
			case 3:
				tr = ledger.Move(key, ledger.BetStake, "stake", w, escrow, amt)
			case 4:
				if len(posted) == 0 {
					continue
				}
				tr = posted[rapid.IntRange(0, len(posted)-1).Draw(rt, "replay")]
				p, err := s.Post(ctx, tr)
				if err != nil || !p.Replayed {
					rt.Fatalf("replay of %s: %+v, %v", tr.IdempotencyKey, p, err)
				}
				continue
			}
			short := false
			for _, e := range tr.Entries {
				if model[e.Account]+e.Amount < 0 && !e.Account.Kind.MayGoNegative() {
					short = true
				}
			}
			_, err := s.Post(ctx, tr)
			if short {
				if errs.ReasonOf(err) != ledger.ReasonInsufficientFunds {
					rt.Fatalf("post %s should be short of funds, got %v", key, err)
				}
				continue
			}
			if err != nil {
				rt.Fatalf("post %s: %v", key, err)
			}
			for _, e := range tr.Entries {
				model[e.Account] += e.Amount
			}
			posted = append(posted, tr)
		}
		var sum money.Amount
		for a, want := range model {
			got, err := s.Balance(ctx, a)
			if err != nil {
				rt.Fatal(err)
			}
			if got != want {
				rt.Fatalf("Balance(%s) = %s, model says %s", a, got, want)
			}
			if got < 0 && !a.Kind.MayGoNegative() {
				rt.Fatalf("%s is negative: %s", a, got)
			}
			sum += got
		}
		// This run's accounts started at zero except CASH, so what they hold
		// together is still what CASH held: money was only moved.
		if sum != cash0 {
			rt.Fatalf("this run's accounts sum to %s, want %s", sum, cash0)
		}
		if err := s.Reconcile(ctx); err != nil {
			rt.Fatalf("Reconcile: %v", err)
		}
	})
}
