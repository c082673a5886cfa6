package main

// The rolling workload: viewers and bettors on two (or more)
// replicas while scripts/rolling-restart.sh restarts them one after the
// other. It is the load balancer and the clients at once:
//   - a balancer polls every replica's /readyz (every 100 ms) and sends new
//     connections and requests to a ready one, as a load balancer's health
//     check does; it records when each replica was out of rotation;
//   - N viewers follow a table's events over WebSockets (graphql-transport-ws,
//     a share over the legacy graphql-ws), spread over the replicas. On a
//     close they reconnect through the balancer at once and resubscribe with
//     afterSeq = the last seq they saw; every seq that does not follow the
//     last is a gap (or a duplicate);
//   - bettors place bets open-loop at a fixed rate over HTTP; a bet that
//     meets a transport error, HTTP 503 or an UNAVAILABLE error is sent again
//     (the same idempotency key) through the balancer, up to 6 times; a bet
//     that never got an answer is failed. At the end every accepted bet is
//     looked up in its player's myBets (stored exactly once).
// It reports failed bets, gaps, the closes (by code) and reconnects per
// second since each replica left the rotation, and the time each replica
// was unready (and with none ready). Loopback only, bounded by -duration;
// it stops early when -stop-file appears.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

func init() {
	register("rolling", "viewers and bettors through a rolling restart of the replicas: failed bets, gaps, reconnects per second, time unready", runRolling)
}

// rollingQuery is what a viewer follows: the viewers workload's table view,
// resumable.
var rollingQuery = strings.Replace(strings.Replace(viewersQuery,
	`subscription($t: ID!)`, `subscription($t: ID!, $a: Int64)`, 1),
	`tableEvents(tableId: $t)`, `tableEvents(tableId: $t, afterSeq: $a)`, 1)

type rollingFlags struct {
	urls                      []string
	table                     string
	n, srcs, players          int
	legacy, betRate           float64
	duration                  time.Duration
	stopFile, adminEmail      string
	adminPassword, jsonReport string
	marks                     string
}

func runRolling(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("rolling", flag.ContinueOnError)
	var f rollingFlags
	urls := fs.String("urls", "http://127.0.0.1:18801/query,http://127.0.0.1:18802/query", "the replicas' GraphQL endpoints, comma-separated (loopback only)")
	fs.StringVar(&f.table, "table", "", "table id (default: the table with the most positions)")
	fs.IntVar(&f.n, "n", 1000, "viewers")
	fs.Float64Var(&f.legacy, "legacy", 0.1, "share of viewers on the legacy graphql-ws protocol")
	fs.IntVar(&f.srcs, "srcs", 4, "source addresses 127.0.0.2... the viewers dial from")
	fs.Float64Var(&f.betRate, "bet-rate", 20, "bets per second (open loop; 0: none)")
	fs.IntVar(&f.players, "players", 32, "players to prepare for the bets")
	fs.DurationVar(&f.duration, "duration", 3*time.Minute, "the longest run, after every viewer is connected")
	fs.StringVar(&f.stopFile, "stop-file", "", "stop (and report) as soon as this file exists")
	fs.StringVar(&f.adminEmail, "admin-email", os.Getenv("ADMIN_EMAIL"), "admin sign-in (default $ADMIN_EMAIL)")
	fs.StringVar(&f.adminPassword, "admin-password", os.Getenv("ADMIN_PASSWORD"), "admin password (default $ADMIN_PASSWORD)")
	fs.StringVar(&f.jsonReport, "json", "", "also write the report as JSON to this file")
	fs.StringVar(&f.marks, "marks", "", `the restart script's marks, lines "UNIX_SECONDS sigterm|ready REPLICA_INDEX": closes and reconnects are counted from each replica's SIGTERM`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	f.urls = splitURLs(*urls)
	if len(f.urls) < 2 {
		return errors.New("-urls: give at least two replicas")
	}
	for _, u := range f.urls {
		if err := loopbackOnly(u); err != nil {
			return err
		}
	}
	switch {
	case f.n < 1 || f.n > 20000:
		return errors.New("-n must be 1 to 20000")
	case f.duration <= 0 || f.duration > 15*time.Minute:
		return errors.New("-duration must be in (0, 15m]")
	case f.betRate < 0 || f.betRate > 500:
		return errors.New("-bet-rate must be 0 to 500")
	case f.betRate > 0 && (f.adminEmail == "" || f.adminPassword == ""):
		return errors.New("bets need -admin-email and -admin-password (or ADMIN_EMAIL/ADMIN_PASSWORD) as the servers were started with")
	}
	raiseFileLimit()
	return rolling(ctx, f)
}

func splitURLs(s string) []string {
	var out []string
	for _, u := range strings.Split(s, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// balancer is the load balancer: it polls /readyz of every replica and
// picks a ready one.
type balancer struct {
	urls  []string
	ready []atomic.Bool
	t0    time.Time
	next  atomic.Uint64

	mu    sync.Mutex
	spans [][]span // per replica: when it was out of rotation
	none  []span   // when no replica was ready
	// why: per replica, the health checks that failed by cause: draining
	// (503 DRAINING), stores (503: the database or Redis did not answer
	// within /readyz's budget), other (another status), silent (no answer).
	why []map[string]int
}

// span is a stretch of time, from the run's start.
type span struct{ from, to time.Duration }

func newBalancer(urls []string) *balancer {
	why := make([]map[string]int, len(urls))
	for i := range why {
		why[i] = map[string]int{}
	}
	return &balancer{urls: urls, ready: make([]atomic.Bool, len(urls)), spans: make([][]span, len(urls)), why: why, t0: time.Now()}
}

// poll checks every replica every 100 ms until ctx ends.
func (b *balancer) poll(ctx context.Context) {
	// As a load balancer's health check: an answer other than 200 takes
	// the replica out at once; no answer (refused, or none within 2 s)
	// only three times in a row, so that a slow moment on a loaded machine
	// is not counted as a restart.
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	up := make([]bool, len(b.urls))
	silent := make([]int, len(b.urls))
	for i := range up {
		up[i] = true
	}
	allDown := false
	check := func(i int, u string) bool {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(u, "/query")+"/readyz", nil)
		res, err := client.Do(req)
		if err != nil {
			silent[i]++
			b.mu.Lock()
			b.why[i]["silent"]++
			b.mu.Unlock()
			return silent[i] < 3 && up[i]
		}
		silent[i] = 0
		body, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			return true
		}
		cause := "other"
		switch {
		case bytes.Contains(body, []byte("DRAINING")):
			cause = "draining"
		case bytes.Contains(body, []byte("unavailable")):
			cause = "stores"
		}
		b.mu.Lock()
		b.why[i][cause]++
		b.mu.Unlock()
		return false
	}
	for ctx.Err() == nil {
		now := time.Since(b.t0)
		var wg sync.WaitGroup
		results := make([]bool, len(b.urls))
		for i, u := range b.urls {
			wg.Go(func() { results[i] = check(i, u) })
		}
		wg.Wait()
		b.mu.Lock()
		anyUp := false
		for i, ok := range results {
			b.ready[i].Store(ok)
			switch {
			case ok && !up[i]:
				b.spans[i][len(b.spans[i])-1].to = now
			case !ok && up[i]:
				b.spans[i] = append(b.spans[i], span{from: now, to: -1})
			}
			up[i] = ok
			anyUp = anyUp || ok
		}
		switch {
		case !anyUp && !allDown:
			b.none = append(b.none, span{from: now, to: -1})
		case anyUp && allDown:
			b.none[len(b.none)-1].to = now
		}
		allDown = !anyUp
		b.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// pick returns a ready replica (round robin), waiting while none is.
func (b *balancer) pick(ctx context.Context) (int, bool) {
	for ctx.Err() == nil {
		start := b.next.Add(1)
		for k := range uint64(len(b.urls)) {
			i := int((start + k) % uint64(len(b.urls)))
			if b.ready[i].Load() {
				return i, true
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
	return 0, false
}

// leftRotationLocked is when replica i last left the rotation before at
// (from the run's start), or -1. The health check sees a replica leave up
// to a poll (and, on a loaded machine, a slow answer) after its first
// close: a close up to 1 s before counts in that span.
func (b *balancer) leftRotationLocked(i int, at time.Duration) time.Duration {
	best := time.Duration(-1)
	for _, s := range b.spans[i] {
		if s.from <= at+time.Second {
			best = s.from
		}
	}
	return best
}

// rollStats is what the viewers and bettors saw.
type rollStats struct {
	mu sync.Mutex
	// closes by code; the restarts' (1012) times by replica; the
	// reconnects' (the new socket's connection_ack) times by the replica
	// that closed; bucketed per second since that replica left the
	// rotation at the end.
	closes    map[int]int
	closeAt   map[int][]time.Duration
	resumeAt  map[int][]time.Duration
	resumeLat []time.Duration // close to the new socket's connection_ack
	// event checks
	events, gaps, missing, dups, snapshots int64
	dialFails                              int
	// bets
	accepted, retried, failed int
	refused                   map[string]int
	failures                  map[string]int
	acceptedBy                map[string][]string // player → bet ids
}

func newRollStats() *rollStats {
	return &rollStats{closes: map[int]int{}, closeAt: map[int][]time.Duration{}, resumeAt: map[int][]time.Duration{},
		refused: map[string]int{}, failures: map[string]int{}, acceptedBy: map[string][]string{}}
}

// perSecondLocked buckets times by the second since replica i's last
// SIGTERM before them (from the marks), or, without marks, since it left
// the rotation (a time before it counts in second 0).
func (b *balancer) perSecondLocked(i int, times []time.Duration, sigterms []time.Duration) map[int]int {
	h := map[int]int{}
	for _, at := range times {
		from := time.Duration(-1)
		if len(sigterms) > 0 {
			for _, s := range sigterms {
				if s <= at {
					from = s
				}
			}
		} else {
			from = b.leftRotationLocked(i, at)
		}
		if from >= 0 {
			h[int(max(at-from, 0)/time.Second)]++
		}
	}
	return h
}

// mark is one line of the restart script's marks, from the run's start.
type mark struct {
	at      time.Duration
	what    string
	replica int
}

func readMarks(path string, t0 time.Time) []mark {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []mark
	for _, line := range strings.Split(string(b), "\n") {
		var secs float64
		var m mark
		if n, _ := fmt.Sscanf(line, "%f %s %d", &secs, &m.what, &m.replica); n == 3 {
			m.at = time.Unix(0, int64(secs*1e9)).Sub(t0)
			out = append(out, m)
		}
	}
	return out
}

func rolling(ctx context.Context, f rollingFlags) error {
	if f.table == "" {
		t, err := biggestTable(ctx, "ws"+strings.TrimPrefix(f.urls[0], "http"))
		if err != nil {
			return err
		}
		f.table = t
	}
	bal := newBalancer(f.urls)
	pollCtx, stopPoll := context.WithCancel(context.WithoutCancel(ctx))
	defer stopPoll()
	go bal.poll(pollCtx)
	st := newRollStats()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()

	httpc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 128, IdleConnTimeout: time.Minute}}
	var players []player
	if f.betRate > 0 {
		base := &gqlClient{http: httpc, url: f.urls[0]}
		admin, err := signInAdmin(ctx, base, f.adminEmail, f.adminPassword)
		if err != nil {
			return err
		}
		run := strconv.FormatInt(time.Now().UnixNano(), 36)
		if players, err = preparePlayers(ctx, base, admin, betsConfig{players: f.players, deposit: "10000000.00"}, run); err != nil {
			return err
		}
		fmt.Printf("rolling: %d players ready\n", len(players))
	}

	// Viewers, spread over the replicas and the source addresses.
	dialers := make([]*http.Client, max(f.srcs, 1))
	for i := range dialers {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i))}, Timeout: 10 * time.Second}
		dialers[i] = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	var connected sync.WaitGroup
	var viewers sync.WaitGroup
	sem := make(chan struct{}, 64)
	legacyEvery := 0
	if f.legacy > 0 {
		legacyEvery = max(int(1/f.legacy), 1)
	}
	for i := range f.n {
		connected.Add(1)
		viewers.Go(func() {
			v := &rollViewer{i: i, legacy: legacyEvery > 0 && i%legacyEvery == 0, table: f.table, http: dialers[i%len(dialers)],
				bal: bal, st: st, last: -1, first: &connected, sem: sem, replica: i % len(f.urls)}
			v.run(runCtx)
		})
	}
	connected.Wait()
	fmt.Printf("rolling: %d viewers streaming on table %s; measuring (restart the replicas now)\n", f.n, f.table)
	measureStart := time.Since(bal.t0)

	// Bets, open loop.
	var bettors sync.WaitGroup
	var drawID atomic.Value
	drawID.Store("")
	if f.betRate > 0 {
		bettors.Go(func() { followDraw(runCtx, bal, httpc, f.table, &drawID) })
		bettors.Go(func() { betOpenLoop(runCtx, f, bal, httpc, players, &drawID, st) })
	}

	// Until -duration, or the stop file, or ctx.
	deadline := time.After(f.duration)
	tick := time.NewTicker(100 * time.Millisecond)
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case <-deadline:
			break wait
		case <-tick.C:
			if f.stopFile != "" {
				if _, err := os.Stat(f.stopFile); err == nil {
					break wait
				}
			}
		}
	}
	tick.Stop()
	measured := time.Since(bal.t0) - measureStart
	stop()
	bettors.Wait()
	viewers.Wait()
	stopPoll()

	// Every accepted bet stored exactly once.
	vctx := context.WithoutCancel(ctx)
	lost, extra := 0, 0
	for _, p := range players {
		i, _ := bal.pickAny()
		ids, err := allBetIDs(vctx, &gqlClient{http: httpc, url: f.urls[i], token: p.client.token})
		if err != nil {
			return fmt.Errorf("checking %s's bets: %w", p.id, err)
		}
		stored := map[string]int{}
		for _, id := range ids {
			stored[id]++
		}
		st.mu.Lock()
		for _, id := range st.acceptedBy[p.id] {
			switch stored[id] {
			case 0:
				lost++
			case 1:
			default:
				extra++
			}
			delete(stored, id)
		}
		st.mu.Unlock()
		extra += len(stored) // stored, never answered as accepted
	}
	return rollingReport(f, bal, st, measured, lost, extra)
}

// pickAny returns a ready replica if one is, else the first.
func (b *balancer) pickAny() (int, bool) {
	for i := range b.urls {
		if b.ready[i].Load() {
			return i, true
		}
	}
	return 0, false
}

// rollViewer is one viewer: a stream it resumes across closes.
type rollViewer struct {
	i       int
	legacy  bool
	table   string
	http    *http.Client
	bal     *balancer
	st      *rollStats
	last    int64 // the last seq seen, -1 before the first
	first   *sync.WaitGroup
	sem     chan struct{}
	replica int // the replica of the first connection (spread evenly); then the balancer's pick
}

func (v *rollViewer) run(ctx context.Context) {
	firstDone := false
	markFirst := func() {
		if !firstDone {
			firstDone = true
			v.first.Done()
		}
	}
	defer markFirst()
	var closedAt time.Time
	closedBy := -1
	attempt := 0
	for ctx.Err() == nil {
		i := v.replica
		if firstDone || attempt > 0 {
			var ok bool
			if i, ok = v.bal.pick(ctx); !ok {
				return
			}
		}
		if !firstDone {
			v.sem <- struct{}{}
		}
		c, err := v.dial(ctx, v.bal.urls[i])
		if !firstDone {
			<-v.sem
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			v.st.mu.Lock()
			v.st.dialFails++
			v.st.mu.Unlock()
			attempt++
			time.Sleep(time.Duration(min(attempt, 10)) * 100 * time.Millisecond)
			continue
		}
		attempt = 0
		if closedBy >= 0 {
			v.st.mu.Lock()
			v.st.resumeLat = append(v.st.resumeLat, time.Since(closedAt))
			v.st.resumeAt[closedBy] = append(v.st.resumeAt[closedBy], time.Since(v.bal.t0))
			v.st.mu.Unlock()
			closedBy = -1
		}
		code := v.read(ctx, c, markFirst)
		_ = c.CloseNow()
		if ctx.Err() != nil {
			return
		}
		closedAt = time.Now()
		at := time.Since(v.bal.t0)
		v.st.mu.Lock()
		v.st.closes[code]++
		if code == 1012 {
			v.st.closeAt[i] = append(v.st.closeAt[i], at)
		}
		v.st.mu.Unlock()
		closedBy = i
	}
}

// dial opens the socket and subscribes from the last seq seen.
func (v *rollViewer) dial(ctx context.Context, url string) (*websocket.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	proto, start := "graphql-transport-ws", "subscribe"
	if v.legacy {
		proto, start = "graphql-ws", "start"
	}
	c, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(url, "http"), &websocket.DialOptions{HTTPClient: v.http, Subprotocols: []string{proto}})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	if err := c.Write(dctx, websocket.MessageText, []byte(`{"type":"connection_init","payload":{}}`)); err != nil {
		_ = c.CloseNow()
		return nil, err
	}
	for {
		_, msg, err := c.Read(dctx)
		if err != nil {
			_ = c.CloseNow()
			return nil, err
		}
		if bytes.Contains(msg, []byte(`"connection_ack"`)) {
			break
		}
	}
	vars := map[string]any{"t": v.table}
	if v.last >= 0 {
		vars["a"] = v.last
	}
	sub, _ := json.Marshal(map[string]any{"id": "1", "type": start, "payload": map[string]any{"query": rollingQuery, "variables": vars}})
	if err := c.Write(dctx, websocket.MessageText, sub); err != nil {
		_ = c.CloseNow()
		return nil, err
	}
	return c, nil
}

var typenameSnapshot = []byte(`"__typename":"TableSnapshot"`)

// read checks each event's seq against the last until the stream ends,
// and returns the close code (-1: none, 0: the stream completed). first
// is called at the stream's first event.
func (v *rollViewer) read(ctx context.Context, c *websocket.Conn, first func()) int {
	started := false
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			return int(websocket.CloseStatus(err))
		}
		// The server writes a message's type last.
		switch {
		case bytes.HasSuffix(msg, []byte(`"type":"ping"}`)):
			_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"pong"}`))
			continue
		case bytes.HasSuffix(msg, []byte(`"type":"ka"}`)):
			continue
		case bytes.HasSuffix(msg, []byte(`"type":"complete"}`)), bytes.HasSuffix(msg, []byte(`"type":"error"}`)):
			return 0
		}
		k := bytes.Index(msg, seqKey)
		if k < 0 {
			continue
		}
		rest := msg[k+len(seqKey):]
		end := bytes.IndexAny(rest, ",}")
		seq, err := strconv.ParseInt(string(rest[:max(end, 0)]), 10, 64)
		if err != nil {
			continue
		}
		if !started {
			started = true
			first()
		}
		v.st.mu.Lock()
		v.st.events++
		switch {
		case bytes.Contains(msg, typenameSnapshot):
			v.st.snapshots++
			v.last = seq
		case v.last < 0 || seq == v.last+1:
			v.last = seq
		case seq <= v.last:
			v.st.dups++
		default:
			v.st.gaps++
			v.st.missing += seq - v.last - 1
			v.last = seq
		}
		v.st.mu.Unlock()
	}
}

// followDraw keeps drawID on the table's draw with an open round.
func followDraw(ctx context.Context, bal *balancer, httpc *http.Client, table string, drawID *atomic.Value) {
	for ctx.Err() == nil {
		if i, ok := bal.pick(ctx); ok {
			var out struct {
				Table struct {
					CurrentDraw *struct {
						ID        string  `json:"id"`
						OpenRound *string `json:"openRound"`
					} `json:"currentDraw"`
				} `json:"table"`
			}
			c := &gqlClient{http: httpc, url: bal.urls[i]}
			if c.do(ctx, `query($t: ID!) { table(id: $t) { currentDraw { id openRound } } }`, map[string]any{"t": table}, &out) == nil {
				if cd := out.Table.CurrentDraw; cd != nil && cd.OpenRound != nil {
					drawID.Store(cd.ID)
				}
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// betOpenLoop places f.betRate bets a second until ctx ends.
func betOpenLoop(ctx context.Context, f rollingFlags, bal *balancer, httpc *http.Client, players []player, drawID *atomic.Value, st *rollStats) {
	interval := time.Duration(float64(time.Second) / f.betRate)
	var wg sync.WaitGroup
	defer wg.Wait()
	next := time.Now()
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	for n := 0; ctx.Err() == nil; n++ {
		next = next.Add(interval)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		d, _ := drawID.Load().(string)
		if d == "" {
			continue
		}
		p := players[n%len(players)]
		key := fmt.Sprintf("roll-%s-%d", run, n)
		wg.Go(func() { placeRolling(ctx, bal, httpc, p, d, key, st) })
	}
}

// placeRolling places one bet, sending it again (the same idempotency key)
// through the balancer after a transport error, a 503 or UNAVAILABLE.
func placeRolling(ctx context.Context, bal *balancer, httpc *http.Client, p player, draw, key string, st *rollStats) {
	r := rand.New(rand.NewPCG(uint64(len(key)), uint64(time.Now().UnixNano())))
	in := map[string]any{"drawId": draw, "selection": betSelection(0, 6, r), "stake": "100.00", "idempotencyKey": key}
	var last string
	// Not cut short by the end of the run: a bet sent is followed to its answer.
	bctx := context.WithoutCancel(ctx)
	for attempt := range 6 {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
		}
		i, ok := bal.pick(bctx)
		if !ok {
			break
		}
		var out struct {
			PlaceBet struct {
				ID string `json:"id"`
			} `json:"placeBet"`
		}
		c := &gqlClient{http: httpc, url: bal.urls[i], token: p.client.token}
		err := c.do(bctx, placeBetMutation, map[string]any{"in": in}, &out)
		var ge gqlError
		switch {
		case err == nil:
			st.mu.Lock()
			st.accepted++
			if attempt > 0 {
				st.retried++
			}
			st.acceptedBy[p.id] = append(st.acceptedBy[p.id], out.PlaceBet.ID)
			st.mu.Unlock()
			return
		case errors.As(err, &ge) && gameRefusals[ge.Extensions.Reason]:
			// An answer: the bet was refused by the game (a round that
			// closed, a suspended selection), not by the restart.
			st.mu.Lock()
			st.refused[ge.Extensions.Code+"/"+ge.Extensions.Reason]++
			if attempt > 0 {
				st.retried++
			}
			st.mu.Unlock()
			return
		case errors.As(err, &ge) && ge.Extensions.Code != "UNAVAILABLE" && ge.Extensions.Reason != "COMMIT_UNKNOWN":
			// Any other answer is final, and a failure of the run.
			st.mu.Lock()
			st.failed++
			st.failures[ge.Extensions.Code+"/"+ge.Extensions.Reason]++
			st.mu.Unlock()
			return
		case errors.As(err, &ge):
			last = ge.Extensions.Code + "/" + ge.Extensions.Reason
		default:
			last = "TRANSPORT: " + shortErr(err)
		}
	}
	st.mu.Lock()
	st.failed++
	st.failures[last]++
	st.mu.Unlock()
}

// gameRefusals are the refusals a bet meets in the normal course of the
// game: the open round closed (or the draw finished) between the loadgen's
// look at the draw and the bet, or the selection was suspended.
var gameRefusals = map[string]bool{"ROUND_CLOSED": true, "DRAW_FINISHED": true, "SELECTION_SUSPENDED": true, "MARKET_NOT_OFFERED_IN_ROUND": true}

func shortErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

// allBetIDs pages through the player's bets.
func allBetIDs(ctx context.Context, c *gqlClient) ([]string, error) {
	var ids []string
	after := ""
	for range 1000 {
		var out struct {
			MyBets struct {
				Edges []struct {
					Node struct {
						ID string `json:"id"`
					} `json:"node"`
				} `json:"edges"`
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
			} `json:"myBets"`
		}
		vars := map[string]any{}
		if after != "" {
			vars["after"] = after
		}
		if err := c.do(ctx, `query($after: String) { myBets(first: 100, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`, vars, &out); err != nil {
			return nil, err
		}
		for _, e := range out.MyBets.Edges {
			ids = append(ids, e.Node.ID)
		}
		if !out.MyBets.PageInfo.HasNextPage {
			return ids, nil
		}
		after = out.MyBets.PageInfo.EndCursor
	}
	return nil, errors.New("more than 100,000 bets")
}

func rollingReport(f rollingFlags, bal *balancer, st *rollStats, measured time.Duration, lost, extra int) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	bal.mu.Lock()
	defer bal.mu.Unlock()
	report := map[string]any{
		"viewers": f.n, "measured_s": measured.Seconds(), "bets_accepted": st.accepted, "bets_failed": st.failed,
		"bets_retried": st.retried, "bets_refused": st.refused, "bets_failures": st.failures,
		"bets_lost": lost, "bets_extra": extra,
		"events": st.events, "gaps": st.gaps, "missing": st.missing, "duplicates": st.dups, "snapshots": st.snapshots,
		"dial_failures": st.dialFails,
	}
	fmt.Printf("rolling: %d viewers (%.0f %% graphql-ws), %.0f bets/s, %s measured\n", f.n, 100*f.legacy, f.betRate, measured.Round(time.Millisecond))
	fmt.Printf("  bets       accepted %d, refused by the game %d, failed %d (goal 0), sent again %d; stored: %d missing, %d extra (goal 0)\n",
		st.accepted, sum(st.refused), st.failed, st.retried, lost, extra)
	for _, r := range sortedKeys(st.refused) {
		fmt.Printf("             refused %-36s %d\n", r, st.refused[r])
	}
	for _, r := range sortedKeys(st.failures) {
		fmt.Printf("             failed  %-36s %d\n", r, st.failures[r])
	}
	fmt.Printf("  events     %d delivered, %d gaps (%d seqs missing), %d duplicates (goal 0); %d snapshots (%d at the first connection)\n",
		st.events, st.gaps, st.missing, st.dups, st.snapshots, f.n)
	codes := map[string]int{}
	for code, n := range st.closes {
		codes[strconv.Itoa(code)] = n
	}
	report["closes_by_code"] = codes
	fmt.Printf("  closes     by code %v (1012: restart; -1: no close frame), reconnect dials refused %d\n", st.closes, st.dialFails)
	unready := map[string]any{}
	marks := readMarks(f.marks, bal.t0)
	for i, u := range bal.urls {
		var sigterms []time.Duration
		var restarts []string
		var sig time.Duration = -1
		for _, m := range marks {
			if m.replica != i {
				continue
			}
			switch m.what {
			case "sigterm":
				sigterms = append(sigterms, m.at)
				sig = m.at
			case "ready":
				if sig >= 0 {
					restarts = append(restarts, fmt.Sprintf("%.1fs", (m.at-sig).Seconds()))
					sig = -1
				}
			}
		}
		if len(restarts) > 0 {
			fmt.Printf("  restart    %s: SIGTERM to ready again (the new process) %s\n", u, strings.Join(restarts, ", "))
			report[fmt.Sprintf("replica%d_sigterm_to_ready", i)] = restarts
		}
		var spans []string
		var total time.Duration
		for _, s := range bal.spans[i] {
			to := s.to
			if to < 0 {
				to = time.Since(bal.t0)
			}
			total += to - s.from
			spans = append(spans, fmt.Sprintf("%.1fs from %.1fs", (to-s.from).Seconds(), s.from.Seconds()))
		}
		unready[u] = map[string]any{"total_s": total.Seconds(), "spans": spans, "failed_checks": bal.why[i]}
		fmt.Printf("  unready    %s, as the balancer saw it: %s in all (%s); failed checks by cause %v\n", u, total.Round(100*time.Millisecond), strings.Join(spans, ", "), bal.why[i])
		closes, resumes := bal.perSecondLocked(i, st.closeAt[i], sigterms), bal.perSecondLocked(i, st.resumeAt[i], sigterms)
		since := "it left the rotation"
		if len(sigterms) > 0 {
			since = "its SIGTERM"
		}
		fmt.Printf("  closes/s   1012 of %s, by second since %s: %s\n", u, since, histogram(closes))
		fmt.Printf("  resumed/s  its viewers reconnected (elsewhere), by second since then: %s\n", histogram(resumes))
		report[fmt.Sprintf("replica%d_closes_per_s", i)] = histogramList(closes)
		report[fmt.Sprintf("replica%d_resumes_per_s", i)] = histogramList(resumes)
	}
	var none time.Duration
	for _, s := range bal.none {
		to := s.to
		if to < 0 {
			to = time.Since(bal.t0)
		}
		none += to - s.from
	}
	report["unready"] = unready
	report["none_ready_s"] = none.Seconds()
	fmt.Printf("  no replica ready for %s in all (goal 0)\n", none.Round(100*time.Millisecond))
	sort.Slice(st.resumeLat, func(i, j int) bool { return st.resumeLat[i] < st.resumeLat[j] })
	pct := func(q float64) float64 {
		if len(st.resumeLat) == 0 {
			return 0
		}
		return float64(st.resumeLat[int(q*float64(len(st.resumeLat)-1))].Microseconds()) / 1000
	}
	report["reconnect_p50_ms"], report["reconnect_p99_ms"], report["reconnect_max_ms"] = pct(0.5), pct(0.99), pct(1)
	fmt.Printf("  reconnect  close to the new socket's connection_ack: p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d reconnects)\n", pct(0.5), pct(0.99), pct(1), len(st.resumeLat))
	b, _ := json.Marshal(report)
	fmt.Printf("RESULT %s\n", b)
	if f.jsonReport != "" {
		return os.WriteFile(f.jsonReport, b, 0o644)
	}
	return nil
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// histogram prints counts per second: "0s:412 1s:498 ...".
func histogram(h map[int]int) string {
	if len(h) == 0 {
		return "(none)"
	}
	var parts []string
	for _, s := range histogramList(h) {
		parts = append(parts, fmt.Sprintf("%ds:%d", s[0], s[1]))
	}
	return strings.Join(parts, " ")
}

func histogramList(h map[int]int) [][2]int {
	var secs []int
	for s := range h {
		secs = append(secs, s)
	}
	sort.Ints(secs)
	out := make([][2]int, 0, len(secs))
	for _, s := range secs {
		out = append(out, [2]int{s, h[s]})
	}
	return out
}
