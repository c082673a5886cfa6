package protection_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

func almaty(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Almaty")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestPeriodStart(t *testing.T) {
	loc := almaty(t)
	// 2026-03-01 is a Sunday. 18:59 UTC on Feb 28 is 23:59 in Almaty (UTC+5).
	tests := []struct {
		at   time.Time
		p    protection.Period
		want string
	}{
		{time.Date(2026, 2, 28, 18, 59, 0, 0, time.UTC), protection.Day, "2026-02-28"},
		{time.Date(2026, 2, 28, 19, 0, 0, 0, time.UTC), protection.Day, "2026-03-01"},
		{time.Date(2026, 2, 28, 19, 0, 0, 0, time.UTC), protection.Month, "2026-03-01"},
		{time.Date(2026, 2, 28, 18, 59, 0, 0, time.UTC), protection.Month, "2026-02-01"},
		{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), protection.Week, "2026-02-23"}, // Sunday → Monday before
		{time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC), protection.Week, "2026-03-02"}, // Monday 00:00 local
		{time.Date(2026, 12, 31, 20, 0, 0, 0, time.UTC), protection.Week, "2026-12-28"},
	}
	for _, tc := range tests {
		if got := tc.p.Start(tc.at, loc); got != account.MustParseDate(tc.want) {
			t.Errorf("%s.Start(%s) = %s, want %s", tc.p, tc.at, got, tc.want)
		}
	}
}

func TestLimitChange(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := protection.Limit{Kind: protection.StakeLimit, Period: protection.Day}
	step := func(amount money.Amount) protection.Limit {
		t.Helper()
		next, err := l.Change(amount, now)
		if err != nil {
			t.Fatal(err)
		}
		l = next
		return next
	}
	if got := step(100); got.Amount != 100 || got.Pending {
		t.Fatalf("first limit = %+v, want at once", got)
	}
	if got := step(200); got.Amount != 100 || !got.Pending || got.PendingAmount != 200 {
		t.Fatalf("raise = %+v, want pending", got)
	}
	if got := step(100); got.Amount != 100 || got.Pending {
		t.Fatalf("same amount = %+v, want pending cancelled", got)
	}
	if got := step(0); got.Amount != 100 || !got.Pending || got.PendingAmount != 0 {
		t.Fatalf("removal = %+v, want pending", got)
	}
	if got := l.At(now.Add(protection.CoolingOff)); got.Amount != 0 || got.Pending {
		t.Fatalf("after cooling-off = %+v", got)
	}
	if _, err := l.Change(-1, now); errs.ReasonOf(err) != protection.ReasonInvalidLimit {
		t.Fatalf("negative limit: %v", err)
	}
	if _, err := l.Change(protection.MaxLimit+1, now); errs.ReasonOf(err) != protection.ReasonInvalidLimit {
		t.Fatalf("huge limit: %v", err)
	}
}

func TestExclusionRules(t *testing.T) {
	now := time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{0, 23 * time.Hour, 43 * 24 * time.Hour} {
		if _, err := protection.NewTimeOut(d, now); errs.ReasonOf(err) != protection.ReasonInvalidExclusion {
			t.Errorf("time-out of %s: %v", d, err)
		}
	}
	for _, m := range []int{-1, 1, 5, 61} {
		if _, err := protection.NewSelfExclusion(m, now); errs.ReasonOf(err) != protection.ReasonInvalidExclusion {
			t.Errorf("self-exclusion of %d months: %v", m, err)
		}
	}
	to, _ := protection.NewTimeOut(7*24*time.Hour, now)
	se, _ := protection.NewSelfExclusion(6, now)
	perm, _ := protection.NewSelfExclusion(0, now)
	if !to.ActiveAt(now) || to.ActiveAt(now.Add(7*24*time.Hour)) || !perm.ActiveAt(now.AddDate(100, 0, 0)) {
		t.Fatal("ActiveAt wrong")
	}
	if got, err := protection.Replace(to, se, now); err != nil || got.Kind != protection.SelfExclusion || !got.Since.Equal(now) {
		t.Fatalf("time-out → self-exclusion = %+v, %v", got, err)
	}
	if _, err := protection.Replace(se, to, now); errs.ReasonOf(err) != protection.ReasonAlreadyExcluded {
		t.Fatalf("shortening = %v", err)
	}
	if _, err := protection.Replace(perm, se, now); errs.ReasonOf(err) != protection.ReasonAlreadyExcluded {
		t.Fatalf("ending a permanent one = %v", err)
	}
	later := now.Add(8 * 24 * time.Hour)
	to2, _ := protection.NewTimeOut(24*time.Hour, later)
	if got, err := protection.Replace(to, to2, later); err != nil || got != to2 {
		t.Fatalf("after the end = %+v, %v", got, err)
	}
}

// TestClassifyFailsClosed: a kind without a protection class, and an
// internal kind that touches a wallet, are refused, not let through.
func TestClassifyFailsClosed(t *testing.T) {
	w := ledger.UserWallet(7)
	for name, tr := range map[string]ledger.Transfer{
		"unknown kind":            ledger.Move("k", ledger.TransferKind("TOP_TWO_STAKE"), "", w, ledger.EscrowOf("p"), 5),
		"internal kind, wallet":   ledger.Move("k", ledger.Commission, "", w, ledger.OrganiserAccount, 5),
		"internal kind, rollover": ledger.Move("k", ledger.JackpotRollover, "", ledger.EscrowOf("p"), w, 5),
	} {
		if flows, err := protection.Classify(tr); err == nil {
			t.Errorf("%s: classified as %+v, want a refusal", name, flows)
		}
	}
	for _, k := range ledger.TransferKinds() {
		if _, err := protection.Classify(ledger.Move("k", k, "", ledger.CashAccount, ledger.OrganiserAccount, 5)); err != nil {
			t.Errorf("%s between house accounts: %v", k, err)
		}
	}
}

func TestClassify(t *testing.T) {
	w := ledger.UserWallet(7)
	tests := []struct {
		name string
		tr   ledger.Transfer
		want []protection.Flow
	}{
		{"deposit", ledger.Move("k", ledger.Deposit, "", ledger.CashAccount, w, 5), []protection.Flow{{UserID: 7, Kind: protection.FlowDeposit, Amount: 5}}},
		{"withdrawal", ledger.Move("k", ledger.Withdrawal, "", w, ledger.CashAccount, 5), nil},
		{"bet", ledger.Move("k", ledger.BetStake, "", w, ledger.EscrowOf("p"), 5), []protection.Flow{{UserID: 7, Kind: protection.FlowStake, Amount: 5}}},
		{"holdem", ledger.Move("k", ledger.HoldemStake, "", w, ledger.HouseAccount, 5), []protection.Flow{{UserID: 7, Kind: protection.FlowStake, Amount: 5}}},
		{"refund", ledger.Move("k", ledger.Refund, "", ledger.EscrowOf("p"), w, 5), []protection.Flow{{UserID: 7, Kind: protection.FlowReturn, Amount: 5}}},
		{"settlement", ledger.Transfer{IdempotencyKey: "k", Kind: ledger.Settlement, Entries: []ledger.Entry{
			{Account: ledger.EscrowOf("p"), Amount: -9}, {Account: w, Amount: 4}, {Account: ledger.UserWallet(8), Amount: 3}, {Account: ledger.OrganiserAccount, Amount: 2}}},
			[]protection.Flow{{UserID: 7, Kind: protection.FlowReturn, Amount: 4}, {UserID: 8, Kind: protection.FlowReturn, Amount: 3}}},
		{"odd wallet", ledger.Move("k", ledger.Deposit, "", ledger.CashAccount, ledger.AccountRef{Kind: ledger.Wallet, Ref: "bot"}, 5), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := protection.Classify(tc.tr)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("Classify = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("Classify = %+v, want %+v", got, tc.want)
				}
			}
		})
	}
}
