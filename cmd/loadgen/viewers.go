package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

func init() {
	register("viewers", "N WebSocket viewers of one table: delay from each event's at to receipt, drops, server RSS and CPU", runViewers)
}

// viewersQuery is what a table view subscribes to: the typed events with
// the fields a UI draws.
const viewersQuery = `subscription($t: ID!) { tableEvents(tableId: $t) { __typename seq at
 ... on CardsDealt { drawId street position cards board positions { number cards status bestHand { category description } } }
 ... on RoundOpened { drawId round closesAt } ... on RoundClosed { drawId round }
 ... on OddsUpdated { drawId odds { street positions { position win tie equity } } }
 ... on PoolUpdated { drawId pool { round market gross bets selections { selection stake impliedCoefficient } } }
 ... on DrawOpened { drawId number minStake } ... on DrawSettled { drawId serverSeed result { winners } } } }`

// viewerResult is what one process of viewers measured.
type viewerResult struct {
	Connected int `json:"connected"`
	Failed    int `json:"failed"`  // could not connect or subscribe
	Dropped   int `json:"dropped"` // stream ended or broke before the end
	Messages  int64
	Bytes     int64
	// Delays counts delivered events by delay in 100 µs buckets.
	Delays map[int]int64
	// Spread counts delivered events, in 100 µs buckets, by the time
	// from this process's first receipt of the same seq: the fan-out
	// alone, without what happened before the first byte left (for the
	// server: the dealer's commit, the broker, the read model).
	Spread map[int]int64
	// Seqs and Ats count the distinct seqs measured and their distinct
	// "at"s: events committed together share one at and go out as a
	// burst (refcast -burst sends the same pattern).
	Seqs, Ats int
	// BySeq counts delivered events by seq and delay from at (100 µs
	// buckets): with the server's stage log (-stages) the parent shifts
	// each seq's delays to start from when the event was published after
	// its commit, the point the reference's at stands for.
	BySeq map[int64]map[int]int64 `json:",omitempty"`
}

type viewerFlags struct {
	url, table, query, src string
	stages, profile        string
	n, procs, pid          int
	duration, settle       time.Duration
	child                  bool
}

func runViewers(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("viewers", flag.ContinueOnError)
	var f viewerFlags
	fs.StringVar(&f.url, "url", "ws://127.0.0.1:19080/query", "WebSocket endpoint (loopback only)")
	fs.StringVar(&f.table, "table", "", "table id (default: the table with the most positions)")
	fs.StringVar(&f.query, "query", viewersQuery, "subscription document ($t is the table id)")
	fs.IntVar(&f.n, "n", 1000, "viewers in all")
	fs.IntVar(&f.procs, "procs", 4, "client processes (each holds n/procs connections from its own 127.0.0.x)")
	fs.IntVar(&f.pid, "pid", 0, "server process to sample (RSS and CPU); 0: none")
	fs.DurationVar(&f.duration, "duration", 30*time.Second, "measuring window, after every viewer connected")
	fs.DurationVar(&f.settle, "settle", 3*time.Second, "pause between the last connection and the window")
	fs.StringVar(&f.stages, "stages", "", "the server's stage log (http://DEBUG_ADDR/debug/fanout): adds delays from publication and per stage")
	fs.StringVar(&f.profile, "profile", "", "with -stages: save the server's CPU profile of the window to this file (and its heap to file.heap)")
	fs.BoolVar(&f.child, "child", false, "internal: run as one client process")
	fs.StringVar(&f.src, "src", "127.0.0.2", "internal: source address of a child")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := loopbackOnly(f.url); err != nil {
		return err
	}
	if f.child {
		return viewersChild(ctx, f)
	}
	if f.table == "" {
		t, err := biggestTable(ctx, f.url)
		if err != nil {
			return err
		}
		f.table = t
	}
	return viewersParent(ctx, f)
}

func loopbackOnly(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("loadgen targets loopback addresses only, not %q", u.Host)
	}
	return nil
}

// biggestTable asks the server for the table with the most positions.
func biggestTable(ctx context.Context, wsURL string) (string, error) {
	httpURL := "http" + strings.TrimPrefix(wsURL, "ws")
	body := `{"query":"{ tables { id positions } }"}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, httpURL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var out struct {
		Data struct {
			Tables []struct {
				ID        string
				Positions int
			}
		}
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return "", err
	}
	best, most := "", 0
	for _, t := range out.Data.Tables {
		if t.Positions > most {
			best, most = t.ID, t.Positions
		}
	}
	if best == "" {
		return "", errors.New("the server has no table")
	}
	return best, nil
}

// viewersParent starts the client processes, waits until all are
// connected, samples the server, opens the window, and merges the results.
func viewersParent(ctx context.Context, f viewerFlags) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	rssBefore, _ := rssKB(f.pid)
	type child struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		lines *bufio.Scanner
	}
	var kids []child
	per := (f.n + f.procs - 1) / f.procs
	left := f.n
	for i := 0; i < f.procs && left > 0; i++ {
		k := min(per, left)
		left -= k
		cmd := exec.CommandContext(ctx, self, "viewers", "-child", "-n", strconv.Itoa(k), "-url", f.url, "-table", f.table,
			"-query", f.query, "-src", fmt.Sprintf("127.0.0.%d", 2+i), "-duration", f.duration.String())
		cmd.Stderr = os.Stderr
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			return err
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		kids = append(kids, child{cmd: cmd, stdin: in, lines: sc})
	}
	defer func() {
		for _, k := range kids {
			_ = k.cmd.Process.Kill()
			_ = k.cmd.Wait()
		}
	}()
	connected := 0
	for _, k := range kids { // first line: how many connected
		if !k.lines.Scan() {
			return errors.New("a client process ended before connecting")
		}
		var r viewerResult
		_ = json.Unmarshal(k.lines.Bytes(), &r)
		connected += r.Connected
	}
	time.Sleep(f.settle)
	rssAfter, _ := rssKB(f.pid)
	cpu0, _ := cpuTicks(f.pid)
	start := time.Now()
	for _, k := range kids {
		_, _ = k.stdin.Write([]byte("go\n"))
	}
	profiled := make(chan struct{})
	go func() {
		defer close(profiled)
		if f.profile != "" && f.stages != "" {
			base := strings.TrimSuffix(f.stages, "/debug/fanout")
			secs := max(int(f.duration.Seconds())-1, 1)
			if err := saveURL(ctx, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", base, secs), f.profile); err != nil {
				fmt.Fprintln(os.Stderr, "viewers: profile:", err)
			}
			_ = saveURL(ctx, base+"/debug/pprof/heap", f.profile+".heap")
			_ = saveURL(ctx, base+"/debug/pprof/goroutine", f.profile+".goroutine")
		}
	}()
	var total viewerResult
	total.Delays = map[int]int64{}
	total.Spread = map[int]int64{}
	total.BySeq = map[int64]map[int]int64{}
	for _, k := range kids {
		if !k.lines.Scan() {
			return errors.New("a client process ended without a result")
		}
		var r viewerResult
		if err := json.Unmarshal(k.lines.Bytes(), &r); err != nil {
			return err
		}
		total.Connected += r.Connected
		total.Failed += r.Failed
		total.Dropped += r.Dropped
		total.Messages += r.Messages
		total.Bytes += r.Bytes
		for b, n := range r.Delays {
			total.Delays[b] += n
		}
		for b, n := range r.Spread {
			total.Spread[b] += n
		}
		for seq, h := range r.BySeq {
			t := total.BySeq[seq]
			if t == nil {
				t = map[int]int64{}
				total.BySeq[seq] = t
			}
			for b, n := range h {
				t[b] += n
			}
		}
		if r.Seqs > total.Seqs { // every process sees every event
			total.Seqs, total.Ats = r.Seqs, r.Ats
		}
	}
	window := time.Since(start)
	cpu1, _ := cpuTicks(f.pid)
	<-profiled
	report := map[string]any{
		"viewers": f.n, "connected": connected, "failed": total.Failed, "dropped": total.Dropped,
		"messages": total.Messages, "window_s": window.Seconds(),
		"events_per_s": float64(total.Messages) / float64(max(connected, 1)) / window.Seconds(),
		"avg_bytes":    float64(total.Bytes) / float64(max(total.Messages, 1)),
		"p50_ms":       percentile(total.Delays, 0.50), "p99_ms": percentile(total.Delays, 0.99), "max_ms": percentile(total.Delays, 1),
		"spread_p50_ms": percentile(total.Spread, 0.50), "spread_p99_ms": percentile(total.Spread, 0.99),
		"events_per_burst": float64(total.Seqs) / float64(max(total.Ats, 1)),
	}
	if f.pid != 0 {
		report["rss_before_kb"], report["rss_after_kb"] = rssBefore, rssAfter
		report["kb_per_conn"] = float64(rssAfter-rssBefore) / float64(max(connected, 1))
		// CPU ticks are 10 ms (USER_HZ 100).
		report["cpu_us_per_msg"] = float64(cpu1-cpu0) * 10_000 / float64(max(total.Messages, 1))
		report["cpu_percent"] = float64(cpu1-cpu0) * 10 / window.Seconds() / 10
	}
	if f.stages != "" {
		if err := addStages(ctx, f, total.BySeq, report); err != nil {
			fmt.Fprintln(os.Stderr, "viewers: stage log:", err)
		}
	}
	b, _ := json.Marshal(report)
	fmt.Println(string(b))
	return nil
}

// getURL is a GET of url; the caller closes the body.
func getURL(ctx context.Context, url string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return res.Body, nil
}

// saveURL writes what url answers to path.
func saveURL(ctx context.Context, url, path string) error {
	body, err := getURL(ctx, url)
	if err != nil {
		return err
	}
	defer body.Close()
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, body); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// addStages reads the server's stage log and adds to report, over the
// events measured: the delay from publication (after the commit) to
// receipt, and each stage's delay from at (p50, p99 over events).
func addStages(ctx context.Context, f viewerFlags, bySeq map[int64]map[int]int64, report map[string]any) error {
	body, err := getURL(ctx, f.stages)
	if err != nil {
		return err
	}
	defer body.Close()
	var recs []struct {
		Table  int64            `json:"table"`
		Seq    int64            `json:"seq"`
		At     map[string]int64 `json:"at_ns"`
		Writes int64            `json:"writes"`
	}
	if err := json.NewDecoder(body).Decode(&recs); err != nil {
		return err
	}
	table, _ := strconv.ParseInt(f.table, 10, 64)
	fromPub := map[int]int64{}
	perStage := map[string]map[int]int64{}
	events := 0
	for _, r := range recs {
		h := bySeq[r.Seq]
		if r.Table != table || h == nil || r.At["at"] == 0 {
			continue
		}
		events++
		at := r.At["at"]
		shift := int((r.At["published"] - at) / 1e5)
		for b, n := range h {
			fromPub[b-shift] += n
		}
		for name, t := range r.At {
			if t == 0 || name == "at" {
				continue
			}
			if perStage[name] == nil {
				perStage[name] = map[int]int64{}
			}
			perStage[name][int((t-at)/1e5)]++
		}
	}
	report["stage_events"] = events
	report["pub_p50_ms"], report["pub_p99_ms"] = percentile(fromPub, 0.50), percentile(fromPub, 0.99)
	for name, h := range perStage {
		report["stage_"+name+"_p50_ms"], report["stage_"+name+"_p99_ms"] = percentile(h, 0.50), percentile(h, 0.99)
	}
	return nil
}

// percentile is the delay in ms below which fraction q of deliveries fell.
func percentile(h map[int]int64, q float64) float64 {
	var keys []int
	var n int64
	for k, c := range h {
		keys = append(keys, k)
		n += c
	}
	if n == 0 {
		return 0
	}
	sort.Ints(keys)
	want := int64(q * float64(n))
	var seen int64
	for _, k := range keys {
		seen += h[k]
		if seen >= want {
			return float64(k) / 10
		}
	}
	return float64(keys[len(keys)-1]) / 10
}

// rssKB reads a process's resident memory.
func rssKB(pid int) (int64, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
		}
	}
	return 0, errors.New("no VmRSS")
}

// cpuTicks reads a process's user+system CPU time in clock ticks.
func cpuTicks(pid int) (int64, error) {
	if pid == 0 {
		return 0, nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	return ut + st, nil
}

// viewersChild holds n viewers from one source address: it reports how
// many connected, waits for "go" on stdin, measures for the window and
// reports its result.
func viewersChild(ctx context.Context, f viewerFlags) error {
	raiseFileLimit()
	src := net.ParseIP(f.src)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: src}, Timeout: 10 * time.Second}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	var measuring atomic.Bool
	res := &childStats{delays: map[int]int64{}, spread: map[int]int64{}, first: map[int64]time.Time{}, ats: map[string]bool{}, bySeq: map[int64]map[int]int64{}}
	var wg sync.WaitGroup
	var connected, failed atomic.Int64
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, 64)
	var ready sync.WaitGroup
	for i := 0; i < f.n; i++ {
		sem <- struct{}{}
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok := false
			v, err := dialViewer(ctx, client, f)
			<-sem
			if err != nil {
				failed.Add(1)
			} else {
				connected.Add(1)
				ok = true
			}
			ready.Done()
			if ok {
				v.read(ctx, &measuring, res)
			}
		}()
	}
	ready.Wait()
	b, _ := json.Marshal(viewerResult{Connected: int(connected.Load()), Failed: int(failed.Load())})
	fmt.Println(string(b))
	in := bufio.NewScanner(os.Stdin)
	if !in.Scan() {
		return nil
	}
	measuring.Store(true)
	select {
	case <-time.After(f.duration):
	case <-ctx.Done():
	}
	measuring.Store(false)
	res.mu.Lock()
	out := viewerResult{Connected: int(connected.Load()), Failed: int(failed.Load()), Dropped: int(res.dropped),
		Messages: res.messages, Bytes: res.bytes, Delays: res.delays, Spread: res.spread, Seqs: len(res.first), Ats: len(res.ats), BySeq: res.bySeq}
	b, _ = json.Marshal(out)
	res.mu.Unlock()
	fmt.Println(string(b))
	cancel()
	return nil
}

// childStats gathers one process's measurements.
type childStats struct {
	mu       sync.Mutex
	messages int64
	bytes    int64
	dropped  int64
	delays   map[int]int64
	spread   map[int]int64
	first    map[int64]time.Time // first receipt by seq
	ats      map[string]bool     // distinct at values
	bySeq    map[int64]map[int]int64
}

// viewerConn is one viewer's socket. On a close 1012 (the server
// restarting: docs/frontend.md) it connects again and resumes from the last
// seq it saw, as a client must; with the default document only (a -query of
// one's own has no afterSeq).
type viewerConn struct {
	c      *websocket.Conn
	client *http.Client
	f      viewerFlags
	last   int64 // the last seq seen, -1 before the first
}

// dialViewer connects, initialises graphql-transport-ws and subscribes.
func dialViewer(ctx context.Context, client *http.Client, f viewerFlags) (*viewerConn, error) {
	return dialViewerAfter(ctx, client, f, -1)
}

// dialViewerAfter is dialViewer resuming after seq last (-1: from a
// snapshot).
func dialViewerAfter(ctx context.Context, client *http.Client, f viewerFlags, last int64) (*viewerConn, error) {
	dctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(dctx, f.url, &websocket.DialOptions{HTTPClient: client, Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	if err := c.Write(dctx, websocket.MessageText, []byte(`{"type":"connection_init","payload":{}}`)); err != nil {
		return nil, err
	}
	if _, msg, err := c.Read(dctx); err != nil || !bytes.Contains(msg, []byte("connection_ack")) {
		_ = c.CloseNow()
		return nil, fmt.Errorf("no ack: %v %s", err, msg)
	}
	query, vars := f.query, map[string]any{"t": f.table}
	if last >= 0 && query == viewersQuery {
		query, vars["a"] = rollingQuery, last
	}
	sub, _ := json.Marshal(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": query, "variables": vars}})
	if err := c.Write(dctx, websocket.MessageText, sub); err != nil {
		return nil, err
	}
	// Connected means receiving: the first message of the stream (the
	// server's snapshot, the reference's next event) has arrived, so the
	// window never opens on subscriptions still being set up.
	for {
		_, msg, err := c.Read(dctx)
		if err != nil {
			_ = c.CloseNow()
			return nil, fmt.Errorf("no first message: %v", err)
		}
		if bytes.Contains(msg[:min(len(msg), 40)], []byte(`"ping"`)) {
			_ = c.Write(dctx, websocket.MessageText, []byte(`{"type":"pong"}`))
			continue
		}
		if !bytes.Contains(msg, []byte(`"next"`)) {
			_ = c.CloseNow()
			return nil, fmt.Errorf("first message %.200s", msg)
		}
		return &viewerConn{c: c, client: client, f: f, last: max(last, seqOf(msg))}, nil
	}
}

var atKey, seqKey = []byte(`"at":"`), []byte(`"seq":`)

// read receives until ctx ends, recording each event's delay while
// measuring. A stream that ends before ctx counts as dropped.
func (v *viewerConn) read(ctx context.Context, measuring *atomic.Bool, st *childStats) {
	defer func() { _ = v.c.CloseNow() }()
	for {
		_, msg, err := v.c.Read(ctx)
		now := time.Now()
		if err != nil && websocket.CloseStatus(err) == CloseServiceRestart && ctx.Err() == nil && v.f.query == viewersQuery {
			// The server restarts: connect again (the first message of
			// the resumed stream is the next event, or its replay).
			_ = v.c.CloseNow()
			if nv, derr := dialViewerAfter(ctx, v.client, v.f, v.last); derr == nil {
				v.c, v.last = nv.c, nv.last
				continue
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				st.mu.Lock()
				st.dropped++
				st.mu.Unlock()
			}
			return
		}
		if bytes.Contains(msg[:min(len(msg), 40)], []byte(`"ping"`)) {
			_ = v.c.Write(ctx, websocket.MessageText, []byte(`{"type":"pong"}`))
			continue
		}
		if bytes.Contains(msg[:min(len(msg), 40)], []byte(`"complete"`)) || bytes.Contains(msg[:min(len(msg), 40)], []byte(`"error"`)) {
			st.mu.Lock()
			st.dropped++
			st.mu.Unlock()
			return
		}
		if seq := seqOf(msg); seq > v.last {
			v.last = seq
		}
		if !measuring.Load() || bytes.Contains(msg, []byte(`"TableSnapshot"`)) {
			continue
		}
		i := bytes.Index(msg, atKey)
		if i < 0 {
			continue
		}
		rest := msg[i+len(atKey):]
		j := bytes.IndexByte(rest, '"')
		if j < 0 {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, string(rest[:j]))
		if err != nil {
			continue
		}
		seq := int64(-1)
		if k := bytes.Index(msg, seqKey); k >= 0 {
			rest := msg[k+len(seqKey):]
			end := bytes.IndexAny(rest, ",}")
			if n, err := strconv.ParseInt(string(rest[:max(end, 0)]), 10, 64); err == nil {
				seq = n
			}
		}
		bucket := int(now.Sub(at) / (100 * time.Microsecond))
		st.mu.Lock()
		st.messages++
		st.bytes += int64(len(msg))
		st.delays[bucket]++
		if seq >= 0 {
			h := st.bySeq[seq]
			if h == nil {
				h = map[int]int64{}
				st.bySeq[seq] = h
			}
			h[bucket]++
			f, ok := st.first[seq]
			if !ok || now.Before(f) {
				f = now
				st.first[seq] = now
				st.ats[string(rest[:j])] = true
			}
			st.spread[int(now.Sub(f)/(100*time.Microsecond))]++
		}
		st.mu.Unlock()
	}
}

// CloseServiceRestart is the close code of a server that is restarting.
const CloseServiceRestart = 1012

// seqOf is a "next" message's seq, -1 when it has none.
func seqOf(msg []byte) int64 {
	k := bytes.Index(msg, seqKey)
	if k < 0 {
		return -1
	}
	rest := msg[k+len(seqKey):]
	end := bytes.IndexAny(rest, ",}")
	n, err := strconv.ParseInt(string(rest[:max(end, 0)]), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// raiseFileLimit lifts the soft RLIMIT_NOFILE to the hard limit: one
// process holds at most that many connections.
func raiseFileLimit() {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err == nil && r.Cur < r.Max {
		r.Cur = r.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r)
	}
}
