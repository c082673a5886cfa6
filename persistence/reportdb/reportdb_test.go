package reportdb_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/dealer"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/regfeeddb"
	"github.com/pokertote/pokertote/persistence/reportdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
	"github.com/pokertote/pokertote/persistence/totedb"
)

// TestMain drops the template databases when the package's tests end.
func TestMain(m *testing.M) { testenv.Main(m) }

var almaty = time.FixedZone("Asia/Almaty", 5*3600)

// TestReportsMatchTheLedger plays random draws (bets in every market and
// round, random commission, jackpot top-ups and flag, admin voids, ties
// and minus pools as they come) on each database, runs the sequencer
// between them, and checks every figure of the daily report against sums
// taken straight from the ledger's entries, to the tiyn: the handle, the
// payouts, the refunds, the house's cut (commission + breakage - top-ups
// equals what the organiser's account got from settlements), the
// jackpot's flows (in - out equals what its account got from settlements)
// and the organiser's top-ups; and the regulator feed's reconciliation
// of the same days equals the report's figures.
func TestReportsMatchTheLedger(t *testing.T) {
	sqldbtest.EachDialect(t, func(t *testing.T, dialect string) {
		db := sqldbtest.Open(t, dialect)
		led := ledgerdb.New(db)
		repo := totedb.New(db, led)
		h := totetest.NewHarness(t, totetest.Env{Store: repo, Leases: repo, Ledger: led, Concurrent: dialect == "postgres"}, 5)
		h.Dealer = dealer.New(h.Parts, dealer.Config{TableID: h.Table.ID, Owner: "A", LeaseTTL: 30 * time.Second, PoolTick: 5 * time.Second})
		feed := regfeeddb.New(db)
		seq := &regfeed.Sequencer{Store: feed, Loc: almaty}
		reports := report.NewService(reportdb.New(db), almaty)
		const users = 5
		for u := int64(1); u <= users; u++ {
			h.Deposit(u, money.Tenge(1_000_000))
		}
		markets := []parimutuel.Market{parimutuel.MarketWin, parimutuel.MarketCombination, parimutuel.MarketExpress}
		n := 0
		rapid.Check(t, func(rt *rapid.T) {
			n++
			hr := &totetest.Harness{T: rt, Env: h.Env, Ctx: h.Ctx, Svc: h.Svc, Dealer: h.Dealer, Clock: h.Clock, Table: h.Table}
			c := money.BasisPoints(rapid.IntRange(300, 2500).Draw(rt, "commission"))
			if _, err := h.Svc.UpdateTable(h.Ctx, 1, h.Table.ID, tote.SettingsUpdate{Commission: &c}); err != nil {
				rt.Fatal(err)
			}
			if top := money.Amount(rapid.Int64Range(0, 300).Draw(rt, "jackpot KZT")) * money.KZT; top > 0 {
				if err := h.Svc.JackpotTopUp(h.Ctx, 1, top, fmt.Sprintf("top %d", n)); err != nil {
					rt.Fatal(err)
				}
			}
			if err := h.Svc.SetJackpotEnabled(h.Ctx, 1, rapid.Bool().Draw(rt, "jackpot on")); err != nil {
				rt.Fatal(err)
			}
			voidPreDeal := rapid.IntRange(0, 6).Draw(rt, "void") == 0
			d := hr.RunUntil(h.Dealer, "PRE_DEAL", func(x tote.Draw) bool { return x.Phase == tote.PhasePreDeal })
			for r := parimutuel.RoundPreDeal; r <= parimutuel.RoundTurn; r++ {
				d = hr.RunUntil(h.Dealer, r.String(), func(x tote.Draw) bool { return x.ID == d.ID && x.OpenRound() == r })
				for range rapid.IntRange(0, 10).Draw(rt, "bets") {
					m := rapid.SampledFrom(markets).Draw(rt, "market")
					if !m.Offers(r) {
						continue
					}
					pos := func() string { return strconv.Itoa(rapid.IntRange(1, 5).Draw(rt, "position")) }
					sel := pos()
					switch m {
					case parimutuel.MarketCombination:
						sel = rapid.SampledFrom([]string{"HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT"}).Draw(rt, "category")
					case parimutuel.MarketExpress:
						sel = pos() + "-" + pos() + "-" + pos()
					}
					stake := d.MinStake + money.Amount(rapid.Int64Range(0, 200_000).Draw(rt, "stake"))
					hr.BetIfOffered(int64(rapid.IntRange(1, users).Draw(rt, "user")), d, m, sel, stake)
				}
				if r == parimutuel.RoundPreDeal && voidPreDeal {
					if _, err := h.Svc.VoidDraw(h.Ctx, 1, d.ID, "property test"); err != nil {
						rt.Fatal(err)
					}
					break
				}
			}
			d = hr.RunUntil(h.Dealer, "finished", func(x tote.Draw) bool { return x.ID == d.ID && x.Phase.Finished() })
			if err := seq.Sync(h.Ctx); err != nil {
				rt.Fatal(err)
			}
			checkReport(rt, db, reports, feed, h.Table.ID)
		})
	})
}

// ledgerSums are the figures summed straight from the ledger's entries by
// transfer kind and account kind, per gaming day.
type ledgerSums struct {
	handle, payouts, refunds, organiser, jackpot, jackpotTopUps, deposits money.Amount
	bets                                                                  int64
}

func fromLedger(rt *rapid.T, db *sqldb.DB) map[string]*ledgerSums {
	var rows []struct {
		Kind, AccountKind string
		Amount            int64
		CreatedAt         time.Time
	}
	if err := db.Gorm().Raw(`SELECT t.kind, a.kind AS account_kind, e.amount, t.created_at FROM ledger_entries e
		JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transfers t ON t.id = e.transfer_id`).Scan(&rows).Error; err != nil {
		rt.Fatal(err)
	}
	out := map[string]*ledgerSums{}
	for _, r := range rows {
		day := r.CreatedAt.In(almaty).Format(time.DateOnly)
		s := out[day]
		if s == nil {
			s = &ledgerSums{}
			out[day] = s
		}
		a := money.Amount(r.Amount)
		switch {
		case r.AccountKind == "WALLET" && r.Kind == "BET_STAKE":
			s.handle -= a
			s.bets++
		case r.AccountKind == "WALLET" && r.Kind == "SETTLEMENT":
			s.payouts += a
		case r.AccountKind == "WALLET" && r.Kind == "REFUND":
			s.refunds += a
		case r.AccountKind == "WALLET" && r.Kind == "DEPOSIT":
			s.deposits += a
		case r.AccountKind == "ORGANISER" && r.Kind == "SETTLEMENT":
			s.organiser += a
		case r.AccountKind == "JACKPOT" && r.Kind == "SETTLEMENT":
			s.jackpot += a
		case r.AccountKind == "JACKPOT" && r.Kind == "JACKPOT_TOPUP":
			s.jackpotTopUps += a
		}
	}
	return out
}

func checkReport(rt *rapid.T, db *sqldb.DB, reports *report.Service, feed *regfeeddb.Repo, table int64) {
	ctx := context.Background()
	want := fromLedger(rt, db)
	today := time.Now().In(almaty)
	from, to := today.AddDate(0, 0, -1).Format(time.DateOnly), today.AddDate(0, 0, 1).Format(time.DateOnly)
	rows, err := reports.Daily(ctx, from, to, report.Filter{})
	if err != nil {
		rt.Fatal(err)
	}
	if len(rows) != 3*4 { // table 0, the table, Casino Hold'em, the cashier
		rt.Fatalf("%d rows for 3 days and 4 games or tables", len(rows))
	}
	byDay := map[string]report.Figures{}
	for _, r := range rows {
		if r.Game == report.Tote && r.TableID != 0 && r.TableID != table {
			rt.Fatalf("a row of table %d", r.TableID)
		}
		f := byDay[r.Day]
		f.Add(r.Figures)
		byDay[r.Day] = f
	}
	lines, err := regfeed.Reconciliation(ctx, feed, from, to, almaty)
	if err != nil {
		rt.Fatal(err)
	}
	feedSums := map[string]map[regfeed.Item]money.Amount{}
	for _, l := range lines {
		if feedSums[l.Day] == nil {
			feedSums[l.Day] = map[regfeed.Item]money.Amount{}
		}
		feedSums[l.Day][l.Item] += l.Amount
	}
	for day, f := range byDay {
		w := want[day]
		if w == nil {
			w = &ledgerSums{}
		}
		got := ledgerSums{handle: f.Handle, payouts: f.Payouts, refunds: f.Refunds, organiser: f.Commission + f.Breakage - f.TopUps,
			jackpot: f.JackpotIn - f.JackpotOut, jackpotTopUps: f.JackpotTopUps, deposits: f.Deposits, bets: f.Bets}
		if got != *w {
			rt.Fatalf("%s: the report says %+v, the ledger %+v", day, got, *w)
		}
		if f.GGR() != f.Handle-f.Payouts-f.Refunds {
			rt.Fatalf("%s: GGR %s", day, f.GGR())
		}
		fs := feedSums[day]
		if fs[regfeed.ItemBetAccepted] != f.Handle || fs[regfeed.ItemPayout] != f.Payouts || fs[regfeed.ItemRefund] != f.Refunds ||
			fs[regfeed.ItemDeposit] != f.Deposits || fs[regfeed.ItemWithdrawal] != f.Withdrawals {
			rt.Fatalf("%s: the regulator's reconciliation %v differs from the report %+v", day, fs, f)
		}
	}
	l, err := reports.Liability(ctx)
	if err != nil {
		rt.Fatal(err)
	}
	if !l.Reconciled || l.Ledger != l.Wallets+l.Escrow+l.Jackpot {
		rt.Fatalf("liability %+v does not reconcile", l)
	}
}

// TestReportRefusesBadRanges: a range backwards or over 366 days, a date
// that is not one, and an unknown table are BAD_USER_INPUT naming the field.
func TestReportRefusesBadRanges(t *testing.T) {
	db := sqldbtest.Open(t, "sqlite")
	reports := report.NewService(reportdb.New(db), almaty)
	ctx := context.Background()
	for _, c := range []struct{ from, to, reason, field string }{
		{"2026-12-05", "2026-12-01", report.ReasonBadRange, "from:"},
		{"2025-01-01", "2026-12-01", report.ReasonBadRange, "to:"},
		{"2026-02-30", "2026-03-01", report.ReasonBadRange, "from:"},
		{"2026-12-01", "tomorrow", report.ReasonBadRange, "to:"},
	} {
		_, err := reports.Daily(ctx, c.from, c.to, report.Filter{})
		if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != c.reason || err.Error()[:len(c.field)] != c.field {
			t.Errorf("%s..%s: %v; want %s naming %s", c.from, c.to, err, c.reason, c.field)
		}
	}
	_, err := reports.Daily(ctx, "2026-12-01", "2026-12-02", report.Filter{TableID: 999})
	if !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != report.ReasonUnknownTable {
		t.Errorf("an unknown table: %v", err)
	}
	rows, err := reports.Daily(ctx, "2026-12-01", "2026-12-03", report.Filter{})
	if err != nil || len(rows) != 3*3 {
		t.Fatalf("no play: %d rows (%v); want a row of zeros per day for table 0, Casino Hold'em and the cashier", len(rows), err)
	}
	for _, r := range rows {
		if r.Figures != (report.Figures{}) {
			t.Errorf("no play, yet %+v", r)
		}
	}
}
