package main

// The bets workload: the round-close surge. It prepares players
// through the public API (admin sign-in, register, verification, deposit),
// opens a table whose first round stays open for the run, and places bets
// with placeBet over GraphQL/HTTP with JWT, either closed-loop (C clients,
// each sending its next bet when the last one is answered) or open-loop (a
// fixed rate, latency counted from the scheduled send so a slow server is
// not hidden). It reports accepted bets per second, refusals by reason and
// latency percentiles, and a last RESULT line for scripts.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pokertote/pokertote/domain/parimutuel"
)

func init() {
	register("bets", "placeBet surge: prepares players, bets closed-loop (-clients) or open-loop (-rate), reports accepted/s and p50/p99/p999", runBets)
}

// betsConfig is the bets workload's flags.
type betsConfig struct {
	url           string
	adminEmail    string
	adminPassword string
	players       int
	clients       int
	rate          float64
	duration      time.Duration
	count         int64
	pools         int
	tableID       string
	positions     int
	deposit       string
	stake         string
	warmup        time.Duration
}

func parseBetsFlags(args []string) (betsConfig, error) {
	var c betsConfig
	fs := flag.NewFlagSet("bets", flag.ContinueOnError)
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080/query", "the server's GraphQL endpoint (loopback only)")
	fs.StringVar(&c.adminEmail, "admin-email", os.Getenv("ADMIN_EMAIL"), "admin sign-in (default $ADMIN_EMAIL)")
	fs.StringVar(&c.adminPassword, "admin-password", os.Getenv("ADMIN_PASSWORD"), "admin password (default $ADMIN_PASSWORD)")
	fs.IntVar(&c.players, "players", 64, "players to prepare")
	fs.IntVar(&c.clients, "clients", 8, "closed-loop clients (concurrent requests)")
	fs.Float64Var(&c.rate, "rate", 0, "open-loop bets per second (0: closed loop)")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "how long to bet (after warm-up)")
	fs.Int64Var(&c.count, "count", 0, "stop after this many requests (0: no limit besides -duration)")
	fs.IntVar(&c.pools, "pools", 1, "pools to spread bets over: the first n markets of the registry ("+poolsHelp()+")")
	fs.StringVar(&c.tableID, "table", "", "bet on this table's draws instead of creating a table")
	fs.IntVar(&c.positions, "positions", 10, "positions of the created table")
	fs.StringVar(&c.deposit, "deposit", "10000000.00", "deposit per player")
	fs.StringVar(&c.stake, "stake", "100.00", "stake per bet")
	fs.DurationVar(&c.warmup, "warmup", 2*time.Second, "betting before measuring starts")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	u, err := url.Parse(c.url)
	if err != nil {
		return c, fmt.Errorf("-url: %w", err)
	}
	if h := u.Hostname(); h != "127.0.0.1" && h != "localhost" && h != "::1" {
		return c, fmt.Errorf("-url must target loopback, not %q", h)
	}
	switch {
	case c.adminEmail == "" || c.adminPassword == "":
		return c, errors.New("give -admin-email and -admin-password (or ADMIN_EMAIL/ADMIN_PASSWORD) as the server was started with")
	case c.players < 1 || c.clients < 1 || c.pools < 1 || c.pools > len(parimutuel.Production().Markets()):
		return c, fmt.Errorf("-players and -clients must be positive, -pools 1 to %d", len(parimutuel.Production().Markets()))
	case c.duration <= 0 || c.duration > time.Hour:
		return c, errors.New("-duration must be in (0, 1h]")
	}
	return c, nil
}

// gqlClient speaks GraphQL over HTTP with a bearer token.
type gqlClient struct {
	http  *http.Client
	url   string
	token string
	key   string // an affiliate's API key (X-API-Key), instead of a token
}

// gqlError is one GraphQL error's stable code and reason.
type gqlError struct {
	Message    string `json:"message"`
	Extensions struct {
		Code   string `json:"code"`
		Reason string `json:"reason"`
	} `json:"extensions"`
}

func (e gqlError) Error() string {
	return fmt.Sprintf("%s/%s: %s", e.Extensions.Code, e.Extensions.Reason, e.Message)
}

// do runs query and decodes data into out; a GraphQL error comes back as
// a gqlError.
func (c *gqlClient) do(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.key != "" {
		req.Header.Set("X-API-Key", c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlError      `json:"errors"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)
	}
	if len(env.Errors) > 0 {
		return env.Errors[0]
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

// signInAdmin signs the admin in through c and returns c with their token.
func signInAdmin(ctx context.Context, c *gqlClient, email, password string) (*gqlClient, error) {
	var login struct {
		Login struct {
			AccessToken string `json:"accessToken"`
		} `json:"login"`
	}
	if err := c.do(ctx, `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }`,
		map[string]any{"e": email, "p": password}, &login); err != nil {
		return nil, fmt.Errorf("admin sign-in: %w", err)
	}
	return c.with(login.Login.AccessToken), nil
}

func (c *gqlClient) with(token string) *gqlClient {
	return &gqlClient{http: c.http, url: c.url, token: token}
}

// player is a prepared bettor.
type player struct {
	id     string
	client *gqlClient
}

func runBets(ctx context.Context, args []string) error {
	cfg, err := parseBetsFlags(args)
	if err != nil {
		return err
	}
	conns := max(cfg.clients, 64)
	if cfg.rate > 0 {
		conns = 1024
	}
	base := &gqlClient{url: cfg.url, http: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: time.Minute},
	}}
	admin, err := signInAdmin(ctx, base, cfg.adminEmail, cfg.adminPassword)
	if err != nil {
		return err
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)

	tableID := cfg.tableID
	if tableID == "" {
		var out struct {
			CreateTable struct {
				ID string `json:"id"`
			} `json:"createTable"`
		}
		if err := admin.do(ctx, `mutation($n: String!, $p: Int!) { createTable(input: {name: $n, positions: $p, minStake: "100.00", maxStake: "50000.00", roundSeconds: [3600, 20, 20, 20]}) { id } }`,
			map[string]any{"n": "loadgen " + run, "p": cfg.positions}, &out); err != nil {
			return fmt.Errorf("create table: %w", err)
		}
		tableID = out.CreateTable.ID
	}
	fmt.Printf("bets: table %s, preparing %d players...\n", tableID, cfg.players)
	t0 := time.Now()
	players, err := preparePlayers(ctx, base, admin, cfg, run)
	if err != nil {
		return err
	}
	fmt.Printf("bets: %d players ready in %s\n", len(players), time.Since(t0).Round(time.Millisecond))

	draws := &drawTracker{admin: admin, tableID: tableID}
	if err := draws.refresh(ctx); err != nil {
		return err
	}
	st := newBetStats()
	return betLoop(ctx, cfg, players, draws, st)
}

// preparePlayers registers, verifies and funds cfg.players players, eight
// at a time.
func preparePlayers(ctx context.Context, base, admin *gqlClient, cfg betsConfig, run string) ([]player, error) {
	players := make([]player, cfg.players)
	errc := make(chan error, cfg.players)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range players {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p, err := preparePlayer(ctx, base, admin, cfg, run, i)
			if err != nil {
				errc <- fmt.Errorf("player %d: %w", i, err)
				return
			}
			players[i] = p
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return nil, err
	}
	return players, nil
}

func preparePlayer(ctx context.Context, base, admin *gqlClient, cfg betsConfig, run string, i int) (player, error) {
	var reg struct {
		Register struct {
			AccessToken string `json:"accessToken"`
			User        struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"register"`
	}
	var terms struct {
		Terms struct {
			Version string `json:"version"`
		} `json:"terms"`
	}
	if err := base.do(ctx, `{ terms { version } }`, nil, &terms); err != nil {
		return player{}, fmt.Errorf("terms: %w", err)
	}
	in := map[string]any{"email": fmt.Sprintf("lg-%s-%d@example.com", run, i), "password": "loadgen-password-" + run,
		"name": fmt.Sprintf("Loadgen %d", i), "dateOfBirth": "1990-05-17", "acceptedTerms": terms.Terms.Version}
	if err := base.do(ctx, `mutation($in: RegisterInput!) { register(input: $in) { accessToken user { id } } }`, map[string]any{"in": in}, &reg); err != nil {
		return player{}, fmt.Errorf("register: %w", err)
	}
	p := player{id: reg.Register.User.ID, client: base.with(reg.Register.AccessToken)}
	var sub struct {
		SubmitVerification struct {
			ID string `json:"id"`
		} `json:"submitVerification"`
	}
	doc := fmt.Sprintf("L%s%d", run, i)
	if len(doc) > 20 {
		doc = doc[len(doc)-20:]
	}
	if err := p.client.do(ctx, `mutation($n: String!) { submitVerification(input: {documentType: ID_CARD, documentNumber: $n, dateOfBirth: "1990-05-17"}) { id } }`,
		map[string]any{"n": doc}, &sub); err != nil {
		return player{}, fmt.Errorf("submit verification: %w", err)
	}
	if err := admin.do(ctx, `mutation($id: ID!) { decideVerification(input: {id: $id, approve: true}) { status } }`,
		map[string]any{"id": sub.SubmitVerification.ID}, nil); err != nil {
		return player{}, fmt.Errorf("approve verification: %w", err)
	}
	if err := admin.do(ctx, `mutation($u: ID!, $a: Money!, $k: String!) { deposit(input: {userId: $u, amount: $a, idempotencyKey: $k}) { balance } }`,
		map[string]any{"u": p.id, "a": cfg.deposit, "k": "loadgen-" + run + "-" + p.id}, nil); err != nil {
		return player{}, fmt.Errorf("deposit: %w", err)
	}
	return p, nil
}

// drawTracker knows the table's open draw and finds the next one when a
// round closes.
type drawTracker struct {
	admin   *gqlClient
	tableID string
	mu      sync.Mutex
	drawID  string
	round   string
	checked time.Time
}

func (d *drawTracker) current() (string, string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.drawID, d.round
}

// refresh waits (up to a minute) for a draw with an open round.
func (d *drawTracker) refresh(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if time.Since(d.checked) < 200*time.Millisecond && d.drawID != "" {
		return nil
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var out struct {
			Table struct {
				CurrentDraw *struct {
					ID        string  `json:"id"`
					OpenRound *string `json:"openRound"`
				} `json:"currentDraw"`
			} `json:"table"`
		}
		err := d.admin.do(ctx, `query($t: ID!) { table(id: $t) { currentDraw { id openRound } } }`, map[string]any{"t": d.tableID}, &out)
		if err != nil {
			return fmt.Errorf("find the open draw: %w", err)
		}
		if cd := out.Table.CurrentDraw; cd != nil && cd.OpenRound != nil {
			d.drawID, d.round, d.checked = cd.ID, *cd.OpenRound, time.Now()
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("no draw opened a round within a minute")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// betStats collects outcomes and latencies.
type betStats struct {
	mu        sync.Mutex
	measuring bool
	// cpu0 is the generator's own CPU time when measuring began.
	cpu0     time.Duration
	start    time.Time
	accepted int64
	refused  map[string]int64
	lat      []time.Duration // accepted bets' latencies
	// lag is, in the open loop, how late each request left against its
	// schedule (the generator's own delay, counted in lat too).
	lag []time.Duration
	// offered counts, in the open loop, the sends scheduled inside the
	// measured window, each counted once whatever became of it (sent,
	// answered, refused, never answered, or not even sent because the
	// generator's in-flight bound was full).
	offered int64
	// unsent counts scheduled sends the generator could not make (its
	// in-flight bound full until the schedule ended).
	unsent int64
}

// offer counts a send scheduled now and says whether it falls inside the
// measured window (the open loop decides by schedule, not by answer).
func (s *betStats) offer() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.measuring {
		s.offered++
	}
	return s.measuring
}

func newBetStats() *betStats { return &betStats{refused: map[string]int64{}} }

func (s *betStats) late(lag time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.measuring {
		s.lag = append(s.lag, lag)
	}
}

func (s *betStats) record(lat time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.measuring {
		return
	}
	s.recordLocked(lat, err)
}

// recordIn records an open-loop send that offer counted in the window,
// whenever its answer comes.
func (s *betStats) recordIn(lat time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordLocked(lat, err)
}

func (s *betStats) recordLocked(lat time.Duration, err error) {
	if err == nil {
		s.accepted++
		s.lat = append(s.lat, lat)
		return
	}
	var ge gqlError
	reason := "TRANSPORT"
	if errors.As(err, &ge) {
		reason = ge.Extensions.Code + "/" + ge.Extensions.Reason
	} else if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		reason = "CANCELLED"
	}
	s.refused[reason]++
}

// betSelection is a random selection (SelectionInput) of pool i, the
// production registry's i-th market (WIN, COMBINATION, EXPRESS, ...), for
// a table of n positions: written in the market's input field, by its
// shape.
func betSelection(pool, n int, r *rand.Rand) map[string]any {
	spec := parimutuel.Production().Specs()[pool]
	sels := poolSelections(spec, n)
	s := sels[r.IntN(len(sels))]
	switch spec.Shape {
	case parimutuel.CategoryShape:
		return map[string]any{spec.Input: s.Combination.String()}
	case parimutuel.CouponShape:
		return map[string]any{spec.Input: map[string]any{"flop": s.Coupon.Flop, "turn": s.Coupon.Turn, "river": s.Coupon.River}}
	}
	return map[string]any{spec.Input: s.Position}
}

// selectionsBy caches poolSelections by market and table size.
var selectionsBy sync.Map // struct{m parimutuel.Market; n int} -> []parimutuel.Selection

// poolSelections are the selections the load bets on in a market: every
// one of a table of n positions, but only the seven commonest hand
// categories (the rarer ones are suspended after the deal, and refusals
// would measure nothing).
func poolSelections(spec parimutuel.MarketSpec, n int) []parimutuel.Selection {
	key := struct {
		m parimutuel.Market
		n int
	}{spec.Name, n}
	if v, ok := selectionsBy.Load(key); ok {
		return v.([]parimutuel.Selection)
	}
	sels := spec.Selections(n)
	if spec.Shape == parimutuel.CategoryShape {
		sels = slices.DeleteFunc(sels, func(s parimutuel.Selection) bool { return s.Combination > parimutuel.FullHouse })
	}
	selectionsBy.Store(key, sels)
	return sels
}

// poolsHelp names the markets -pools spreads over: "1 WIN, 2 +COMBINATION, ...".
func poolsHelp() string {
	var parts []string
	for i, m := range parimutuel.Production().Markets() {
		prefix := "+"
		if i == 0 {
			prefix = ""
		}
		parts = append(parts, fmt.Sprintf("%d %s%s", i+1, prefix, m))
	}
	return strings.Join(parts, ", ")
}

const placeBetMutation = `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`

// betLoop runs the load and prints the report.
func betLoop(ctx context.Context, cfg betsConfig, players []player, draws *drawTracker, st *betStats) error {
	ctx, cancel := context.WithTimeout(ctx, cfg.warmup+cfg.duration)
	defer cancel()
	var sent atomic.Int64
	var seq atomic.Int64
	// The open loop stops scheduling at the end of the window but lets the
	// requests it sent finish (up to openLoopDrain), so that every offered
	// bet is answered or counted as not answered, never dropped.
	reqCtx := ctx
	if cfg.rate > 0 {
		var cancelReq context.CancelFunc
		reqCtx, cancelReq = context.WithTimeout(context.WithoutCancel(ctx), cfg.warmup+cfg.duration+openLoopDrain)
		defer cancelReq()
	}
	place := func(r *rand.Rand, p player) error {
		drawID, _ := draws.current()
		in := map[string]any{"drawId": drawID, "selection": betSelection(r.IntN(cfg.pools), cfg.positions, r), "stake": cfg.stake,
			"idempotencyKey": "lg-" + strconv.FormatInt(seq.Add(1), 36)}
		err := p.client.do(reqCtx, placeBetMutation, map[string]any{"in": in}, nil)
		var ge gqlError
		if errors.As(err, &ge) && (ge.Extensions.Reason == "ROUND_CLOSED" || ge.Extensions.Reason == "DRAW_FINISHED" || ge.Extensions.Reason == "MARKET_NOT_OFFERED_IN_ROUND") {
			_ = draws.refresh(ctx)
		}
		return err
	}
	go func() {
		select {
		case <-ctx.Done():
		case <-time.After(cfg.warmup):
			st.mu.Lock()
			st.measuring, st.start, st.cpu0 = true, time.Now(), processCPU()
			st.mu.Unlock()
			// Scripts wait for this line to start their profiles.
			fmt.Println("bets: measuring")
		}
	}()
	var wg sync.WaitGroup
	limited := func() bool { return cfg.count > 0 && sent.Add(1) > cfg.count }
	unreached := func() {}
	if cfg.rate <= 0 {
		for c := range cfg.clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
				for i := c; ctx.Err() == nil && !limited(); i += cfg.clients {
					t := time.Now()
					err := place(r, players[i%len(players)])
					if ctx.Err() == nil {
						st.record(time.Since(t), err)
					}
				}
			}()
		}
	} else {
		interval := time.Duration(float64(time.Second) / cfg.rate)
		inflight := make(chan struct{}, 4096)
		origin := time.Now()
		next := origin
		// Sends the generator had not reached when the window ended (it
		// fell behind its schedule, its in-flight bound full) are offered
		// and not sent all the same: the schedule, not the generator's
		// progress, says what was offered.
		unreached = func() {
			st.mu.Lock()
			defer st.mu.Unlock()
			if st.start.IsZero() {
				return
			}
			end := origin.Add(cfg.warmup + cfg.duration)
			slots := int64(end.Sub(origin)/interval) - int64(st.start.Sub(origin)/interval)
			if missed := slots - st.offered; missed > 0 {
				st.offered += missed
				st.unsent += missed
			}
		}
		for i := 0; ctx.Err() == nil && !limited(); i++ {
			next = next.Add(interval)
			if d := time.Until(next); d > 0 {
				select {
				case <-ctx.Done():
				case <-time.After(d):
				}
			}
			if ctx.Err() != nil {
				break
			}
			scheduled := next
			// Counted by its schedule: a send due inside the window is
			// offered even if the generator cannot make it.
			in := st.offer()
			select {
			case inflight <- struct{}{}:
			case <-ctx.Done():
				if in {
					st.mu.Lock()
					st.unsent++
					st.mu.Unlock()
				}
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-inflight }()
				if in {
					st.late(time.Since(scheduled))
				}
				r := rand.New(rand.NewPCG(uint64(i), uint64(scheduled.UnixNano())))
				err := place(r, players[i%len(players)])
				if in {
					st.recordIn(time.Since(scheduled), err)
				}
			}()
		}
	}
	wg.Wait()
	unreached()
	st.mu.Lock()
	start := st.start
	st.measuring = false
	st.mu.Unlock()
	elapsed := time.Since(start)
	if start.IsZero() || elapsed <= 0 {
		return errors.New("the run ended before the warm-up did")
	}
	report(cfg, st, elapsed)
	return nil
}

func report(cfg betsConfig, st *betStats, elapsed time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	slices.Sort(st.lat)
	slices.Sort(st.lag)
	pctOf := func(d []time.Duration, p float64) float64 {
		if len(d) == 0 {
			return 0
		}
		i := int(p * float64(len(d)-1))
		return float64(d[i].Microseconds()) / 1000
	}
	pct := func(p float64) float64 { return pctOf(st.lat, p) }
	mode := fmt.Sprintf("closed loop, %d clients", cfg.clients)
	if cfg.rate > 0 {
		mode = fmt.Sprintf("open loop, %.0f/s", cfg.rate)
	}
	perSec := float64(st.accepted) / elapsed.Seconds()
	if cfg.rate > 0 {
		// The offered bets are those scheduled in the window; the drain
		// after it is not part of the rate.
		perSec = float64(st.accepted) / cfg.duration.Seconds()
	}
	fmt.Printf("bets: %s, %d pool(s), %d players, %s measured\n", mode, cfg.pools, cfg.players, elapsed.Round(time.Millisecond))
	fmt.Printf("  accepted   %d (%.1f/s)\n", st.accepted, perSec)
	var reasons []string
	for r := range st.refused {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Printf("  refused    %-40s %d\n", r, st.refused[r])
	}
	fmt.Printf("  latency    p50 %.2f ms  p99 %.2f ms  p999 %.2f ms (accepted bets)\n", pct(0.50), pct(0.99), pct(0.999))
	if cfg.rate > 0 {
		// Latency counts from the schedule, so a late send counts against
		// the server; this says how much of it was the generator's.
		fmt.Printf("  send lag   p50 %.2f ms  p99 %.2f ms  p999 %.2f ms (the generator's own delay, included above)\n",
			pctOf(st.lag, 0.50), pctOf(st.lag, 0.99), pctOf(st.lag, 0.999))
	}
	var refused int64
	for _, n := range st.refused {
		refused += n
	}
	open := ""
	if cfg.rate > 0 {
		// Every offered send counts: one not accepted (refused, never
		// answered, never sent) counts as slower than any answer, so the
		// percentile is of the offered load, not of what got through.
		all := func(p float64) string {
			n := st.offered
			if n == 0 {
				return "0"
			}
			i := int64(p * float64(n-1))
			if i >= int64(len(st.lat)) {
				return "inf"
			}
			return fmt.Sprintf("%.2f", float64(st.lat[i].Microseconds())/1000)
		}
		share := 0.0
		if st.offered > 0 {
			share = float64(st.accepted) / float64(st.offered)
		}
		fmt.Printf("  offered    %d (%.1f/s scheduled over %s), accepted %.2f%% of them, %d not sent (the generator behind its schedule, in-flight bound full)\n",
			st.offered, float64(st.offered)/cfg.duration.Seconds(), cfg.duration, 100*share, st.unsent)
		fmt.Printf("  latency    p50 %s ms  p99 %s ms  p999 %s ms (every offered bet from its scheduled send; one not accepted counts as inf)\n",
			all(0.50), all(0.99), all(0.999))
		open = fmt.Sprintf(" offered=%d accepted_share=%.4f p99_offered_ms=%s", st.offered, share, all(0.99))
	}
	// The generator shares the machine with the server and Postgres: its
	// own CPU per accepted bet says how much of it the load itself took.
	cpuPerBet := 0.0
	if st.accepted > 0 {
		cpuPerBet = float64((processCPU() - st.cpu0).Microseconds()) / 1000 / float64(st.accepted)
	}
	fmt.Printf("  generator  %.3f ms of CPU per accepted bet\n", cpuPerBet)
	fmt.Printf("RESULT accepted_per_s=%.1f accepted=%d refused=%d p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f sendlag_p99ms=%.2f loadgen_cpu_ms=%.3f reasons=%s%s\n",
		perSec, st.accepted, refused, pct(0.50), pct(0.99), pct(0.999), pctOf(st.lag, 0.99), cpuPerBet, strings.Join(reasons, ","), open)
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// openLoopDrain is how long the open loop waits, after its last scheduled
// send, for the answers still due; one not answered by then counts as
// CANCELLED (offered, not accepted).
const openLoopDrain = 15 * time.Second
