package ledger_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

func TestAccountRefValidate(t *testing.T) {
	tests := []struct {
		name string
		ref  ledger.AccountRef
		ok   bool
	}{
		{"wallet", ledger.UserWallet(42), true},
		{"escrow", ledger.EscrowOf("d7:2:WIN"), true},
		{"cash", ledger.CashAccount, true},
		{"organiser", ledger.OrganiserAccount, true},
		{"jackpot", ledger.JackpotAccount, true},
		{"house", ledger.HouseAccount, true},
		{"unknown kind", ledger.AccountRef{Kind: "BANK"}, false},
		{"wallet without ref", ledger.AccountRef{Kind: ledger.Wallet}, false},
		{"singleton with ref", ledger.AccountRef{Kind: ledger.Cash, Ref: "x"}, false},
		{"ref with space", ledger.AccountRef{Kind: ledger.Wallet, Ref: "user 1"}, false},
		{"ref with non-ASCII", ledger.AccountRef{Kind: ledger.Wallet, Ref: "user:ё"}, false},
		{"ref too long", ledger.AccountRef{Kind: ledger.Wallet, Ref: strings.Repeat("x", ledger.MaxRefLen+1)}, false},
		{"ref at limit", ledger.AccountRef{Kind: ledger.Wallet, Ref: strings.Repeat("x", ledger.MaxRefLen)}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.ref.Validate()
			if tc.ok != (err == nil) {
				t.Fatalf("Validate(%v) = %v, want ok=%v", tc.ref, err, tc.ok)
			}
			if err != nil && !errs.Is(err, errs.Invalid) {
				t.Fatalf("code %s, want Invalid", errs.CodeOf(err))
			}
		})
	}
	if got := ledger.UserWallet(42).String(); got != "WALLET:user:42" {
		t.Fatalf("String = %q", got)
	}
	if got := ledger.CashAccount.String(); got != "CASH" {
		t.Fatalf("String = %q", got)
	}
}

func TestMayGoNegative(t *testing.T) {
	want := map[ledger.AccountKind]bool{
		ledger.Wallet: false, ledger.Escrow: false, ledger.Jackpot: false,
		ledger.Cash: true, ledger.Organiser: true, ledger.House: true,
	}
	for k, neg := range want {
		if k.MayGoNegative() != neg {
			t.Errorf("%s.MayGoNegative() = %v, want %v", k, !neg, neg)
		}
	}
}

func TestTransferValidate(t *testing.T) {
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	ok := ledger.Move("k", ledger.Payout, "memo", w1, w2, 100)
	with := func(f func(*ledger.Transfer)) ledger.Transfer {
		tr := ok
		tr.Entries = append([]ledger.Entry(nil), ok.Entries...)
		f(&tr)
		return tr
	}
	many := func(n int) []ledger.Entry {
		es := make([]ledger.Entry, n)
		for i := range es {
			es[i] = ledger.Entry{Account: ledger.UserWallet(ids.UserID(i)), Amount: 1}
		}
		es[0] = ledger.Entry{Account: ledger.CashAccount, Amount: -money.Amount(n - 1)}
		return es
	}
	tests := []struct {
		name string
		tr   ledger.Transfer
		ok   bool
	}{
		{"valid", ok, true},
		{"three legs", with(func(t *ledger.Transfer) {
			t.Entries = []ledger.Entry{{Account: w1, Amount: -3}, {Account: w2, Amount: 2}, {Account: ledger.OrganiserAccount, Amount: 1}}
		}), true},
		{"max entries", with(func(t *ledger.Transfer) { t.Entries = many(ledger.MaxEntries) }), true},
		{"too many entries", with(func(t *ledger.Transfer) { t.Entries = many(ledger.MaxEntries + 1) }), false},
		{"no key", with(func(t *ledger.Transfer) { t.IdempotencyKey = "" }), false},
		{"long key", with(func(t *ledger.Transfer) { t.IdempotencyKey = strings.Repeat("k", ledger.MaxKeyLen+1) }), false},
		{"control char in key", with(func(t *ledger.Transfer) { t.IdempotencyKey = "a\nb" }), false},
		{"unknown kind", with(func(t *ledger.Transfer) { t.Kind = "GIFT" }), false},
		{"long memo", with(func(t *ledger.Transfer) { t.Memo = strings.Repeat("m", ledger.MaxMemoLen+1) }), false},
		{"invalid utf8 memo", with(func(t *ledger.Transfer) { t.Memo = "\xff" }), false},
		{"no entries", with(func(t *ledger.Transfer) { t.Entries = nil }), false},
		{"one entry", with(func(t *ledger.Transfer) { t.Entries = t.Entries[:1] }), false},
		{"unbalanced", with(func(t *ledger.Transfer) { t.Entries[1].Amount = 101 }), false},
		{"zero entries", with(func(t *ledger.Transfer) { t.Entries[0].Amount, t.Entries[1].Amount = 0, 0 }), false},
		{"same account twice", with(func(t *ledger.Transfer) { t.Entries[1].Account = w1 }), false},
		{"bad account", with(func(t *ledger.Transfer) { t.Entries[1].Account = ledger.AccountRef{Kind: ledger.Wallet} }), false},
		{"amount too big", with(func(t *ledger.Transfer) {
			t.Entries[0].Amount, t.Entries[1].Amount = -ledger.MaxEntryAmount-1, ledger.MaxEntryAmount+1
		}), false},
		{"amount at limit", with(func(t *ledger.Transfer) {
			t.Entries[0].Amount, t.Entries[1].Amount = -ledger.MaxEntryAmount, ledger.MaxEntryAmount
		}), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tr.Validate()
			if tc.ok != (err == nil) {
				t.Fatalf("Validate = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errs.Is(err, errs.Invalid) {
				t.Fatalf("code %s, want Invalid", errs.CodeOf(err))
			}
		})
	}
}

func TestRequestHash(t *testing.T) {
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	base := ledger.Transfer{IdempotencyKey: "k", Kind: ledger.Payout, Memo: "m", Entries: []ledger.Entry{
		{Account: w1, Amount: -3}, {Account: w2, Amount: 2}, {Account: ledger.OrganiserAccount, Amount: 1},
	}}
	h := base.RequestHash()
	same := base
	same.IdempotencyKey = "other key"
	same.Entries = []ledger.Entry{base.Entries[2], base.Entries[0], base.Entries[1]}
	if same.RequestHash() != h {
		t.Fatal("hash depends on entry order or key")
	}
	differ := []ledger.Transfer{
		{Kind: ledger.Refund, Memo: "m", Entries: base.Entries},
		{Kind: ledger.Payout, Memo: "m2", Entries: base.Entries},
		{Kind: ledger.Payout, Memo: "m", Entries: base.Entries[:2]},
		{Kind: ledger.Payout, Memo: "m", Entries: []ledger.Entry{{Account: w1, Amount: -3}, {Account: w2, Amount: 1}, {Account: ledger.OrganiserAccount, Amount: 2}}},
		{Kind: ledger.Payout, Memo: "m", Entries: []ledger.Entry{{Account: w1, Amount: -3}, {Account: ledger.UserWallet(3), Amount: 2}, {Account: ledger.OrganiserAccount, Amount: 1}}},
		// Length prefixes keep kind/memo boundaries apart.
		{Kind: "PAYOUTm", Memo: "", Entries: base.Entries},
	}
	for i, d := range differ {
		if d.RequestHash() == h {
			t.Errorf("variant %d hashes like the original", i)
		}
	}
}

func TestCombine(t *testing.T) {
	w1, w2 := ledger.UserWallet(1), ledger.UserWallet(2)
	esc := ledger.EscrowOf("p")
	got := ledger.Combine([]ledger.Entry{
		{Account: esc, Amount: -10}, {Account: w1, Amount: 4}, {Account: w2, Amount: 3},
		{Account: w1, Amount: 3}, {Account: w2, Amount: -3}, {Account: ledger.OrganiserAccount, Amount: 3},
	})
	want := []ledger.Entry{{Account: esc, Amount: -10}, {Account: w1, Amount: 7}, {Account: ledger.OrganiserAccount, Amount: 3}}
	if len(got) != len(want) {
		t.Fatalf("Combine = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Combine = %+v, want %+v", got, want)
		}
	}
}

func TestCombinePreservesSum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		var in []ledger.Entry
		var sum money.Amount
		for range n {
			e := ledger.Entry{
				Account: ledger.UserWallet(ids.UserID(rapid.Int64Range(1, 4).Draw(t, "user"))),
				Amount:  money.Amount(rapid.Int64Range(-1000, 1000).Draw(t, "amount")),
			}
			sum += e.Amount
			in = append(in, e)
		}
		out := ledger.Combine(in)
		seen := map[ledger.AccountRef]bool{}
		var outSum money.Amount
		for _, e := range out {
			if e.Amount == 0 || seen[e.Account] {
				t.Fatalf("Combine left a zero or duplicate entry: %+v", out)
			}
			seen[e.Account] = true
			outSum += e.Amount
		}
		if outSum != sum {
			t.Fatalf("Combine changed the sum from %s to %s", sum, outSum)
		}
	})
}

func TestPageSize(t *testing.T) {
	for limit, want := range map[int]int{-1: ledger.DefaultPageSize, 0: ledger.DefaultPageSize, 1: 1, 200: 200, 201: ledger.MaxPageSize} {
		if got := (ledger.Page{Limit: limit}).Size(); got != want {
			t.Errorf("Page{Limit: %d}.Size() = %d, want %d", limit, got, want)
		}
	}
}

func FuzzDecodeCursor(f *testing.F) {
	for _, s := range []string{"", "e1", "ezz", ledger.EncodeCursor(1 << 62), "e-1", "e0", "E1", "e01", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ledger.DecodeCursor(s)
		if err != nil {
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("DecodeCursor(%q) error code %s, want Invalid", s, errs.CodeOf(err))
			}
			return
		}
		if s == "" {
			if id != 0 {
				t.Fatalf("DecodeCursor(\"\") = %d", id)
			}
			return
		}
		if id <= 0 || ledger.EncodeCursor(id) != s {
			t.Fatalf("DecodeCursor(%q) = %d, which encodes as %q", s, id, ledger.EncodeCursor(id))
		}
	})
}
