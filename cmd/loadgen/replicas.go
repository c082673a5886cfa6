package main

// Two workloads for the read replicas (docs/scaling.md; deploy/ha/lag.sh runs
// them beside `loadgen bets`):
//
//	loadgen reads  - an affiliate's read load (results, draw, verifyDraw
//	                 with an API key) at a fixed rate over one or more
//	                 servers; reports where the servers' repository reads
//	                 went (pokertote_db_plain_reads_total per pool).
//	loadgen replag - samples the primary's pg_stat_replication and reports
//	                 the standbys' replay lag (time and bytes) percentiles.

import (
	"context"
	"database/sql"
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
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

func init() {
	register("reads", "affiliate read load (results, draw, verifyDraw by API key) open-loop; reports the share of repository reads off the primary", runReads)
	register("replag", "samples pg_stat_replication on the primary; reports replay lag percentiles (ms and bytes)", runReplag)
}

// loopbackHosts checks that every host of a (multi-host) address is local.
func loopbackHosts(hosts string) error {
	for _, h := range strings.Split(hosts, ",") {
		name := h
		if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
			name = h[:i]
		}
		name = strings.Trim(name, "[]")
		if name != "127.0.0.1" && name != "localhost" && name != "::1" {
			return fmt.Errorf("%q is not loopback", h)
		}
	}
	return nil
}

type readsConfig struct {
	urls          []string
	adminEmail    string
	adminPassword string
	rate          float64
	duration      time.Duration
}

func parseReadsFlags(args []string) (readsConfig, error) {
	var c readsConfig
	var urls string
	fs := flag.NewFlagSet("reads", flag.ContinueOnError)
	fs.StringVar(&urls, "url", "http://127.0.0.1:8080/query", "the servers' GraphQL endpoints, comma-separated (loopback only); reads go round-robin, /metrics is read beside each")
	fs.StringVar(&c.adminEmail, "admin-email", os.Getenv("ADMIN_EMAIL"), "admin sign-in, to make the API key (default $ADMIN_EMAIL)")
	fs.StringVar(&c.adminPassword, "admin-password", os.Getenv("ADMIN_PASSWORD"), "admin password (default $ADMIN_PASSWORD)")
	fs.Float64Var(&c.rate, "rate", 100, "reads per second, open loop (at most 1000: the key's limit is 60000 a minute)")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "how long to read")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	for _, s := range strings.Split(urls, ",") {
		u, err := url.Parse(s)
		if err != nil {
			return c, fmt.Errorf("-url: %w", err)
		}
		if err := loopbackHosts(u.Host); err != nil {
			return c, fmt.Errorf("-url: %w", err)
		}
		c.urls = append(c.urls, s)
	}
	switch {
	case c.adminEmail == "" || c.adminPassword == "":
		return c, errors.New("give -admin-email and -admin-password (or ADMIN_EMAIL/ADMIN_PASSWORD)")
	case c.rate <= 0 || c.rate > 1000:
		return c, errors.New("-rate must be in (0, 1000]")
	case c.duration <= 0 || c.duration > time.Hour:
		return c, errors.New("-duration must be in (0, 1h]")
	}
	return c, nil
}

// poolReads are one server's repository reads per pool, from /metrics.
type poolReads struct{ primary, replica, behind float64 }

func scrapeReads(ctx context.Context, hc *http.Client, queryURL string) (poolReads, error) {
	var r poolReads
	u := strings.TrimSuffix(queryURL, "/query") + "/metrics"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return r, err
	}
	res, err := hc.Do(req)
	if err != nil {
		return r, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return r, err
	}
	for _, line := range strings.Split(string(body), "\n") {
		val := func() float64 {
			f, _ := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			return f
		}
		switch {
		case strings.HasPrefix(line, `pokertote_db_plain_reads_total{pool="primary"}`):
			r.primary = val()
		case strings.HasPrefix(line, `pokertote_db_plain_reads_total{pool="replica"}`):
			r.replica = val()
		case strings.HasPrefix(line, "pokertote_db_replica_behind_reads_total "):
			r.behind = val()
		}
	}
	return r, nil
}

func runReads(ctx context.Context, args []string) error {
	cfg, err := parseReadsFlags(args)
	if err != nil {
		return err
	}
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}}
	base := &gqlClient{url: cfg.urls[0], http: hc}
	admin, err := signInAdmin(ctx, base, cfg.adminEmail, cfg.adminPassword)
	if err != nil {
		return err
	}
	var made struct {
		CreateApiKey struct {
			Key string `json:"key"`
		} `json:"createApiKey"`
	}
	if err := admin.do(ctx, `mutation($n: String!) { createApiKey(input: {name: $n, requestsPerMinute: 60000}) { key } }`,
		map[string]any{"n": "loadgen reads " + strconv.FormatInt(time.Now().UnixNano(), 36)}, &made); err != nil {
		return fmt.Errorf("create the API key: %w", err)
	}
	key := made.CreateApiKey.Key
	// Settled draws to verify and read.
	var res struct {
		Results struct {
			Edges []struct {
				Node struct {
					ID string `json:"id"`
				} `json:"node"`
			} `json:"edges"`
		} `json:"results"`
	}
	keyed := func(i int) *gqlClient {
		return &gqlClient{url: cfg.urls[i%len(cfg.urls)], http: hc, key: key}
	}
	if err := keyed(0).do(ctx, `{ results(first: 50) { edges { node { id } } } }`, nil, &res); err != nil {
		return fmt.Errorf("list results: %w", err)
	}
	var draws []string
	for _, e := range res.Results.Edges {
		draws = append(draws, e.Node.ID)
	}
	fmt.Printf("reads: %d servers, %d settled draws to read, %.0f reads/s for %s\n", len(cfg.urls), len(draws), cfg.rate, cfg.duration)

	scrapeAll := func() (poolReads, error) {
		var sum poolReads
		for _, u := range cfg.urls {
			r, err := scrapeReads(ctx, hc, u)
			if err != nil {
				return sum, fmt.Errorf("metrics of %s: %w", u, err)
			}
			sum.primary += r.primary
			sum.replica += r.replica
			sum.behind += r.behind
		}
		return sum, nil
	}
	before, err := scrapeAll()
	if err != nil {
		return err
	}
	rctx, cancel := context.WithTimeout(ctx, cfg.duration)
	defer cancel()
	var (
		mu      sync.Mutex
		lat     []time.Duration
		refused = map[string]int{}
		n       atomic.Int64
		wg      sync.WaitGroup
	)
	every := time.Duration(float64(time.Second) / cfg.rate)
	start := time.Now()
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * every)
		if d := time.Until(at); d > 0 {
			select {
			case <-rctx.Done():
			case <-time.After(d):
			}
		}
		if rctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := keyed(int(n.Add(1)))
			var q string
			var vars map[string]any
			switch k := rand.IntN(3); {
			case k == 0 || len(draws) == 0:
				q = `{ results(first: 20) { edges { node { id phase } } } }`
			case k == 1:
				q, vars = `query($d: ID!) { draw(id: $d) { id phase } }`, map[string]any{"d": draws[rand.IntN(len(draws))]}
			default:
				q, vars = `query($d: ID!) { verifyDraw(id: $d) { payoutsMatch } }`, map[string]any{"d": draws[rand.IntN(len(draws))]}
			}
			err := c.do(rctx, q, vars, nil)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				var ge gqlError
				reason := "TRANSPORT"
				if errors.As(err, &ge) {
					reason = ge.Extensions.Code + "/" + ge.Extensions.Reason
				} else if rctx.Err() != nil {
					reason = "CANCELLED"
				}
				refused[reason]++
				return
			}
			lat = append(lat, time.Since(at))
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	after, err := scrapeAll()
	if err != nil {
		return err
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000
	}
	prim, repl, behind := after.primary-before.primary, after.replica-before.replica, after.behind-before.behind
	share := 100 * repl / max(1, prim+repl)
	fmt.Printf("  answered   %d (%.1f/s)\n", len(lat), float64(len(lat))/elapsed.Seconds())
	var reasons []string
	for r := range refused {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Printf("  refused    %-40s %d\n", r, refused[r])
	}
	fmt.Printf("  latency    p50 %.2f ms  p99 %.2f ms\n", pct(0.5), pct(0.99))
	fmt.Printf("  repository reads on the servers meanwhile: %.0f on the replica, %.0f on the primary (%.1f %% off the primary; %.0f of the primary's were a player's read waiting for the replica to replay their write)\n",
		repl, prim, share, behind)
	fmt.Printf("RESULT reads_per_s=%.1f p50_ms=%.2f p99_ms=%.2f replica_reads=%.0f primary_reads=%.0f off_primary_pct=%.1f behind=%.0f\n",
		float64(len(lat))/elapsed.Seconds(), pct(0.5), pct(0.99), repl, prim, share, behind)
	return nil
}

type replagConfig struct {
	db       string
	duration time.Duration
	every    time.Duration
}

func runReplag(ctx context.Context, args []string) error {
	var c replagConfig
	fs := flag.NewFlagSet("replag", flag.ContinueOnError)
	fs.StringVar(&c.db, "db", "postgres://postgres@127.0.0.1:5501,127.0.0.1:5502/pokertote?target_session_attrs=read-write&sslmode=disable", "the primary (multi-host URL allowed; loopback only)")
	fs.DurationVar(&c.duration, "duration", 20*time.Second, "how long to sample")
	fs.DurationVar(&c.every, "every", 100*time.Millisecond, "sampling period")
	if err := fs.Parse(args); err != nil {
		return err
	}
	u, err := url.Parse(c.db)
	if err != nil {
		return fmt.Errorf("-db: %w", err)
	}
	if err := loopbackHosts(u.Host); err != nil {
		return fmt.Errorf("-db: %w", err)
	}
	if c.duration <= 0 || c.duration > time.Hour || c.every < time.Millisecond {
		return errors.New("-duration must be in (0, 1h], -every at least 1ms")
	}
	db, err := sql.Open("pgx", c.db)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	var ms, bytes []float64
	var idle int
	walAt := func() (float64, error) {
		var v float64
		err := db.QueryRowContext(context.WithoutCancel(ctx), "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')").Scan(&v)
		return v, err
	}
	w0, err := walAt()
	if err != nil {
		return fmt.Errorf("the primary: %w", err)
	}
	start := time.Now()
	tick := time.NewTicker(c.every)
	defer tick.Stop()
	for ctx.Err() == nil {
		rows, err := db.QueryContext(ctx, `SELECT EXTRACT(EPOCH FROM replay_lag) * 1000, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) FROM pg_stat_replication`)
		if err == nil {
			for rows.Next() {
				var lag, b sql.NullFloat64
				if rows.Scan(&lag, &b) != nil {
					continue
				}
				if lag.Valid {
					ms = append(ms, lag.Float64)
				} else {
					idle++ // caught up and nothing new: no lag to measure
				}
				if b.Valid {
					bytes = append(bytes, b.Float64)
				}
			}
			rows.Close()
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	elapsed := time.Since(start)
	w1, err := walAt()
	if err != nil {
		return fmt.Errorf("the primary: %w", err)
	}
	slices.Sort(ms)
	slices.Sort(bytes)
	q := func(d []float64, p float64) float64 {
		if len(d) == 0 {
			return 0
		}
		return d[int(p*float64(len(d)-1))]
	}
	walRate := (w1 - w0) / elapsed.Seconds()
	fmt.Printf("replag: %d samples of replay_lag over %s (%d with the standby idle and caught up), WAL %.0f kB/s\n", len(ms), elapsed.Round(time.Millisecond), idle, walRate/1024)
	fmt.Printf("  replay lag p50 %.1f ms  p90 %.1f ms  p99 %.1f ms  max %.1f ms\n", q(ms, 0.5), q(ms, 0.9), q(ms, 0.99), q(ms, 1))
	fmt.Printf("  behind     p50 %.0f B  p90 %.0f B  p99 %.0f B  max %.0f B (primary's WAL position minus the standby's replay position)\n", q(bytes, 0.5), q(bytes, 0.9), q(bytes, 0.99), q(bytes, 1))
	fmt.Printf("RESULT samples=%d p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f p99_bytes=%.0f wal_kBps=%.0f\n", len(ms), q(ms, 0.5), q(ms, 0.9), q(ms, 0.99), q(ms, 1), q(bytes, 0.99), walRate/1024)
	return nil
}
