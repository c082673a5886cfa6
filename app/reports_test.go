package app_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// download GETs /export/<name> as c and returns the status, the body and
// the content type.
func download(t *testing.T, c *gqltest.Client, name, query string) (int, []byte, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, strings.TrimSuffix(c.URL, "/query")+"/export/"+name+"?"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body, res.Header.Get("Content-Type")
}

// parseCSV reads an export and checks its header row.
func parseCSV(t *testing.T, body []byte, header []string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, body)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], header) {
		t.Fatalf("header %v; want %v", recs, header)
	}
	if !bytes.HasSuffix(body, []byte("\r\n")) {
		t.Errorf("the file does not end its last line with CRLF (RFC 4180)")
	}
	return recs[1:]
}

// exportRefused checks a refused download's status, code and reason.
func exportRefused(t *testing.T, c *gqltest.Client, name, query string, status int, code, reason string) {
	t.Helper()
	got, body, _ := download(t, c, name, query)
	var e struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code, Reason string }
		}
	}
	_ = json.Unmarshal(body, &e)
	if got != status || len(e.Errors) != 1 || e.Errors[0].Extensions.Code != code || e.Errors[0].Extensions.Reason != reason {
		t.Errorf("%s?%s: %d %s; want %d %s/%s", name, query, got, body, status, code, reason)
	}
}

// TestReportsAndExports: a day with a deposit, a Casino Hold'em hand and a
// withdrawal; the daily report, the liability and the top players answer
// what the wallet and the hand say, every report downloads as CSV that
// parses with the same figures (twice, byte for byte), each download is
// audited, and bad requests are refused with the field named.
func TestReportsAndExports(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			_, c := startServer(t, b, nil)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "1000.00")
			h := start(t, p, startInput([]boxIn{{ante: "100.00", bonus: "100.00"}}, "", "", unique("hand")))
			h = decide(t, p, h.ID, 1, "CALL", unique("call"))
			admin.MustDo(t, `mutation($u: ID!, $k: String!) { withdraw(input: {userId: $u, amount: "100.00", idempotencyKey: $k}) { balance } }`,
				map[string]any{"u": p.ID, "k": unique("wd")}, nil)
			balance := amount(t, p.balance(t))

			almaty := time.FixedZone("Almaty", 5*3600)
			today := time.Now().In(almaty).Format(time.DateOnly)
			vars := map[string]any{"f": time.Now().In(almaty).AddDate(0, 0, -2).Format(time.DateOnly), "t": today}
			type figures struct {
				Bets                                            int64
				Handle, Payouts, Refunds, Ggr, Ante, Bonus, Bet string
				Deposits, Withdrawals                           string
			}
			var rep struct {
				DailyReport struct {
					Rows []struct {
						Day     string
						Game    string
						TableID *string
						Figures figures
					}
					Totals []struct {
						Game    *string
						Figures figures
					}
				}
			}
			q := `query($f: Date!, $t: Date!) { dailyReport(from: $f, to: $t) { rows { day game tableId figures { bets handle payouts refunds ggr ante bonus bet deposits withdrawals } }
				totals { game figures { bets handle payouts refunds ggr ante bonus bet deposits withdrawals } } } }`
			var all figures
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				admin.MustDo(t, q, vars, &rep)
				all = rep.DailyReport.Totals[0].Figures
				if all.Withdrawals == "100.00" && all.Bet == "200.00" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the report never caught up: %+v", rep.DailyReport.Totals)
				}
			}
			if len(rep.DailyReport.Rows) != 3*3 { // table 0, Casino Hold'em and the cashier, three days
				t.Fatalf("%d rows; want 9", len(rep.DailyReport.Rows))
			}
			returned := amount(t, *h.TotalReturn)
			if all.Handle != "400.00" || all.Ante != "100.00" || all.Bonus != "100.00" || all.Bets != 2 || all.Deposits != "1000.00" ||
				amount(t, all.Payouts) != returned || amount(t, all.Ggr) != 40000-returned {
				t.Errorf("totals %+v; the hand staked 400.00 and returned %s", all, returned)
			}
			// The wallet: deposited - withdrawn - staked + returned.
			if want := 100_000 - 10_000 - 40_000 + returned; balance != want {
				t.Errorf("the wallet holds %s; the report's figures make %s", balance, want)
			}
			var liab struct {
				Liability struct {
					Wallets, Total, Ledger string
					Reconciled             bool
				}
			}
			admin.MustDo(t, `{ liability { wallets total ledger reconciled } }`, nil, &liab)
			if amount(t, liab.Liability.Wallets) != balance || !liab.Liability.Reconciled {
				t.Errorf("liability %+v; the only wallet holds %s", liab.Liability, balance)
			}
			var top struct {
				TopPlayers []struct {
					UserID, Net string
				}
			}
			admin.MustDo(t, `query($f: Date!, $t: Date!) { topPlayers(from: $f, to: $t, winners: false) { userId net } }`, vars, &top)
			if returned < 40_000 && (len(top.TopPlayers) != 1 || top.TopPlayers[0].UserID != p.ID || amount(t, top.TopPlayers[0].Net) != returned-40_000) {
				t.Errorf("top losers %+v; the player lost %s", top.TopPlayers, 40_000-returned)
			}

			// The player's page: found by part of the email, the session of
			// play (GLI-19 2.13), the ledger and the protection.
			var found struct{ Players []struct{ ID, Email string } }
			admin.MustDo(t, `query($s: String!) { players(search: $s) { id email } }`, map[string]any{"s": strings.ToUpper(p.Email[:12])}, &found)
			if len(found.Players) != 1 || found.Players[0].ID != p.ID {
				t.Errorf("search %q found %+v", p.Email[:12], found.Players)
			}
			admin.MustFail(t, "BAD_USER_INPUT", "INVALID_SEARCH", `{ players(search: "a") { id } }`, nil)
			var sess struct {
				PlayerSessions []struct {
					Bets                                                         int
					Wagered, Won, Deposited, Withdrawn, StartBalance, EndBalance string
					EndReason                                                    string
				}
			}
			admin.MustDo(t, `query($u: ID!, $f: Date!, $t: Date!) { playerSessions(userId: $u, from: $f, to: $t) { bets wagered won deposited withdrawn startBalance endBalance endReason } }`,
				map[string]any{"u": p.ID, "f": vars["f"], "t": today}, &sess)
			if len(sess.PlayerSessions) != 1 {
				t.Fatalf("sessions %+v; want one", sess.PlayerSessions)
			}
			s := sess.PlayerSessions[0]
			if s.Bets != 2 || s.Wagered != "400.00" || amount(t, s.Won) != returned || s.Deposited != "0.00" || s.Withdrawn != "100.00" ||
				s.StartBalance != "1000.00" || amount(t, s.EndBalance) != balance || s.EndReason != "OPEN" {
				t.Errorf("the session %+v; the hand staked 400.00 and returned %s, 100.00 withdrawn, the wallet holds %s", s, returned, balance)
			}
			var pl struct {
				PlayerLedger struct {
					Edges []struct{ Node struct{ Kind, Amount string } }
				}
				PlayerProtection struct{ Limits []struct{ Kind string } }
			}
			admin.MustDo(t, `query($u: ID!) { playerLedger(userId: $u) { edges { node { kind amount } } } playerProtection(userId: $u) { limits { kind } } }`,
				map[string]any{"u": p.ID}, &pl)
			if n := len(pl.PlayerLedger.Edges); n < 4 || pl.PlayerLedger.Edges[0].Node.Kind != "WITHDRAWAL" || pl.PlayerLedger.Edges[n-1].Node.Kind != "DEPOSIT" {
				t.Errorf("the player's ledger %+v", pl.PlayerLedger.Edges)
			}
			if len(pl.PlayerProtection.Limits) != 9 {
				t.Errorf("the player's limits %+v", pl.PlayerProtection.Limits)
			}
			newPlayer(t, c, "").Client.MustFail(t, "FORBIDDEN", "ROLE_REQUIRED", `query($u: ID!) { playerLedger(userId: $u) { edges { cursor } } }`, map[string]any{"u": p.ID})

			// The downloads.
			rng := "from=" + vars["f"].(string) + "&to=" + today
			status, body, ctype := download(t, admin, "daily-report.csv", rng)
			if status != http.StatusOK || ctype != "text/csv; charset=utf-8" {
				t.Fatalf("daily-report.csv: %d %s %s", status, ctype, body)
			}
			rows := parseCSV(t, body, report.DailyHeader)
			if len(rows) != 9 {
				t.Fatalf("%d CSV rows; want 9", len(rows))
			}
			for _, r := range rows {
				if r[0] == today && r[1] == "HOLDEM" && (r[5] != "400.00" || money.Amount(0).String() == r[6] && returned != 0) {
					t.Errorf("today's Casino Hold'em row %v", r)
				}
			}
			_, again, _ := download(t, admin, "daily-report.csv", rng)
			if !bytes.Equal(body, again) {
				t.Errorf("two downloads of the same days differ")
			}
			var feed struct{ RegulatorFeed []struct{ Seq int64 } }
			admin.MustDo(t, `{ regulatorFeed(first: 1000) { seq } }`, nil, &feed)
			_, body, _ = download(t, admin, "regulator-feed.csv", rng)
			if recs := parseCSV(t, body, regfeed.FeedHeader); len(recs) != len(feed.RegulatorFeed) {
				t.Errorf("regulator-feed.csv has %d records; the feed %d", len(recs), len(feed.RegulatorFeed))
			}
			_, body, _ = download(t, admin, "regulator-reconciliation.csv", rng)
			parseCSV(t, body, regfeed.LinesHeader)
			_, body, _ = download(t, admin, "liability.csv", "")
			if l := parseCSV(t, body, report.LiabilityHeader); len(l) != 1 || l[0][0] != liab.Liability.Wallets {
				t.Errorf("liability.csv %v", l)
			}
			_, body, _ = download(t, admin, "top-players.csv", rng+"&winners=false")
			parseCSV(t, body, report.PlayersHeader)

			var audit struct {
				AuditLog struct {
					Edges []struct{ Node struct{ Detail string } }
				}
			}
			admin.MustDo(t, `{ auditLog(action: "REPORT_EXPORTED") { edges { node { detail } } } }`, nil, &audit)
			if len(audit.AuditLog.Edges) != 6 || !strings.HasPrefix(audit.AuditLog.Edges[0].Node.Detail, "top-players.csv") {
				t.Errorf("downloads audited: %+v; want 6, the last top-players.csv", audit.AuditLog.Edges)
			}

			// Protection in the period: a deposit refused by the player's
			// new limit is a hit; the limit's change and a time-out are
			// listed beside it.
			p.Client.MustDo(t, `mutation { setLimit(input: {kind: DEPOSIT, period: DAY, amount: "500.00"}) { amount } }`, nil, nil)
			admin.MustFail(t, "CONFLICT", "DEPOSIT_LIMIT", `mutation($u: ID!, $k: String!) { deposit(input: {userId: $u, amount: "600.00", idempotencyKey: $k}) { balance } }`,
				map[string]any{"u": p.ID, "k": unique("dep-over")})
			p.Client.MustDo(t, `mutation { takeTimeOut(hours: 24) { kind } }`, nil, nil)
			var pe struct {
				ProtectionEvents []struct {
					UserID, Kind string
					Count        int64
				}
			}
			admin.MustDo(t, `query($f: Date!, $t: Date!) { protectionEvents(from: $f, to: $t) { userId kind count } }`, vars, &pe)
			kinds := map[string]int64{}
			for _, e := range pe.ProtectionEvents {
				if e.UserID == p.ID {
					kinds[e.Kind] = e.Count
				}
			}
			if kinds["DEPOSIT_LIMIT_HIT"] != 1 || kinds["LIMIT_CHANGED"] != 1 || kinds["TIME_OUT"] != 1 || len(kinds) != 3 {
				t.Errorf("protection events %+v", pe.ProtectionEvents)
			}
			_, body, _ = download(t, admin, "protection-events.csv", rng)
			if rows := parseCSV(t, body, report.ProtectionHeader); len(rows) != 3 {
				t.Errorf("protection-events.csv: %v", rows)
			}

			// Refusals.
			other := newPlayer(t, c, "")
			exportRefused(t, other.Client, "daily-report.csv", rng, http.StatusForbidden, "FORBIDDEN", "ROLE_REQUIRED")
			exportRefused(t, c, "daily-report.csv", rng, http.StatusUnauthorized, "UNAUTHENTICATED", "LOGIN_REQUIRED")
			exportRefused(t, admin, "daily-report.csv", "from="+today+"&to=2020-01-01", http.StatusBadRequest, "BAD_USER_INPUT", "INVALID_DATE_RANGE")
			exportRefused(t, admin, "daily-report.csv", "from=2020-01-01&to="+today, http.StatusBadRequest, "BAD_USER_INPUT", "INVALID_DATE_RANGE")
			exportRefused(t, admin, "daily-report.csv", rng+"&tableId=999", http.StatusBadRequest, "BAD_USER_INPUT", "UNKNOWN_TABLE")
			exportRefused(t, admin, "ledger.csv", rng, http.StatusNotFound, "NOT_FOUND", "NOT_FOUND")
			// A demoted admin's token downloads nothing more: the files
			// go through the same authority as /query.
			boss := newPlayer(t, c, "")
			admin.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: ADMIN) { role } }`, map[string]any{"u": boss.ID}, nil)
			bossTok := c.WithToken(loginTokens(t, c, boss.Email, "player password 1").access)
			if st, _, _ := download(t, bossTok, "liability.csv", ""); st != http.StatusOK {
				t.Fatalf("a new admin's download: %d", st)
			}
			admin.MustDo(t, `mutation($u: ID!) { setRole(userId: $u, role: PLAYER) { role } }`, map[string]any{"u": boss.ID}, nil)
			exportRefused(t, bossTok, "liability.csv", "", http.StatusUnauthorized, "UNAUTHENTICATED", "TOKEN_REVOKED")
			e := admin.MustFail(t, "BAD_USER_INPUT", "INVALID_DATE_RANGE", `{ dailyReport(from: "2026-12-05", to: "2026-12-01") { from } }`, nil)
			if !strings.HasPrefix(e.Message, "from:") {
				t.Errorf("the refusal %q does not name the field", e.Message)
			}
			admin.MustFail(t, "BAD_USER_INPUT", "UNKNOWN_TABLE", `{ dailyReport(from: "2026-12-01", to: "2026-12-02", tableId: "999") { from } }`, nil)
			other.Client.MustFail(t, "FORBIDDEN", "ROLE_REQUIRED", `{ liability { total } }`, nil)
		})
	}
}
