package report_test

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/report"
)

// TestEveryKindIsReported: each transfer kind of the ledger's registry has
// a rule, and a kind outside it is refused, so a kind added to the ledger
// without its place in the reports fails here.
func TestEveryKindIsReported(t *testing.T) {
	for _, k := range ledger.TransferKinds() {
		if _, err := report.Deltas(report.Movement{Kind: k, Day: "2026-12-05", Wallet: -100, Wallets: 1, Amount: 100}); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	_, err := report.Deltas(report.Movement{Kind: "NEW_GAME_STAKE", Day: "2026-12-05", Wallet: -100, Wallets: 1})
	if errs.ReasonOf(err) != report.ReasonUnreportedKind {
		t.Errorf("an unknown kind: %v", err)
	}
}

// TestDeltas: what each kind adds, and to which row.
func TestDeltas(t *testing.T) {
	cuts := &report.Cuts{Commission: 30, Breakage: 2, TopUp: 5, JackpotIn: 7, JackpotOut: 1}
	for _, c := range []struct {
		m    report.Movement
		want report.Delta
	}{
		{report.Movement{Kind: ledger.BetStake, Day: "d", TableID: 3, Wallet: -500, Wallets: 1},
			report.Delta{Key: report.Key{"d", report.Tote, 3}, Figures: report.Figures{Bets: 1, Handle: 500}}},
		{report.Movement{Kind: ledger.Settlement, Day: "d", TableID: 3, Wallet: 900, Wallets: 4, Cuts: cuts},
			report.Delta{Key: report.Key{"d", report.Tote, 3}, Figures: report.Figures{Payouts: 900, Commission: 30, Breakage: 2, TopUps: 5, JackpotIn: 7, JackpotOut: 1}}},
		{report.Movement{Kind: ledger.Refund, Day: "d", TableID: 3, Wallet: 200, Wallets: 2},
			report.Delta{Key: report.Key{"d", report.Tote, 3}, Figures: report.Figures{Refunds: 200}}},
		{report.Movement{Kind: ledger.JackpotTopUp, Day: "d", Amount: 1000},
			report.Delta{Key: report.Key{"d", report.Tote, 0}, Figures: report.Figures{JackpotTopUps: 1000}}},
		{report.Movement{Kind: ledger.HoldemStake, Key: "holdem:9:stake", Day: "d", Wallet: -300, Wallets: 1, Ante: 200, Bonus: 100},
			report.Delta{Key: report.Key{"d", report.Holdem, 0}, Figures: report.Figures{Bets: 1, Handle: 300, Ante: 200, Bonus: 100}}},
		{report.Movement{Kind: ledger.HoldemStake, Key: "holdem:9:bet:1", Day: "d", Wallet: -400, Wallets: 1},
			report.Delta{Key: report.Key{"d", report.Holdem, 0}, Figures: report.Figures{Bets: 1, Handle: 400, Bet: 400}}},
		{report.Movement{Kind: ledger.HoldemPayout, Day: "d", Wallet: 800, Wallets: 1},
			report.Delta{Key: report.Key{"d", report.Holdem, 0}, Figures: report.Figures{Payouts: 800}}},
		{report.Movement{Kind: ledger.Deposit, Day: "d", Wallet: 5000, Wallets: 1},
			report.Delta{Key: report.Key{"d", report.Cashier, 0}, Figures: report.Figures{Deposits: 5000}}},
		{report.Movement{Kind: ledger.Withdrawal, Day: "d", Wallet: -700, Wallets: 1},
			report.Delta{Key: report.Key{"d", report.Cashier, 0}, Figures: report.Figures{Withdrawals: 700}}},
	} {
		got, err := report.Deltas(c.m)
		if err != nil || len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.m.Kind, got, err, c.want)
		}
	}
}

func TestFiguresGGRAndHold(t *testing.T) {
	f := report.Figures{Handle: 10_000, Payouts: 8_000, Refunds: 500}
	if f.GGR() != 1_500 || f.HoldBP() != 1_500 || report.HoldPercent(f) != "15.00" {
		t.Errorf("GGR %s, hold %d bp, %s%%", f.GGR(), f.HoldBP(), report.HoldPercent(f))
	}
	loss := report.Figures{Handle: 1_000, Payouts: 1_234}
	if loss.GGR() != -234 || report.HoldPercent(loss) != "-23.40" || (report.Figures{}).HoldBP() != 0 {
		t.Errorf("a losing day: GGR %s, hold %s", loss.GGR(), report.HoldPercent(loss))
	}
}

func TestDays(t *testing.T) {
	loc := time.FixedZone("Almaty", 5*3600)
	days, err := report.Days("2026-02-27", "2026-03-02", loc)
	if err != nil || len(days) != 4 || days[2] != "2026-03-01" {
		t.Errorf("%v %v", days, err)
	}
	if _, err := report.Days("2024-01-01", "2025-01-01", loc); errs.ReasonOf(err) != report.ReasonBadRange {
		t.Errorf("367 days: %v", err)
	}
	if days, err := report.Days("2025-01-01", "2025-12-31", loc); err != nil || len(days) != 365 {
		t.Errorf("a year: %d %v", len(days), err)
	}
	if got := report.DayOf(time.Date(2026, 12, 4, 19, 30, 0, 0, time.UTC), loc); got != "2026-12-05" {
		t.Errorf("19:30 UTC is %s in Almaty", got)
	}
}

// TestCSV: RFC 4180 with CRLF, quoting where needed, amounts with a dot.
func TestCSV(t *testing.T) {
	var b bytes.Buffer
	rows := []report.PlayerResult{{UserID: 7, Email: "a@b.kz", Name: `Айгерим "Ая", Б.`, Bets: 3, Staked: 12_345, Returned: 100}}
	i := 0
	err := report.CSV(&b, report.PlayersHeader, func() ([]string, error) {
		if i == len(rows) {
			return nil, nil
		}
		i++
		return report.PlayerRecord(i, rows[i-1]), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "rank,user_id,email,name,bets,staked,returned,net\r\n1,7,a@b.kz,\"Айгерим \"\"Ая\"\", Б.\",3,123.45,1.00,-122.45\r\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || recs[1][3] != `Айгерим "Ая", Б.` {
		t.Errorf("%v %v", recs, err)
	}
}
