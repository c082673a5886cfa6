package app_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// receiver is a partner's webhook receiver on a fixed 127.0.0.1 port that
// a test can make fail, slow down, and take down and up again.
type receiver struct {
	t      *testing.T
	addr   string
	secret string

	mu       sync.Mutex
	srv      *http.Server
	failNext int           // answer 500 to this many more deliveries
	delay    time.Duration // before answering
	got      []received    // verified deliveries, in arrival order
	bad      []string      // deliveries whose signature did not verify
	hit      chan struct{} // a delivery arrived (any outcome)
}

type received struct {
	ID   string
	Type string
	Data json.RawMessage
}

func newReceiver(t *testing.T) *receiver {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{t: t, addr: l.Addr().String(), hit: make(chan struct{}, 1<<12)}
	r.serve(l)
	t.Cleanup(r.down)
	return r
}

func (r *receiver) url() string { return "http://" + r.addr + "/hook" }

func (r *receiver) serve(l net.Listener) {
	srv := &http.Server{Handler: http.HandlerFunc(r.handle), ReadHeaderTimeout: 5 * time.Second}
	r.mu.Lock()
	r.srv = srv
	r.mu.Unlock()
	go func() { _ = srv.Serve(l) }()
}

// down closes the receiver: deliveries fail to connect until up.
func (r *receiver) down() {
	r.mu.Lock()
	srv := r.srv
	r.srv = nil
	r.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// up listens again on the same address.
func (r *receiver) up() {
	var l net.Listener
	var err error
	for range 50 { // the old socket may linger a moment
		if l, err = net.Listen("tcp", r.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		r.t.Fatalf("receiver back up: %v", err)
	}
	r.serve(l)
}

func (r *receiver) handle(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	delay, fail := r.delay, r.failNext > 0
	if fail {
		r.failNext--
	}
	secret := r.secret
	r.mu.Unlock()
	defer func() { r.hit <- struct{}{} }()
	time.Sleep(delay)
	if fail {
		http.Error(w, "receiver failing on purpose", http.StatusInternalServerError)
		return
	}
	wh, err := standardwebhooks.NewWebhook(secret)
	if err == nil {
		err = wh.Verify(body, req.Header)
	}
	var msg struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err == nil {
		err = json.Unmarshal(body, &msg)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.bad = append(r.bad, fmt.Sprintf("%s: %v", req.Header.Get("webhook-id"), err))
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	r.got = append(r.got, received{ID: req.Header.Get("webhook-id"), Type: msg.Type, Data: msg.Data})
	w.WriteHeader(http.StatusNoContent)
}

func (r *receiver) set(fn func(r *receiver)) { r.mu.Lock(); fn(r); r.mu.Unlock() }

func (r *receiver) received() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// waitFor waits until every id in want was received, or fails.
func (r *receiver) waitFor(t *testing.T, want []string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		missing := missingIDs(r.received(), want)
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v, %d of %d events never arrived: %v", within, len(missing), len(want), missing)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func missingIDs(got []received, want []string) []string {
	seen := map[string]bool{}
	for _, g := range got {
		seen[g.ID] = true
	}
	var out []string
	for _, w := range want {
		if !seen[w] {
			out = append(out, w)
		}
	}
	return out
}

// checkOrder fails unless each table's events first arrived in seq order.
func checkOrder(t *testing.T, got []received) {
	t.Helper()
	last := map[int64]int64{}
	first := map[string]bool{}
	for _, g := range got {
		if first[g.ID] {
			continue // a repeat (at-least-once) is allowed
		}
		first[g.ID] = true
		table, seq, err := webhook.ParseEventID(g.ID)
		if err != nil {
			t.Fatalf("delivery id %q: %v", g.ID, err)
		}
		if prev, ok := last[table]; ok && seq <= prev {
			t.Errorf("table %d: %s arrived after seq %d", table, g.ID, prev)
		}
		last[table] = seq
	}
}

// fastWebhooks retries quickly so that a test sees many attempts.
func fastWebhooks(c *app.Config) {
	c.WebhookTuning = &webhook.Config{Poll: 50 * time.Millisecond, Lease: 2 * time.Second,
		RetryBase: 50 * time.Millisecond, RetryMax: 500 * time.Millisecond, RetryFor: 10 * time.Minute}
}

func createEndpoint(t *testing.T, admin *gqltest.Client, url string) string {
	t.Helper()
	var out struct {
		CreateWebhookEndpoint struct {
			Endpoint struct{ ID string }
			Secret   string
		}
	}
	admin.MustDo(t, `mutation($u: String!) { createWebhookEndpoint(input: {url: $u, eventTypes: [TABLE_CREATED, TABLE_CHANGED, DRAW_SETTLED, DRAW_VOIDED], description: "партнёр"}) { endpoint { id } secret } }`,
		map[string]any{"u": url}, &out)
	if !strings.HasPrefix(out.CreateWebhookEndpoint.Secret, "whsec_") {
		t.Fatalf("secret %q", out.CreateWebhookEndpoint.Secret)
	}
	return out.CreateWebhookEndpoint.Secret
}

// tableEvents creates a table and toggles it n times, returning the
// event ids a subscriber to table.created and table.changed expects.
func tableEvents(t *testing.T, admin *gqltest.Client, n int) []string {
	t.Helper()
	var tb struct{ CreateTable struct{ ID string } }
	admin.MustDo(t, `mutation($n: String!) { createTable(input: {name: $n, positions: 4}) { id } }`, map[string]any{"n": unique("hooks")}, &tb)
	id, _ := strconv.ParseInt(tb.CreateTable.ID, 10, 64)
	ids := []string{webhook.EventID(id, 0)}
	for i := range n {
		op := "pauseTable"
		if i%2 == 1 {
			op = "resumeTable"
		}
		admin.MustDo(t, `mutation($id: ID!) { `+op+`(tableId: $id) { id } }`, map[string]any{"id": tb.CreateTable.ID}, nil)
		ids = append(ids, webhook.EventID(id, int64(i+1)))
	}
	return ids
}

// TestWebhooksThroughAFailingReceiver: a receiver that fails its first
// deliveries, answers slowly, then is down for a minute still gets every
// event, signed, in order per table.
func TestWebhooksThroughAFailingReceiver(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			_, c := startServer(t, b, fastWebhooks)
			admin := signIn(t, c, testAdminEmail, testAdminPassword)
			rcv := newReceiver(t)
			rcv.set(func(r *receiver) { r.secret = createEndpoint(t, admin, rcv.url()); r.failNext = 3 })
			want := tableEvents(t, admin, 4)
			rcv.waitFor(t, want, 30*time.Second)

			rcv.set(func(r *receiver) { r.delay = 300 * time.Millisecond })
			want = append(want, tableEvents(t, admin, 3)...)
			rcv.waitFor(t, want, 30*time.Second)

			rcv.set(func(r *receiver) { r.delay = 0 })
			rcv.down()
			downFor := time.Minute
			if testing.Short() {
				downFor = 5 * time.Second
			}
			want = append(want, tableEvents(t, admin, 4)...)
			time.Sleep(downFor)
			rcv.up()
			rcv.waitFor(t, want, 30*time.Second)

			got := rcv.received()
			checkOrder(t, got)
			rcv.mu.Lock()
			if len(rcv.bad) > 0 {
				t.Errorf("deliveries whose signature did not verify: %v", rcv.bad)
			}
			rcv.mu.Unlock()
			var eps struct {
				WebhookEndpoints []struct {
					Delivered int64
					Attempts  int
					ParkedAt  *time.Time
				}
			}
			admin.MustDo(t, `{ webhookEndpoints { delivered attempts parkedAt } }`, nil, &eps)
			if len(eps.WebhookEndpoints) != 1 || eps.WebhookEndpoints[0].ParkedAt != nil || eps.WebhookEndpoints[0].Attempts != 0 {
				t.Errorf("endpoint after the outage: %+v", eps)
			}
			t.Logf("%d events, %d deliveries acknowledged (repeats included), down %v", len(want), len(got), downFor)
		})
	}
}

// TestWebhooksSurviveAReplicaStopped: replica A is stopped while it
// delivers to a slow receiver; replica B takes the endpoint over and
// nothing is lost.
func TestWebhooksSurviveAReplicaStopped(t *testing.T) {
	t.Parallel()
	redisURL, prefix := testenv.Redis(t)
	b := backend{name: "postgres+redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redisURL, redisPrefix: prefix}
	_, ca, stopA := startStoppable(t, b, fastWebhooks)
	admin := signIn(t, ca, testAdminEmail, testAdminPassword)
	rcv := newReceiver(t)
	rcv.set(func(r *receiver) { r.secret = createEndpoint(t, admin, rcv.url()); r.delay = 150 * time.Millisecond })
	want := tableEvents(t, admin, 12)
	<-rcv.hit // A is delivering
	<-rcv.hit
	select {
	case err := <-stopA():
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Fatalf("replica A stopped with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("replica A did not stop")
	}
	before := len(rcv.received())
	_, cb := startServer(t, b, fastWebhooks)
	adminB := signIn(t, cb, testAdminEmail, testAdminPassword)
	want = append(want, tableEvents(t, adminB, 2)...)
	rcv.waitFor(t, want, 30*time.Second)
	checkOrder(t, rcv.received())
	if before >= len(want) {
		t.Fatalf("A delivered everything (%d) before it stopped: the test proved nothing", before)
	}
	t.Logf("A acknowledged %d deliveries before it stopped; all %d events arrived", before, len(want))
}
