//go:build chaos

package app_test

// The chaos run of issue 27 over the HA topology of deploy/ha (not part of
// the normal test command: it needs root, pg_auto_failover and a few
// minutes). Run it with deploy/ha/chaos.sh, which brings the topology up
// without server replicas, runs this test and takes everything down.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/tcpproxy"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// haEnv is what deploy/ha/env.sh exports to the chaos run.
type haEnv struct {
	dir, monitor, sentinels string
	nodes                   []string // host:port of the two Postgres nodes
	redisMaster, redisRepl  string
}

func readHAEnv(t *testing.T) haEnv {
	get := func(k string) string {
		v := os.Getenv(k)
		if v == "" {
			t.Fatalf("%s is not set: run deploy/ha/chaos.sh", k)
		}
		return v
	}
	return haEnv{dir: get("HA_DIR"), monitor: "127.0.0.1:" + get("MONITOR_PORT"), sentinels: get("HA_SENTINELS"),
		nodes:       []string{"127.0.0.1:" + get("NODE1_PORT"), "127.0.0.1:" + get("NODE2_PORT")},
		redisMaster: get("REDIS_MASTER_PORT"), redisRepl: get("REDIS_REPLICA_PORT")}
}

func pgURL(hosts, db, attrs string) string {
	return "postgres://postgres@" + hosts + "/" + db + "?target_session_attrs=" + attrs + "&connect_timeout=2&sslmode=disable"
}

// betBook records every bet the load sent: acknowledged ones by key, and
// refusals by reason.
type betBook struct {
	mu       sync.Mutex
	acked    map[string]string // idempotency key -> bet id
	ackTimes []time.Time       // when each acknowledged bet was sent
	ackAt    []time.Time       // when it was acknowledged
	ackViaB  []bool            // whether it went through replica B
	refused  map[string]int
	sent     atomic.Int64
}

func (b *betBook) refuse(reason string) {
	b.mu.Lock()
	b.refused[reason]++
	b.mu.Unlock()
}

func (b *betBook) snapshotRefused() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]int{}
	for k, v := range b.refused {
		out[k] = v
	}
	return out
}

// firstAckSentAfter is the send time of the first acknowledged bet sent at
// or after at (through replica B only, if onlyB).
func (b *betBook) firstAckSentAfter(at time.Time, onlyB bool) (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var best time.Time
	for i, s := range b.ackTimes {
		if onlyB && !b.ackViaB[i] {
			continue
		}
		if !s.Before(at) && (best.IsZero() || s.Before(best)) {
			best = s
		}
	}
	return best, !best.IsZero()
}

// longestAckWait is the longest time from send to acknowledgement among
// the bets sent in [from, to).
func (b *betBook) longestAckWait(from, to time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	var longest time.Duration
	for i, s := range b.ackTimes {
		if !s.Before(from) && s.Before(to) {
			longest = max(longest, b.ackAt[i].Sub(s))
		}
	}
	return longest
}

func diffCounts(after, before map[string]int) string {
	var parts []string
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, d))
		}
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// tableState is what the load knows of the table: the open draw and round.
type tableState struct {
	mu     sync.Mutex
	drawID string
	open   bool
	events []tableEvent
	at     []time.Time // when each event arrived
	last   time.Time   // when the last event arrived
	round  string
}

func (s *tableState) observe(e tableEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, e)
	s.last = time.Now()
	s.at = append(s.at, s.last)
	switch e.Type {
	case "ROUND_OPENED":
		s.drawID, s.open, s.round = e.DrawID, true, *e.Round
	case "ROUND_CLOSED", "DRAW_SETTLED", "DRAW_VOIDED":
		s.open = false
	}
}

func (s *tableState) current() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drawID, s.open
}

// TestHAChaos: continuous bets on two server replicas while (0) the
// Postgres standby is killed with SIGKILL (and rejoins), (1) the Postgres
// primary is killed with SIGKILL mid-draw, (2) the Redis master is killed,
// (3) one server replica is cut from the database for 10 s. After each,
// every money invariant holds and the table stream has no gap.
func TestHAChaos(t *testing.T) {
	env := readHAEnv(t)
	bin := filepath.Join(t.TempDir(), "pokertote")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/server").CombinedOutput(); err != nil {
		t.Fatalf("build server: %v\n%s", err, out)
	}
	direct := env.nodes[0] + "," + env.nodes[1]
	// Replica B reaches each node through a proxy the run can cut.
	var proxies []*tcpproxy.Proxy
	for _, n := range env.nodes {
		p, err := tcpproxy.Start("127.0.0.1:0", n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		proxies = append(proxies, p)
	}
	viaProxy := proxies[0].Addr() + "," + proxies[1].Addr()
	start := func(name, hosts string) string {
		addr := freeAddr(t)
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "ADDR="+addr,
			"DATABASE_URL="+pgURL(hosts, "pokertote", "read-write"), "DATABASE_READ_URL="+pgURL(hosts, "pokertote", "prefer-standby"),
			"REDIS_SENTINELS="+env.sentinels, "REDIS_MASTER_NAME=mymaster", "REDIS_PREFIX=chaos:",
			"JWT_SECRET=test secret of at least thirty-two bytes!", "DOCUMENT_PEPPER=test pepper of at least thirty-two bytes!",
			"ADMIN_EMAIL="+testAdminEmail, "ADMIN_PASSWORD="+testAdminPassword,
			"DEMO_TABLES=false", "TIME_SCALE="+strconv.Itoa(toteScale), "LOG_LEVEL=warn")
		logf, err := os.Create(filepath.Join(env.dir, "log", "chaos-"+name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait(); logf.Close() })
		waitHealthy(t, addr)
		return addr
	}
	addrA := start("a", direct)
	addrB := start("b", viaProxy)
	clientA, clientB := gqltest.New(addrA), gqltest.New(addrB)

	admin := signIn(t, clientA, testAdminEmail, testAdminPassword)
	tableID := createTable(t, admin, unique("chaos"))
	const nPlayers = 8
	var players []player
	for i := range nPlayers {
		c := clientA
		if i%2 == 1 {
			c = clientB
		}
		players = append(players, newPlayer(t, c, "1000000.00"))
	}

	state := &tableState{}
	events := watch(t, clientA, tableID)
	go func() {
		for e := range events {
			state.observe(e)
		}
	}()

	primary, err := sql.Open("pgx", pgURL(direct, "pokertote", "read-write"))
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Close()
	primary.SetMaxOpenConns(2)

	// The load: each player bets 100.00 on a random position of the open
	// round, through their own replica, again and again; a bet answered
	// COMMIT_UNKNOWN (or not answered) is sent again with the same key
	// until it is answered.
	book := &betBook{acked: map[string]string{}, refused: map[string]int{}}
	ctx, stopLoad := context.WithCancel(context.Background())
	var load sync.WaitGroup
	var paused atomic.Bool
	for i, p := range players {
		load.Add(1)
		go func() {
			defer load.Done()
			for n := 0; ctx.Err() == nil; n++ {
				drawID, open := state.current()
				if !open || paused.Load() {
					time.Sleep(20 * time.Millisecond)
					continue
				}
				key := fmt.Sprintf("chaos-%d-%d", i, n)
				in := map[string]any{"drawId": drawID, "selection": map[string]any{"position": rand.IntN(6) + 1},
					"stake": "100.00", "idempotencyKey": key}
				sentAt := time.Now()
				for attempt := 0; ctx.Err() == nil; attempt++ {
					book.sent.Add(1)
					rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
					res, err := p.Client.Do(rctx, `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`, map[string]any{"in": in})
					cancel()
					reason := ""
					switch {
					case err != nil:
						reason = "TRANSPORT"
					case len(res.Errors) > 0:
						reason = res.Errors[0].Reason()
						if reason == "" {
							reason = res.Errors[0].Code()
						}
					}
					if reason == "" {
						var out struct{ PlaceBet struct{ ID string } }
						if err := json.Unmarshal(res.Data, &out); err != nil {
							t.Errorf("decode bet: %v", err)
							return
						}
						book.mu.Lock()
						book.acked[key] = out.PlaceBet.ID
						book.ackTimes = append(book.ackTimes, sentAt)
						book.ackAt = append(book.ackAt, time.Now())
						book.ackViaB = append(book.ackViaB, i%2 == 1)
						book.mu.Unlock()
						break
					}
					book.refuse(reason)
					if reason != "COMMIT_UNKNOWN" && reason != "TRANSPORT" && reason != "INTERNAL" {
						break // refused for good (the round closed, ...): a new bet
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
		}()
	}
	t.Cleanup(func() { stopLoad(); load.Wait() })

	ackedCount := func() int { book.mu.Lock(); defer book.mu.Unlock(); return len(book.acked) }
	waitFor := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out after %v waiting for %s", d, what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	// Replication lag at the bet load, before any fault.
	waitFor("bets to flow", 60*time.Second, func() bool { return ackedCount() > 50 })
	var lags []float64
	n0, t0 := ackedCount(), time.Now()
	for range 40 {
		var lag sql.NullFloat64
		if err := primary.QueryRow(`SELECT MAX(EXTRACT(EPOCH FROM replay_lag)) FROM pg_stat_replication`).Scan(&lag); err == nil && lag.Valid {
			lags = append(lags, lag.Float64*1000)
		}
		time.Sleep(250 * time.Millisecond)
	}
	rate := float64(ackedCount()-n0) / time.Since(t0).Seconds()
	sort.Float64s(lags)
	if len(lags) > 0 {
		t.Logf("FIGURE replica replay lag at %.0f bets/s: median %.1f ms, max %.1f ms (%d samples)", rate, lags[len(lags)/2], lags[len(lags)-1], len(lags))
	}

	invariants := func(phase string) {
		t.Helper()
		// Let bets in flight settle into acknowledged or refused.
		paused.Store(true)
		time.Sleep(2 * time.Second)
		defer paused.Store(false)
		checkMoney(t, primary, phase)
		book.mu.Lock()
		keys := make([]string, 0, len(book.acked))
		for k := range book.acked {
			keys = append(keys, k)
		}
		book.mu.Unlock()
		stored := map[string]int{}
		rows, err := primary.Query(`SELECT idempotency_key, count(*) FROM tote_bets WHERE idempotency_key LIKE 'chaos-%' GROUP BY idempotency_key`)
		if err != nil {
			t.Fatalf("%s: read bets: %v", phase, err)
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				t.Fatal(err)
			}
			stored[k] = n
		}
		rows.Close()
		lost, twice := 0, 0
		for _, k := range keys {
			switch stored[k] {
			case 0:
				lost++
			case 1:
			default:
				twice++
			}
		}
		t.Logf("FIGURE %s: %d acknowledged bets, %d lost, %d stored more than once (%d stored in all)", phase, len(keys), lost, twice, len(stored))
		if lost != 0 || twice != 0 {
			t.Errorf("%s: %d acknowledged bets lost, %d stored twice", phase, lost, twice)
		}
		state.mu.Lock()
		evs := append([]tableEvent(nil), state.events...)
		state.mu.Unlock()
		for i, e := range evs {
			if e.Seq != int64(i+1) {
				t.Fatalf("%s: event %d has seq %d: gap or duplicate in the table stream", phase, i, e.Seq)
			}
		}
		t.Logf("%s: table stream has %d events, no gap", phase, len(evs))
	}
	invariants("before faults")

	// (0) SIGKILL the standby. With one standby (number_sync_standbys 0)
	// the primary's commits wait for it until the monitor finds it gone
	// and lets the primary go on alone (wait_primary); then it rejoins.
	standbyNode := env.nodes[0]
	if p := primaryNode(t, env); p == standbyNode {
		standbyNode = env.nodes[1]
	}
	before := book.snapshotRefused()
	killedAt := time.Now()
	killNode(t, env, standbyNode)
	t.Logf("killed the Postgres standby %s (keeper and postmaster, SIGKILL)", standbyNode)
	waitFor("a bet accepted after the standby kill", 90*time.Second, func() bool { _, ok := book.firstAckSentAfter(killedAt, false); return ok })
	// The stall: the longest a bet sent after the kill took to be answered
	// is bounded below by the wait for the first acknowledged one.
	first, _ := book.firstAckSentAfter(killedAt, false)
	time.Sleep(3 * time.Second)
	var syncNames string
	_ = primary.QueryRow(`SHOW synchronous_standby_names`).Scan(&syncNames)
	stall := book.longestAckWait(killedAt, time.Now())
	t.Logf("FIGURE standby kill: first accepted bet sent %.1f s after the kill; longest wait for an answer among bets sent after it %.1f s; refused meanwhile: %s; primary alone with synchronous_standby_names=%q",
		first.Sub(killedAt).Seconds(), stall.Seconds(), diffCounts(book.snapshotRefused(), before), syncNames)
	invariants("after the standby kill")
	rejoin := exec.Command("../deploy/ha/up.sh")
	rejoin.Env = append(os.Environ(), "HA_SERVERS=0")
	if out, err := rejoin.CombinedOutput(); err != nil {
		t.Fatalf("rejoin the standby: %v\n%s", err, out)
	}
	t.Logf("the standby rejoined")

	// (1) SIGKILL the Postgres primary (its keeper and postmaster) with a
	// round open.
	waitFor("an open round", 60*time.Second, func() bool { _, open := state.current(); return open })
	oldPrimary := primaryNode(t, env)
	before = book.snapshotRefused()
	killedAt = time.Now()
	killNode(t, env, oldPrimary)
	t.Logf("killed the Postgres primary %s (keeper and postmaster, SIGKILL) in draw %s round %s", oldPrimary, state.drawID, state.round)
	waitFor("a bet accepted after the kill", 90*time.Second, func() bool { _, ok := book.firstAckSentAfter(killedAt, false); return ok })
	first, _ = book.firstAckSentAfter(killedAt, false)
	t.Logf("FIGURE primary kill: first accepted bet sent %.1f s after the kill; refused meanwhile: %s",
		first.Sub(killedAt).Seconds(), diffCounts(book.snapshotRefused(), before))
	newPrimary := primaryNode(t, env)
	if newPrimary == oldPrimary {
		t.Errorf("the primary is still %s", newPrimary)
	}
	invariants("after the primary kill")
	// The killed node rejoins as the standby (up.sh restarts its keeper).
	rejoin = exec.Command("../deploy/ha/up.sh")
	rejoin.Env = append(os.Environ(), "HA_SERVERS=0")
	if out, err := rejoin.CombinedOutput(); err != nil {
		t.Fatalf("rejoin: %v\n%s", err, out)
	}
	t.Logf("the old primary rejoined as the standby")

	// (2) Kill the Redis master.
	masterPort := redisMasterPort(t, env)
	state.mu.Lock()
	seqAtKill := len(state.events)
	state.mu.Unlock()
	killedAt = time.Now()
	killPidFile(t, filepath.Join(env.dir, "run", "redis-"+map[bool]string{true: "master", false: "replica"}[masterPort == env.redisMaster]+".pid"))
	waitFor("a new Redis master", 30*time.Second, func() bool { return redisMasterPort(t, env) != masterPort })
	electedAt := time.Now()
	waitFor("events after the new Redis master", 60*time.Second, func() bool {
		state.mu.Lock()
		defer state.mu.Unlock()
		return state.last.After(electedAt)
	})
	// Events flowing again: the first event that reached the subscriber
	// after the kill (published through the new master, or filled from the
	// outbox once the subscription was made again).
	state.mu.Lock()
	var flowing time.Time
	for _, at := range state.at[seqAtKill:] {
		if at.After(killedAt) {
			flowing = at
			break
		}
	}
	state.mu.Unlock()
	t.Logf("FIGURE redis master kill: new master :%s elected %.1f s after the kill; first table event delivered %.1f s after the kill",
		redisMasterPort(t, env), electedAt.Sub(killedAt).Seconds(), flowing.Sub(killedAt).Seconds())
	invariants("after the Redis master kill")
	restart := exec.Command("../deploy/ha/up.sh")
	restart.Env = append(os.Environ(), "HA_SERVERS=0")
	if out, err := restart.CombinedOutput(); err != nil {
		t.Fatalf("restart redis: %v\n%s", err, out)
	}

	// (3) Cut replica B from the database for 10 s.
	before = book.snapshotRefused()
	for _, p := range proxies {
		p.Cut()
	}
	cutAt := time.Now()
	time.Sleep(10 * time.Second)
	for _, p := range proxies {
		p.Restore()
	}
	restoredAt := time.Now()
	waitFor("a bet accepted after the partition", 60*time.Second, func() bool { _, ok := book.firstAckSentAfter(restoredAt, true); return ok })
	first, _ = book.firstAckSentAfter(restoredAt, true)
	t.Logf("FIGURE partition of replica B from Postgres for %.0f s: refused meanwhile %s; first bet accepted through B sent %.1f s after the restore",
		restoredAt.Sub(cutAt).Seconds(), diffCounts(book.snapshotRefused(), before), first.Sub(restoredAt).Seconds())
	invariants("after the partition")

	// Read load: results, verifyDraw and players' histories for 10 s with
	// the bets paused; the share of it served by the standby.
	paused.Store(true)
	// Read-your-writes by WAL position: a player's history goes to the
	// standby as soon as it has replayed their last bet. Only the players
	// whose writes had no known position during the partition (replica B
	// could not ask the primary) are held on the primary, for
	// sqldb.UnknownHold after it: wait that out.
	time.Sleep(sqldb.UnknownHold)
	var settled []string
	state.mu.Lock()
	for _, e := range state.events {
		if e.Type == "DRAW_SETTLED" {
			settled = append(settled, e.DrawID)
		}
	}
	state.mu.Unlock()
	stats := func() map[string]int64 {
		out := map[string]int64{}
		for _, n := range env.nodes {
			db, err := sql.Open("pgx", pgURL(n, "pokertote", "any"))
			if err != nil {
				t.Fatal(err)
			}
			var v int64
			var standby bool
			if err := db.QueryRow(`SELECT tup_returned, pg_is_in_recovery() FROM pg_stat_database WHERE datname = 'pokertote'`).Scan(&v, &standby); err != nil {
				t.Fatalf("stats of %s: %v", n, err)
			}
			db.Close()
			out[map[bool]string{true: "standby", false: "primary"}[standby]] = v
		}
		return out
	}
	s0 := stats()
	pa0, ra0 := metricReads(t, addrA)
	pb0, rb0 := metricReads(t, addrB)
	rctx, stopReads := context.WithTimeout(context.Background(), 10*time.Second)
	var reads sync.WaitGroup
	var nReads atomic.Int64
	for i := range 4 {
		reads.Add(1)
		go func() {
			defer reads.Done()
			c := []*gqltest.Client{admin, clientB}[i%2]
			for rctx.Err() == nil {
				var q string
				var vars map[string]any
				switch nReads.Add(1) % 3 {
				case 0:
					q, vars = `query($t: ID) { results(tableId: $t, first: 20) { edges { node { id phase } } } }`, map[string]any{"t": tableID}
					c = admin
				case 1:
					if len(settled) == 0 {
						continue
					}
					q, vars = `query($d: ID!) { verifyDraw(id: $d) { payoutsMatch } }`, map[string]any{"d": settled[rand.IntN(len(settled))]}
				default:
					q, vars, c = `{ myBets(first: 20) { edges { node { id } } } }`, nil, players[rand.IntN(len(players))].Client
				}
				_, _ = c.Do(rctx, q, vars)
			}
		}()
	}
	reads.Wait()
	stopReads()
	s1 := stats()
	pa, ra := metricReads(t, addrA)
	pb, rb := metricReads(t, addrB)
	prim := (pa - pa0) + (pb - pb0)
	repl := (ra - ra0) + (rb - rb0)
	dp, ds := s1["primary"]-s0["primary"], s1["standby"]-s0["standby"]
	ba, bb := metricBehind(t, addrA), metricBehind(t, addrB)
	t.Logf("FIGURE read load: %d queries in 10 s; repository reads %d on the standby, %d on the primary (%.0f %% off the primary; %d of the primary's waited for a player's write to replay); rows returned %d by the standby, %d by the primary (%.0f %% off the primary)",
		nReads.Load(), repl, prim, 100*float64(repl)/float64(max(1, repl+prim)), ba+bb, ds, dp, 100*float64(ds)/float64(max(1, ds+dp)))
	paused.Store(false)
	stopLoad()
	load.Wait()
	invariants("at the end")
	t.Logf("FIGURE bets: %d acknowledged, %d requests sent", ackedCount(), book.sent.Load())
}

// checkMoney runs every money invariant on the primary.
func checkMoney(t *testing.T, db *sql.DB, phase string) {
	t.Helper()
	checks := []struct{ what, sql string }{
		{"entries sum to zero", `SELECT count(*) FROM (SELECT SUM(amount) s FROM ledger_entries) x WHERE s <> 0`},
		{"each transfer sums to zero", `SELECT count(*) FROM (SELECT transfer_id FROM ledger_entries GROUP BY transfer_id HAVING SUM(amount) <> 0) x`},
		{"balances equal entries", `SELECT count(*) FROM ledger_accounts a LEFT JOIN (SELECT account_id, SUM(amount) s FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id WHERE a.balance <> COALESCE(e.s, 0)`},
		{"no negative wallet", `SELECT count(*) FROM ledger_accounts WHERE kind IN ('WALLET', 'ESCROW') AND balance < 0`},
		{"escrows of finished draws are zero", `SELECT count(*) FROM ledger_accounts a JOIN tote_draws d ON a.kind = 'ESCROW' AND split_part(a.ref, ':', 1) = CAST(d.id AS TEXT) WHERE d.phase IN ('SETTLED', 'VOID') AND a.balance <> 0`},
	}
	for _, c := range checks {
		var n int
		if err := db.QueryRow(c.sql).Scan(&n); err != nil {
			t.Fatalf("%s: %s: %v", phase, c.what, err)
		}
		if n != 0 {
			t.Errorf("%s: %s fails (%d rows)", phase, c.what, n)
		}
	}
	t.Logf("%s: money invariants hold", phase)
}

// primaryNode asks the monitor which node is the primary.
func primaryNode(t *testing.T, env haEnv) string {
	t.Helper()
	db, err := sql.Open("pgx", pgURL(env.monitor, "pg_auto_failover", "any"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var host string
	var port int
	deadline := time.Now().Add(60 * time.Second)
	for {
		err = db.QueryRow(`SELECT nodehost, nodeport FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary', 'single') AND goalstate IN ('primary', 'wait_primary', 'single') LIMIT 1`).Scan(&host, &port)
		if err == nil {
			return fmt.Sprintf("%s:%d", host, port)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no primary: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// killNode sends SIGKILL to a node's keeper (its process group) and its
// postmaster.
func killNode(t *testing.T, env haEnv, node string) {
	t.Helper()
	name := "node1"
	if node == env.nodes[1] {
		name = "node2"
	}
	pm, err := os.ReadFile(filepath.Join(env.dir, "pg", name, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	killPidFile(t, filepath.Join(env.dir, "run", name+".pid"))
	if pid, err := strconv.Atoi(strings.SplitN(string(pm), "\n", 2)[0]); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func killPidFile(t *testing.T, f string) {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL) // the process group, when it leads one
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// redisMasterPort asks a sentinel for the master's port.
func redisMasterPort(t *testing.T, env haEnv) string {
	t.Helper()
	for _, s := range strings.Split(env.sentinels, ",") {
		_, port, _ := strings.Cut(s, ":")
		out, err := exec.Command("redis-cli", "-p", port, "sentinel", "get-master-addr-by-name", "mymaster").Output()
		if err == nil {
			f := strings.Fields(string(bytes.TrimSpace(out)))
			if len(f) == 2 {
				return f[1]
			}
		}
	}
	t.Fatal("no sentinel answers")
	return ""
}

// metricLines scrapes a replica's /metrics, a line each.
func metricLines(t *testing.T, addr string) []string {
	t.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(res.Body)
	return strings.Split(buf.String(), "\n")
}

// metricBehind reads a replica's count of player reads sent to the
// primary because the standby had not replayed their write yet.
func metricBehind(t *testing.T, addr string) int64 {
	t.Helper()
	for _, line := range metricLines(t, addr) {
		if strings.HasPrefix(line, "pokertote_db_replica_behind_reads_total ") {
			f, _ := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			return int64(f)
		}
	}
	return 0
}

// metricReads reads a replica's repository reads per pool from /metrics.
func metricReads(t *testing.T, addr string) (primary, replica int64) {
	t.Helper()
	for _, line := range metricLines(t, addr) {
		if !strings.HasPrefix(line, "pokertote_db_plain_reads_total{") {
			continue
		}
		f, _ := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if strings.Contains(line, `pool="replica"`) {
			replica = int64(f)
		} else {
			primary = int64(f)
		}
	}
	return primary, replica
}
