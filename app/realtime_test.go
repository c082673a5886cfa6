package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokertote/pokertote/app"
)

// TestTableEventsOverSSE reads a table's stream as server-sent events, the
// transport for clients that cannot open a WebSocket.
func TestTableEventsOverSSE(t *testing.T) {
	t.Parallel()
	a, c := startServer(t, backend{name: "sqlite"}, fastTote)
	tableID := createTable(t, signIn(t, c, testAdminEmail, testAdminPassword), unique("sse"))
	body, _ := json.Marshal(map[string]any{"query": tableEventsSub, "variables": map[string]any{"t": tableID, "after": 0}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+a.Addr()+"/query", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(res.Body)
	var seqs []int64
	for len(seqs) < 3 && sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m struct {
			Data struct{ TableEvents tableEvent }
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("event %q: %v", line, err)
		}
		seqs = append(seqs, m.Data.TableEvents.Seq)
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[1] != 2 || seqs[2] != 3 {
		t.Fatalf("SSE delivered seqs %v, want [1 2 3] (scan error %v)", seqs, sc.Err())
	}
}

// TestMyEventsNeedTheTokenInConnectionInit: a player's private stream is
// opened with the access token in connection_init and carries their balance
// changes; without a token it is refused.
func TestMyEventsNeedTheTokenInConnectionInit(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, nil)
	p := newPlayer(t, c, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const q = `subscription { myEvents { __typename ... on BalanceChanged { balance } } }`

	anon, err := c.Subscribe(ctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range anon.Next {
		t.Fatal("anonymous myEvents delivered an event")
	}
	if !strings.Contains(anon.Err(), "UNAUTHENTICATED") && !strings.Contains(anon.Err(), "sign in") {
		t.Fatalf("anonymous myEvents ended with %q, want UNAUTHENTICATED", anon.Err())
	}

	sub, err := p.Client.Subscribe(ctx, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	// The subscription is registered asynchronously after the start message:
	// deposit until the first event arrives, then check it against the
	// balances the deposits reported.
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	balances := map[string]bool{}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		var out struct {
			Deposit struct{ Balance string }
		}
		admin.MustDo(t, `mutation($u: ID!, $k: String!) { deposit(input: {userId: $u, amount: "250.00", idempotencyKey: $k}) { balance } }`,
			map[string]any{"u": p.ID, "k": unique("ws-dep")}, &out)
		balances[out.Deposit.Balance] = true
		select {
		case raw, ok := <-sub.Next:
			if !ok {
				t.Fatalf("stream ended: %s", sub.Err())
			}
			var m struct {
				MyEvents struct {
					Typename string `json:"__typename"`
					Balance  string
				}
			}
			_ = json.Unmarshal(raw, &m)
			if m.MyEvents.Typename != "BalanceChanged" || !balances[m.MyEvents.Balance] {
				t.Fatalf("event %s; deposits reported balances %v", raw, balances)
			}
			return
		case <-tick.C:
		case <-ctx.Done():
			t.Fatalf("no BALANCE_CHANGED event after %d deposits", i+1)
		}
	}
}

// TestWebSocketOriginsAreChecked: a browser page from an origin that is not
// allowed cannot open the WebSocket.
func TestWebSocketOriginsAreChecked(t *testing.T) {
	t.Parallel()
	a, _ := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) {
		cfg.AllowedOrigins = []string{"https://app.pokertote.kz"}
	})
	dial := func(origin string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws://"+a.Addr()+"/query", &websocket.DialOptions{
			Subprotocols: []string{"graphql-transport-ws"},
			HTTPHeader:   http.Header{"Origin": {origin}},
		})
		if err == nil {
			conn.CloseNow()
		}
		return err
	}
	if err := dial("https://app.pokertote.kz"); err != nil {
		t.Fatalf("allowed origin refused: %v", err)
	}
	if err := dial("https://evil.example"); err == nil {
		t.Fatal("a foreign origin opened a WebSocket")
	}
}
