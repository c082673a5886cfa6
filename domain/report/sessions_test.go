package report_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/report"
)

func TestSessions(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	acts := []report.Activity{
		{at(-5), report.Deposit, 10_000, 10_000},    // before any session: not counted
		{at(0), report.Stake, 1_000, 9_000},         // session 1 starts: balance 10,000 before
		{at(10), report.Return, 2_500, 11_500},      // a win
		{at(20), report.Deposit, 5_000, 16_500},     // during the session
		{at(35), report.Stake, 500, 16_000},         // 25 min after the win: same session
		{at(80), report.Return, 100, 16_100},        // a late settlement: counted, does not extend
		{at(90), report.Stake, 700, 15_400},         // 55 min after the last play: session 2
		{at(100), report.Withdrawal, 1_000, 14_400}, // during session 2
		{at(110), report.TimeOut, 0, 0},             // the player stops it
		{at(200), report.Stake, 300, 14_100},        // session 3, still open at now
	}
	got := report.Sessions(acts, at(210))
	want := []report.Session{
		{Start: at(0), End: at(35), Bets: 2, Wagered: 1_500, Won: 2_600, Deposited: 5_000, StartBalance: 10_000, EndBalance: 16_100, EndReason: report.EndIdle},
		{Start: at(90), End: at(90), Bets: 1, Wagered: 700, Withdrawn: 1_000, StartBalance: 16_100, EndBalance: 14_400, EndReason: report.EndTimeOut},
		{Start: at(200), End: at(200), Bets: 1, Wagered: 300, StartBalance: 14_400, EndBalance: 14_100, EndReason: report.EndOpen},
	}
	if len(got) != len(want) {
		t.Fatalf("%d sessions: %+v", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("session %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
		}
	}
	// The balance at each end is the next session's start: nothing moved between.
	if got[0].EndBalance != got[1].StartBalance || got[1].EndBalance != got[2].StartBalance {
		t.Errorf("balances do not chain: %+v", got)
	}
	if s := report.Sessions(acts, at(400)); s[2].EndReason != report.EndIdle {
		t.Errorf("long after: %s", s[2].EndReason)
	}
	_ = money.KZT
}
