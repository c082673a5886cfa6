package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/pokertote/pokertote/app"
)

// countingReader yields n bytes of a JSON body with one huge variable,
// counting how many the server made it produce.
type countingReader struct {
	head, tail string
	n, read    int64
	served     atomic.Int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	i := 0
	for i < len(p) && r.read < r.n {
		switch {
		case r.read < int64(len(r.head)):
			p[i] = r.head[r.read]
		case r.read >= r.n-int64(len(r.tail)):
			p[i] = r.tail[r.read-(r.n-int64(len(r.tail)))]
		default:
			p[i] = 'a'
		}
		i++
		r.read++
	}
	r.served.Add(int64(i))
	if i == 0 {
		return 0, io.EOF
	}
	return i, nil
}

type gqlErrors struct {
	Errors []struct {
		Message    string
		Extensions struct{ Code, Reason string }
	}
}

func postRaw(t *testing.T, url string, body io.Reader, length int64) (int, gqlErrors) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out gqlErrors
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer %q is not JSON: %v", raw, err)
	}
	if len(raw) > 2000 {
		t.Errorf("the answer is %d bytes long: it echoes the request", len(raw))
	}
	for _, e := range out.Errors {
		if strings.Contains(e.Message, "Go ") || strings.Contains(e.Message, "graphql.") || strings.Contains(e.Message, "RawParams") {
			t.Errorf("message %q names Go types", e.Message)
		}
	}
	return resp.StatusCode, out
}

// TestBoundedInput sends what an abusive or broken client sends: bodies and
// WebSocket messages past the cap, malformed JSON, batches, huge arguments,
// deep queries. Each is refused with a short message and a stable reason,
// without the server reading a huge body whole.
func TestBoundedInput(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	_, c := startServer(t, b, func(cfg *app.Config) { cfg.MaxRequest = 1 << 20 })
	wantReason := func(t *testing.T, out gqlErrors, reason string) {
		t.Helper()
		if len(out.Errors) == 0 || out.Errors[0].Extensions.Reason != reason || out.Errors[0].Extensions.Code != "BAD_USER_INPUT" {
			t.Fatalf("errors %+v, want BAD_USER_INPUT/%s", out.Errors, reason)
		}
	}
	huge := func() *countingReader {
		return &countingReader{head: `{"query":"query($x: String) { __typename }","variables":{"x":"`, tail: `"}}`, n: 100 << 20}
	}

	t.Run("a 100 MB body announced by its length is refused unread", func(t *testing.T) {
		r := huge()
		code, out := postRaw(t, c.URL, r, r.n)
		if code != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d, want 413", code)
		}
		wantReason(t, out, "REQUEST_TOO_LARGE")
		if got := r.served.Load(); got > 8<<20 {
			t.Errorf("the server read %d bytes of the body", got)
		}
	})
	t.Run("a 100 MB chunked body is cut at the cap", func(t *testing.T) {
		r := huge()
		_, out := postRaw(t, c.URL, r, -1)
		wantReason(t, out, "REQUEST_TOO_LARGE")
		if got := r.served.Load(); got > 8<<20 {
			t.Errorf("the server read %d bytes of the body", got)
		}
	})
	t.Run("malformed JSON", func(t *testing.T) {
		body := `{"query": "{ __typename }", "variables": {"x": "` + strings.Repeat("b", 100_000)
		_, out := postRaw(t, c.URL, strings.NewReader(body), int64(len(body)))
		wantReason(t, out, "MALFORMED_REQUEST")
	})
	t.Run("a batch array", func(t *testing.T) {
		body := `[` + strings.Repeat(`{"query":"{ __typename }"},`, 2000) + `{"query":"{ __typename }"}]`
		_, out := postRaw(t, c.URL, strings.NewReader(body), int64(len(body)))
		wantReason(t, out, "BATCH_NOT_SUPPORTED")
	})
	t.Run("a huge argument comes back as a short prefix", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"query": `{ draw(id: "` + strings.Repeat("9z", 200_000) + `") { id } }`})
		_, out := postRaw(t, c.URL, bytes.NewReader(body), int64(len(body)))
		if len(out.Errors) == 0 || len(out.Errors[0].Message) > 210 {
			t.Fatalf("errors %+v", out.Errors)
		}
	})
	t.Run("a huge variable of the wrong type comes back as a short prefix", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"query": `query($n: Int) { myBets(first: $n) { __typename } }`, "variables": map[string]any{"n": strings.Repeat("7", 500_000)}})
		_, out := postRaw(t, c.URL, bytes.NewReader(body), int64(len(body)))
		if len(out.Errors) == 0 || len(out.Errors[0].Message) > 210 {
			t.Fatalf("errors %+v", out.Errors)
		}
	})
	t.Run("depth limit", func(t *testing.T) {
		q := "{ tables { " + strings.Repeat("currentDraw { table { ", 6) + "id" + strings.Repeat(" } }", 6) + " } }"
		c.MustFail(t, "BAD_USER_INPUT", "DEPTH_LIMIT_EXCEEDED", q, nil)
		c.MustDo(t, `{ tables { currentDraw { table { currentDraw { id } } } } }`, nil, nil)
	})
	t.Run("a WebSocket message past the cap closes the connection", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.URL, "http"), &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		if err := wsjson.Write(ctx, conn, map[string]any{"type": "connection_init"}); err != nil {
			t.Fatal(err)
		}
		var ack map[string]any
		if err := wsjson.Read(ctx, conn, &ack); err != nil || ack["type"] != "connection_ack" {
			t.Fatalf("ack %v, %v", ack, err)
		}
		_ = wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
			"query": "subscription($x: String) { tableEvents(tableId: 1) { seq } }", "variables": map[string]any{"x": strings.Repeat("a", 2<<20)}}})
		for {
			var m map[string]any
			if err := wsjson.Read(ctx, conn, &m); err != nil {
				if s := websocket.CloseStatus(err); s != websocket.StatusMessageTooBig {
					t.Fatalf("closed with %v (%d), want 1009 message too big", err, s)
				}
				return
			}
			if m["type"] == "next" {
				t.Fatalf("the oversized subscription ran: %v", m)
			}
		}
	})
}
