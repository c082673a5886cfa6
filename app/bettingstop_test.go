package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// startHand tries to start a Casino Hold'em hand and returns the refusal's
// reason ("" when the hand started).
func startHand(t *testing.T, p player, c *gqltest.Client) string {
	t.Helper()
	vars := withCommit(t, player{ID: p.ID, Email: p.Email, Client: c}, startInput([]boxIn{{ante: "100.00"}}, "", "", unique("stop")))
	res, err := c.Do(context.Background(), startMutation, vars)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		return res.Errors[0].Reason()
	}
	return ""
}

// TestStopAllBettingOnTwoReplicas: an admin stops all betting on replica
// 1; replica 2 refuses stakes at once when the broker tells it, and within
// its poll when it shares no broker (the times are printed); every running
// table is paused, and resuming lets stakes in and resumes only the tables
// the stop paused.
func TestStopAllBettingOnTwoReplicas(t *testing.T) {
	t.Parallel()
	for _, shared := range []bool{true, false} {
		name := map[bool]string{true: "told by Redis", false: "no shared broker: by poll"}[shared]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			redisURL, prefix := testenv.Redis(t)
			b := backend{name: "postgres+redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redisURL, redisPrefix: prefix}
			_, c1 := startServer(t, b, nil)
			if !shared {
				b.redisURL = "" // replica 2 hears nothing from replica 1
			}
			_, c2 := startServer(t, b, nil)
			stopOnTwoReplicas(t, c1, c2)
		})
	}
}

func stopOnTwoReplicas(t *testing.T, c1, c2 *gqltest.Client) {
	admin := signIn(t, c1, testAdminEmail, testAdminPassword)
	p := newPlayer(t, c1, "10000.00")
	on2 := c2.WithToken(p.Client.Token)
	if r := startHand(t, p, on2); r != "" {
		t.Fatalf("a hand before the stop was refused: %s", r)
	}
	running := createTableWith(t, admin, unique("stop-run"), "")
	paused := createTableWith(t, admin, unique("stop-paused"), "")
	admin.MustDo(t, `mutation($id: ID!) { pauseTable(tableId: $id) { id } }`, map[string]any{"id": paused}, nil)

	admin.MustFail(t, "BAD_USER_INPUT", "INVALID_STOP_REASON", `mutation { stopAllBetting(reason: " ") { stopped } }`, nil)
	p.Client.MustFail(t, "FORBIDDEN", "", `mutation { stopAllBetting(reason: "me") { stopped } }`, nil)
	at := time.Now()
	admin.MustDo(t, `mutation { stopAllBetting(reason: "regulator's order") { stopped } }`, nil, nil)
	var took time.Duration
	for {
		r := startHand(t, p, on2)
		if r == "BETTING_STOPPED" {
			took = time.Since(at)
			break
		}
		if r != "" {
			t.Fatalf("refused with %s, want BETTING_STOPPED", r)
		}
		if time.Since(at) > 10*time.Second {
			t.Fatal("replica 2 still takes stakes 10 s after the stop")
		}
	}
	t.Logf("replica 2 refused stakes %v after the stop was committed on replica 1", took.Round(time.Millisecond))
	if r := startHand(t, p, p.Client); r != "BETTING_STOPPED" {
		t.Errorf("replica 1 after the stop: %q", r)
	}
	status := func(id string) string {
		var out struct{ Table struct{ Status string } }
		admin.MustDo(t, `query($id: ID!) { table(id: $id) { status } }`, map[string]any{"id": id}, &out)
		return out.Table.Status
	}
	if s := status(running); s != "PAUSED" {
		t.Errorf("a running table after the stop: %s", s)
	}
	var pub struct{ BettingStop struct{ Stopped bool } }
	c2.MustDo(t, `{ bettingStop { stopped } }`, nil, &pub)
	if !pub.BettingStop.Stopped {
		t.Error("the public stop flag says open")
	}
	on2.MustFail(t, "FORBIDDEN", "", `{ bettingStop { reason } }`, nil)

	admin.MustDo(t, `mutation { resumeAllBetting { stopped } }`, nil, nil)
	deadline := time.Now().Add(10 * time.Second)
	for startHand(t, p, on2) != "" {
		if time.Now().After(deadline) {
			t.Fatal("replica 2 still refuses stakes 10 s after the resume")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s := status(running); s != "RUNNING" {
		t.Errorf("the table the stop paused, after the resume: %s", s)
	}
	if s := status(paused); s != "PAUSED" {
		t.Errorf("a table paused before the stop was resumed: %s", s)
	}
	var audit struct {
		AuditLog struct {
			Edges []struct{ Node struct{ Action string } }
		}
	}
	admin.MustDo(t, `{ auditLog(first: 20) { edges { node { action } } } }`, nil, &audit)
	seen := map[string]bool{}
	for _, e := range audit.AuditLog.Edges {
		seen[e.Node.Action] = true
	}
	if !seen["BETTING_STOPPED"] || !seen["BETTING_RESUMED"] {
		t.Errorf("audit log lacks the stop or the resume: %v", seen)
	}
}

// TestStopRefusesTotalizatorBets: while betting is stopped a totalizator
// bet is refused with BETTING_STOPPED, on Postgres (where the stake gate is
// judged inside the bet batch, on the rows the batch read) and on SQLite
// (where it is asked before the batch), in a draw that was open for bets
// when the stop came; after the resume the same bet is taken.
func TestStopRefusesTotalizatorBets(t *testing.T) {
	t.Parallel()
	for _, b := range []backend{{name: "sqlite"}, {name: "postgres", databaseURL: sqldbtest.MigratedPostgres.Postgres(t)}} {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			_, c := startServer(t, b, func(cfg *app.Config) { cfg.DealerEnabled, cfg.TimeScale = true, 1 })
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			p := newPlayer(t, c, "10000.00")
			tableID := createLongTable(t, admin, unique("stop-tote"))
			drawID, _ := openDraw(t, c, tableID)
			bet := func(key string) (code, reason string) {
				res, err := p.Client.Do(context.Background(), `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`, map[string]any{"in": map[string]any{
					"drawId": drawID, "selection": map[string]any{"position": 1}, "stake": "100.00", "idempotencyKey": key}})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Errors) > 0 {
					return res.Errors[0].Code(), res.Errors[0].Reason()
				}
				return "", ""
			}
			if code, reason := bet("before"); code != "" {
				t.Fatalf("a bet before the stop: %s %s", code, reason)
			}
			admin.MustDo(t, `mutation { stopAllBetting(reason: "test") { stopped } }`, nil, nil)
			if code, reason := bet("during"); code != "FORBIDDEN" || reason != "BETTING_STOPPED" {
				t.Fatalf("a bet during the stop: %q %q, want FORBIDDEN BETTING_STOPPED", code, reason)
			}
			admin.MustDo(t, `mutation { resumeAllBetting { stopped } }`, nil, nil)
			if code, reason := bet("after"); code != "" {
				t.Fatalf("a bet after the resume: %s %s", code, reason)
			}
		})
	}
}
