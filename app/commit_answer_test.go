package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/clocktest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestBetAnsweredAfterCommitDespiteCut: Postgres is cut right after it
// answers the commit of a bet's batch, before the server reads the bet's
// draw for the answer. The client still gets its bet (the draw from the
// read model), never "nothing was changed"; once Postgres is back the
// bet is there once and the wallet paid for it once.
func TestBetAnsweredAfterCommitDespiteCut(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(sqldbtest.MigratedPostgres.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := startProxy(t, u.Host)
	u.Host = proxy.Addr()
	redisURL, prefix := testenv.Redis(t)
	clk := clocktest.NewSkipping()
	_, c := startServer(t, backend{name: "proxied postgres", databaseURL: u.String(), redisURL: redisURL, redisPrefix: prefix}, onClock(clk))
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	p := newPlayer(t, c, "1000.00")
	tableID := createLongTable(t, admin, unique("commit-cut"))
	events := watch(t, c, tableID)
	var drawID string
	for drawID == "" {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatal("the table's stream ended")
			}
			if e.Type == "ROUND_OPENED" && e.Round != nil && *e.Round == "PRE_DEAL" {
				drawID = e.DrawID
			}
		case <-time.After(60 * time.Second):
			t.Fatal("no round opened within 60 s")
		}
	}

	// The answer's draw comes from the read model once Postgres is cut:
	// wait until the replica's read model holds the draw (its events reach
	// the read model and this test's socket on their own; under load the
	// socket can be first).
	for deadline := time.Now().Add(20 * time.Second); ; {
		var cur struct {
			Table struct{ CurrentDraw *struct{ ID string } }
		}
		c.MustDo(t, `query($t: ID!) { table(id: $t) { currentDraw { id } } }`, map[string]any{"t": tableID}, &cur)
		if cur.Table.CurrentDraw != nil && cur.Table.CurrentDraw.ID == drawID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the read model never showed draw %s", drawID)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// Cut once the server has confirmed the commit that follows the bet's
	// insert, on the connection that made it.
	var mu sync.Mutex
	inserted := map[int64]bool{}
	proxy.CutAfterReply(func(conn int64, b []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		lower := bytes.ToLower(b)
		if bytes.Contains(lower, []byte("insert")) && bytes.Contains(lower, []byte("tote_bets")) {
			inserted[conn] = true
		}
		return inserted[conn] && bytes.Contains(lower, []byte("commit"))
	}, func(b []byte) bool {
		return bytes.Contains(b, []byte("COMMIT\x00")) // the CommandComplete of the COMMIT
	})
	const place = `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id status stake draw { id } } }`
	vars := map[string]any{"in": map[string]any{"drawId": drawID, "selection": map[string]any{"position": 1}, "stake": "100.00", "idempotencyKey": "cut-after-commit"}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.Client.Do(ctx, place, vars)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		PlaceBet *struct {
			ID, Status, Stake string
			Draw              struct{ ID string }
		}
	}
	_ = json.Unmarshal(res.Data, &out)
	if out.PlaceBet == nil || out.PlaceBet.ID == "" || out.PlaceBet.Draw.ID != drawID {
		t.Fatalf("the committed bet was answered %s %+v, want the bet with its draw", res.Data, res.Errors)
	}
	for _, e := range res.Errors {
		if e.Code() == "UNAVAILABLE" && bytes.Contains([]byte(e.Message), []byte("nothing was changed")) {
			t.Fatalf("a committed bet was told %q", e.Message)
		}
	}
	t.Logf("answered %s %+v with Postgres cut after the commit", res.Data, res.Errors)

	proxy.Restore()
	deadline := time.Now().Add(20 * time.Second)
	for {
		// The same key again is answered with the same bet, not a second.
		res, err := p.Client.Do(context.Background(), place, vars)
		var again struct{ PlaceBet *struct{ ID string } }
		if err == nil && len(res.Errors) == 0 && json.Unmarshal(res.Data, &again) == nil && again.PlaceBet != nil {
			if again.PlaceBet.ID != out.PlaceBet.ID {
				t.Fatalf("the retry placed bet %s beside bet %s", again.PlaceBet.ID, out.PlaceBet.ID)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the cut the retry answered %v %+v", err, res.Errors)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := p.balance(t); got != "900.00" {
		t.Fatalf("balance %s after one bet of 100.00 from 1000.00", got)
	}
}
