package app_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// stepper paces a replica's drain from the test (app.Config.DrainPace):
// every step the drain asks for is handed to the test, and the drain waits
// until the test lets it go on. The order and spread of the closes are
// then asserted step by step, not by the clock.
type stepper struct {
	asked   chan time.Duration
	release chan struct{}
}

func newStepper() *stepper {
	return &stepper{asked: make(chan time.Duration), release: make(chan struct{})}
}

func (s *stepper) pace(ctx context.Context, step time.Duration) bool {
	select {
	case s.asked <- step:
	case <-ctx.Done():
		return false
	}
	select {
	case <-s.release:
		return true
	case <-ctx.Done():
		return false
	}
}

// next waits for the drain to ask for its next step.
func (s *stepper) next(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-s.asked:
		return d
	case <-time.After(30 * time.Second):
		t.Fatal("the drain asked for no next step within 30 s")
	}
	return 0
}

// streamEnd is how one follower's stream on the draining replica ended.
type streamEnd struct {
	who       string
	code      int    // the WebSocket close code (-1 none; 0 for SSE)
	reason    string // the close reason
	completed bool   // SSE: the server sent "complete"
}

// follower follows a table's events as a client does through a rolling
// restart: over one transport on one replica and, when that replica ends
// the stream for a restart (close 1012 on a WebSocket, "complete" on SSE),
// once more on the other replica with afterSeq = the last seq it saw.
type follower struct {
	t       *testing.T
	who     string
	proto   string // "ws", "legacy", "sse"
	tableID string
	other   *gqltest.Client // where it resumes
	ends    chan<- streamEnd

	mu      sync.Mutex
	seqs    []int64
	errs    []string
	resumes int
	sock    *gqltest.Socket // the socket in use (ws, legacy)
	ctx     context.Context
}

// open subscribes over c from after (0: from the start).
func (f *follower) open(c *gqltest.Client, after int64) error {
	vars := map[string]any{"t": f.tableID, "after": after}
	if f.proto == "sse" {
		st, err := c.SSE(f.ctx, tableEventsSub, vars, nil)
		if err != nil {
			return err
		}
		go func() {
			for r := range st.Next {
				f.record(r)
			}
			f.ended(streamEnd{who: f.who, completed: st.Completed()})
		}()
		return nil
	}
	sock, err := c.Socket(f.ctx, gqltest.SocketOptions{Legacy: f.proto == "legacy"})
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.sock = sock
	f.mu.Unlock()
	ch, err := sock.Start(f.ctx, tableEventsSub, vars)
	if err != nil {
		return err
	}
	go func() {
		for r := range ch {
			f.record(r)
		}
		<-sock.Closed()
		code, reason, _ := sock.CloseStatus()
		f.ended(streamEnd{who: f.who, code: code, reason: reason})
	}()
	return nil
}

func (f *follower) record(r gqltest.Response) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(r.Errors) > 0 {
		f.errs = append(f.errs, fmt.Sprintf("%s/%s", r.Errors[0].Code(), r.Errors[0].Reason()))
		return
	}
	var m struct{ TableEvents tableEvent }
	if err := json.Unmarshal(r.Data, &m); err != nil {
		f.errs = append(f.errs, err.Error())
		return
	}
	f.seqs = append(f.seqs, m.TableEvents.Seq)
}

// ended reports the end of the stream and resumes on the other replica the
// first time (the second end is the test's own cleanup).
func (f *follower) ended(e streamEnd) {
	f.mu.Lock()
	first := f.resumes == 0
	f.resumes++
	last := int64(0)
	if n := len(f.seqs); n > 0 {
		last = f.seqs[n-1]
	}
	f.mu.Unlock()
	if !first {
		return
	}
	f.ends <- e
	if f.ctx.Err() == nil {
		if err := f.open(f.other, last); err != nil {
			f.mu.Lock()
			f.errs = append(f.errs, "resume: "+err.Error())
			f.mu.Unlock()
		}
	}
}

func (f *follower) last() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seqs) == 0 {
		return 0
	}
	return f.seqs[len(f.seqs)-1]
}

// check reports a gap, a duplicate or an error in what the follower saw,
// which must be every seq from 1 to want.
func (f *follower) check(want int64) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.errs) > 0 {
		return fmt.Sprintf("errors %v", f.errs)
	}
	for i, s := range f.seqs {
		if s != int64(i)+1 {
			return fmt.Sprintf("seq %d at position %d (seqs %v)", s, i, f.seqs)
		}
	}
	if int64(len(f.seqs)) != want {
		return fmt.Sprintf("saw %d events, the table has %d", len(f.seqs), want)
	}
	return ""
}

// leaseOf is the table's dealer lease: its owner and fence.
func leaseOf(t *testing.T, db *sql.DB, tableID string) (owner string, fence int64, expired bool) {
	t.Helper()
	err := db.QueryRow(`SELECT owner, fence, expires_at <= now() FROM tote_leases WHERE table_id = $1`, tableID).Scan(&owner, &fence, &expired)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return owner, fence, expired
}

// eventually polls cond every 20 ms for up to 30 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readyz(t *testing.T, a *app.App) (int, map[string]string) {
	t.Helper()
	res, err := http.Get("http://" + a.Addr() + "/readyz")
	if err != nil {
		t.Fatalf("/readyz: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var m map[string]string
	_ = json.Unmarshal(b, &m)
	return res.StatusCode, m
}

// TestRollingRestartDrain restarts one of two replicas (Postgres + Redis)
// under viewers over every transport and a bet in flight, as SIGTERM does:
//   - /readyz answers 503 DRAINING at once, before any socket is closed, and
//     new WebSockets and SSE streams are refused with 503 DRAINING while
//     plain HTTP is still served;
//   - the replica's dealer gives its lease up and the other replica deals
//     on while the first is still draining (a new fence);
//   - a bet in flight on a socket whose turn to close comes is committed
//     and answered on that socket first, then the socket closes;
//   - the sockets close one per drain step, in the order they were opened,
//     with 1012 / DRAINING (graphql-transport-ws and graphql-ws), SSE by
//     "complete", and the steps spread them evenly over the window;
//   - every viewer resumes on the other replica with afterSeq and ends with
//     every seq of the table exactly once.
func TestRollingRestartDrain(t *testing.T) {
	b := backends(t)[1]
	db, err := sql.Open("pgx", b.databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })

	const window = time.Second
	steps := newStepper()
	a, ca, stopA := startStoppable(t, b, func(cfg *app.Config) {
		fastTote(cfg)
		cfg.DrainWindow = window
		cfg.DrainPace = steps.pace
	})
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			go func() {
				for range steps.asked {
				}
			}()
			close(steps.release)
			<-stopA()
		}
	})
	admin := signIn(t, ca, testAdminEmail, testAdminPassword)
	var tbl struct {
		CreateTable struct{ ID string }
	}
	// Round 1 stays open for the whole test (3600 s / TIME_SCALE).
	admin.MustDo(t, `mutation($n: String!) { createTable(input: {name: $n, positions: 6, minStake: "100.00", maxStake: "50000.00", roundSeconds: [3600, 20, 20, 20]}) { id } }`,
		map[string]any{"n": unique("drain")}, &tbl)
	tableID := tbl.CreateTable.ID
	var drawID string
	eventually(t, "a draw with round 1 open", func() bool {
		var out struct {
			Table struct {
				CurrentDraw *struct {
					ID        string
					OpenRound *string
				}
			}
		}
		admin.MustDo(t, `query($t: ID!) { table(id: $t) { currentDraw { id openRound } } }`, map[string]any{"t": tableID}, &out)
		if cd := out.Table.CurrentDraw; cd != nil && cd.OpenRound != nil {
			drawID = cd.ID
			return true
		}
		return false
	})
	ownerA, fenceA, _ := leaseOf(t, db, tableID)
	if ownerA == "" {
		t.Fatal("replica A holds no lease on the table")
	}
	_, cb := startServer(t, b, fastTote) // B's dealer waits for the lease
	adminB := signIn(t, cb, testAdminEmail, testAdminPassword)
	p := newPlayer(t, ca, "100000.00")
	p2 := newPlayer(t, ca, "100000.00")

	// The viewers on A, in this order: the player's socket (which will
	// carry the bet), two anonymous graphql-transport-ws sockets, one
	// graphql-ws and one SSE stream.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ends := make(chan streamEnd, 16)
	specs := []struct {
		who, proto string
		c, other   *gqltest.Client
	}{
		{"player ws", "ws", p.Client, cb.WithToken(p.Client.Token)},
		{"anonymous ws 1", "ws", ca, cb},
		{"legacy graphql-ws", "legacy", ca, cb},
		{"sse", "sse", ca, cb},
		{"anonymous ws 2", "ws", ca, cb},
	}
	var viewers []*follower
	for _, s := range specs {
		f := &follower{t: t, who: s.who, proto: s.proto, tableID: tableID, other: s.other, ends: ends, ctx: ctx}
		if err := f.open(s.c, 0); err != nil {
			t.Fatalf("%s: %v", s.who, err)
		}
		viewers = append(viewers, f)
		// Opened in this order: wait until it streams before the next.
		eventually(t, s.who+" streams", func() bool { return f.last() >= 2 })
	}
	if code, _ := readyz(t, a); code != http.StatusOK {
		t.Fatalf("/readyz before SIGTERM = %d", code)
	}

	// A bet in flight on the player's socket: held in its transaction by a
	// lock on the player's wallet.
	lockTx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lockTx.Rollback() }()
	if _, err := lockTx.Exec(`SELECT 1 FROM ledger_accounts WHERE kind = 'WALLET' AND ref = $1 FOR UPDATE`, "user:"+p.ID); err != nil {
		t.Fatal(err)
	}
	viewers[0].mu.Lock()
	betSock := viewers[0].sock
	viewers[0].mu.Unlock()
	bet, err := betSock.Start(ctx, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id status } }`,
		map[string]any{"in": map[string]any{"drawId": drawID, "selection": map[string]any{"position": 2}, "stake": "250.00", "idempotencyKey": unique("drain-bet")}})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the bet waits for the wallet's lock", func() bool {
		var n int
		_ = db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
		return n > 0
	})

	// SIGTERM.
	done := stopA()
	eventually(t, "/readyz 503", func() bool { code, _ := readyz(t, a); return code == http.StatusServiceUnavailable })
	if _, body := readyz(t, a); body["reason"] != "DRAINING" || body["status"] != "draining" {
		t.Errorf("/readyz while draining: %v, want status draining, reason DRAINING", body)
	}
	first := steps.next(t) // the drain waits for its first step: nothing is closed yet
	if len(ends) != 0 {
		t.Fatalf("a socket closed before the first step: %+v", <-ends)
	}
	select {
	case r := <-bet:
		t.Fatalf("the bet answered while its wallet was locked: %+v", r)
	default:
	}
	// The lease is handed over while A drains.
	eventually(t, "replica B takes the lease over", func() bool {
		owner, fence, _ := leaseOf(t, db, tableID)
		return owner != ownerA && owner != "" && fence > fenceA
	})
	// New sockets and streams go elsewhere; plain HTTP is still served.
	var se *gqltest.StatusError
	if _, err := ca.Socket(ctx, gqltest.SocketOptions{}); !errors.As(err, &se) || se.Status != http.StatusServiceUnavailable ||
		len(se.Body.Errors) == 0 || se.Body.Errors[0].Reason() != "DRAINING" || se.Header.Get("Retry-After") == "" {
		t.Errorf("a new WebSocket while draining: %v, want HTTP 503 DRAINING with Retry-After", err)
	}
	if _, err := ca.SSE(ctx, tableEventsSub, map[string]any{"t": tableID}, nil); !errors.As(err, &se) || se.Status != http.StatusServiceUnavailable ||
		len(se.Body.Errors) == 0 || se.Body.Errors[0].Reason() != "DRAINING" {
		t.Errorf("a new SSE stream while draining: %v, want HTTP 503 DRAINING", err)
	}
	ca.MustDo(t, `{ __typename }`, nil, nil)

	// Step 1 is the player's socket's turn: it waits for the bet.
	steps.release <- struct{}{}
	asked := []time.Duration{first, steps.next(t)} // the drain went on to step 2
	select {
	case <-betSock.Closed():
		t.Fatal("the player's socket closed with its bet in flight")
	default:
	}
	if err := lockTx.Rollback(); err != nil { // the wallet is free: the bet commits
		t.Fatal(err)
	}
	r, ok := <-bet
	if !ok || len(r.Errors) > 0 {
		t.Fatalf("the bet in flight was not answered on its socket: %+v (answered %v)", r.Errors, ok)
	}
	var placed struct {
		PlaceBet struct{ ID, Status string }
	}
	_ = json.Unmarshal(r.Data, &placed)
	if placed.PlaceBet.ID == "" {
		t.Fatalf("the bet's answer %s has no id", r.Data)
	}
	e := <-ends
	if e.who != viewers[0].who || e.code != 1012 || e.reason != "DRAINING" {
		t.Fatalf("first close %+v, want the player's socket with 1012 DRAINING", e)
	}
	// Plain HTTP, even a bet, is still served while the sockets drain.
	p2.Client.MustDo(t, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"drawId": drawID, "selection": map[string]any{"position": 3}, "stake": "100.00", "idempotencyKey": unique("drain-http")}}, nil)

	// One socket per step, in the order they were opened; events happen
	// meanwhile (B's admin pauses and resumes the table).
	for i := 1; i < len(viewers); i++ {
		adminB.MustDo(t, `mutation($t: ID!) { pauseTable(tableId: $t) { id } }`, map[string]any{"t": tableID}, nil)
		adminB.MustDo(t, `mutation($t: ID!) { resumeTable(tableId: $t) { id } }`, map[string]any{"t": tableID}, nil)
		if len(ends) != 0 {
			t.Fatalf("step %d: %+v closed before its step", i+1, <-ends)
		}
		steps.release <- struct{}{}
		e := <-ends
		want := viewers[i]
		switch {
		case e.who != want.who:
			t.Fatalf("step %d closed %q, want %q (the order they were opened)", i+1, e.who, want.who)
		case want.proto == "sse" && !e.completed:
			t.Errorf("the SSE stream ended without its complete event: %+v", e)
		case want.proto != "sse" && (e.code != 1012 || e.reason != "DRAINING"):
			t.Errorf("%s closed with %d %q, want 1012 DRAINING", e.who, e.code, e.reason)
		}
		if i+1 < len(viewers) {
			asked = append(asked, steps.next(t))
		}
	}
	// Evenly over the window: half a step first, then whole steps of
	// window/n, the last close half a step before the window's end.
	n := time.Duration(len(viewers))
	want := []time.Duration{window / (2 * n)}
	for range len(viewers) - 1 {
		want = append(want, window/n)
	}
	if !slices.Equal(asked, want) {
		t.Errorf("drain steps %v, want %v", asked, want)
	}
	select {
	case err := <-done:
		stopped = true
		if err != nil {
			t.Fatalf("replica A stopped with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("replica A did not stop within 30 s of its last close")
	}

	// Everyone resumed on B without a gap: every seq of the table once.
	adminB.MustDo(t, `mutation($t: ID!) { pauseTable(tableId: $t) { id } }`, map[string]any{"t": tableID}, nil)
	var last int64
	eventually(t, "every viewer has the table's last event", func() bool {
		var out struct{ Table struct{ LastSeq int64 } }
		cb.MustDo(t, `query($t: ID!) { table(id: $t) { lastSeq } }`, map[string]any{"t": tableID}, &out)
		last = out.Table.LastSeq
		for _, f := range viewers {
			if f.last() < last {
				return false
			}
		}
		return true
	})
	for _, f := range viewers {
		if msg := f.check(last); msg != "" {
			t.Errorf("%s: %s", f.who, msg)
		}
	}
	// The bet in flight was written once.
	var mine struct {
		MyBets struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	cb.WithToken(p.Client.Token).MustDo(t, `{ myBets(first: 10) { edges { node { id } } } }`, nil, &mine)
	if len(mine.MyBets.Edges) != 1 || mine.MyBets.Edges[0].Node.ID != placed.PlaceBet.ID {
		t.Errorf("the player's bets %+v, want exactly the one answered (%s)", mine.MyBets.Edges, placed.PlaceBet.ID)
	}
}
