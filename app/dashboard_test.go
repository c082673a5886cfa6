package app_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/internal/clocktest"
	"github.com/pokertote/pokertote/internal/testenv"
)

// metricName matches the metric names of the app in PromQL expressions.
var metricName = regexp.MustCompile(`\bpokertote_[a-zA-Z0-9_]+`)

// grafanaDashboard is the part of a Grafana dashboard JSON model checked.
type grafanaDashboard struct {
	Title  string `json:"title"`
	UID    string `json:"uid"`
	Panels []struct {
		Type    string `json:"type"`
		Title   string `json:"title"`
		Targets []struct {
			Expr  string `json:"expr"`
			RefID string `json:"refId"`
		} `json:"targets"`
		GridPos *struct{ H, W, X, Y int } `json:"gridPos"`
	} `json:"panels"`
}

// TestDashboardAndAlertsUseExportedMetrics: the Grafana dashboard in
// deploy/ parses, every panel has queries, and every metric its queries
// and the alert rules name is one a live server exports. The server plays
// one draw with bets and serves an API key first, so that every labelled
// series has appeared in its /metrics.
func TestDashboardAndAlertsUseExportedMetrics(t *testing.T) {
	testenv.SkipShort(t, "plays a whole draw so that every series appears")
	t.Parallel()
	raw, err := os.ReadFile("../deploy/grafana/pokertote.json")
	if err != nil {
		t.Fatal(err)
	}
	var d grafanaDashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}
	if d.Title == "" || d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("dashboard %q (uid %q) has %d panels", d.Title, d.UID, len(d.Panels))
	}
	used := map[string][]string{} // metric -> where
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		if p.GridPos == nil || p.GridPos.W == 0 || p.GridPos.H == 0 {
			t.Errorf("panel %q has no size", p.Title)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			names := metricName.FindAllString(q.Expr, -1)
			if len(names) == 0 || q.RefID == "" {
				t.Errorf("panel %q: query %q (ref %q) names no pokertote metric", p.Title, q.Expr, q.RefID)
			}
			for _, n := range names {
				used[n] = append(used[n], "panel "+p.Title)
			}
		}
	}
	rules, err := os.ReadFile("../deploy/prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range metricName.FindAllString(string(rules), -1) {
		used[n] = append(used[n], "alerts.yml")
	}

	clk := clocktest.NewSkipping()
	a, c := startServer(t, backends(t)[0], onClock(clk))
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	rcv := newReceiver(t) // a partner's webhook receiver: the webhook series appear
	rcv.set(func(r *receiver) { r.secret = createEndpoint(t, admin, rcv.url()) })
	tableID := createLongTable(t, admin, unique("dash"))
	events := watch(t, c, tableID)
	betAndSettle(t, clk, events, newPlayer(t, c, "100000.00"), 120*time.Second)
	_, key := createKey(t, admin, "Dashboard Partner", 100)
	withKey(c, key).MustDo(t, `{ tables { id } }`, nil, nil)
	withKey(c, key).MustFail(t, "FORBIDDEN", "API_KEY_SCOPE", `{ me { id } }`, nil)
	withKey(c, "ptk_bad").MustFail(t, "UNAUTHENTICATED", "INVALID_API_KEY", `{ tables { id } }`, nil)
	c.MustFail(t, "UNAUTHENTICATED", "LOGIN_REQUIRED", `{ myBets { edges { node { id } } } }`, nil)

	tid, _ := strconv.ParseInt(tableID, 10, 64)
	rcv.waitFor(t, []string{webhook.EventID(tid, 0)}, 30*time.Second)
	settled := false
	for deadline := time.Now().Add(30 * time.Second); !settled && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, g := range rcv.received() {
			var d struct {
				TableID  int64   `json:"tableId"`
				VoidKind *string `json:"voidKind"`
				Winners  []int   `json:"winners"`
				Result   struct{ DrawID int64 }
			}
			if g.Type == "draw.settled" && json.Unmarshal(g.Data, &d) == nil && d.TableID == tid {
				if d.VoidKind != nil || len(d.Winners) == 0 || d.Result.DrawID == 0 {
					t.Errorf("draw.settled data %s", g.Data)
				}
				settled = true
			}
		}
	}
	if !settled {
		t.Error("the partner's receiver got no draw.settled for the settled draw")
	}

	exported := map[string]bool{}
	for _, line := range strings.Split(scrape(t, a.Addr()), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		name, _, _ := strings.Cut(line, " ")
		name, _, _ = strings.Cut(name, "{")
		exported[name] = true
	}
	var missing []string
	for n, where := range used {
		if !exported[n] {
			missing = append(missing, n+" (used by "+strings.Join(where, ", ")+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("metrics named in deploy/ that the server does not export:\n  %s", strings.Join(missing, "\n  "))
	}
	t.Logf("%d metrics of deploy/ all exported", len(used))
}

// betAndSettle places one bet in some open round and waits until that
// draw settles, skipping clk past every round once it is bet (or not
// needed). A bet the loaded machine sends too late is tried again in the
// next round: the test needs one settled draw with a pool, not timing.
func betAndSettle(t *testing.T, clk *clocktest.Skipping, events <-chan tableEvent, p player, deadline time.Duration) {
	t.Helper()
	timeout := time.After(deadline)
	betDraw := ""
	for {
		select {
		case <-timeout:
			t.Fatalf("no draw with a bet settled within %v", deadline)
		case e, ok := <-events:
			if !ok {
				t.Fatal("event stream ended")
			}
			switch {
			case e.Type == "ROUND_OPENED" && betDraw == "":
				res, err := p.Client.Do(context.Background(), `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`,
					map[string]any{"in": map[string]any{"drawId": e.DrawID, "selection": map[string]any{"position": 1}, "stake": "100.00", "idempotencyKey": unique("dash")}})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Errors) == 0 {
					betDraw = e.DrawID
				}
				skipRound(clk, e.ClosesAt)
			case e.Type == "ROUND_OPENED":
				skipRound(clk, e.ClosesAt)
			case e.Type == "DRAW_SETTLED" && e.DrawID == betDraw:
				return
			}
		}
	}
}
