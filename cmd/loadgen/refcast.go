package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

func init() {
	register("refcast", "the reference: a minimal Go broadcaster speaking graphql-transport-ws (coder/websocket)", runRefcast)
}

// runRefcast serves /query as the smallest reasonable broadcaster: each
// subscriber gets a writer goroutine with a bounded queue (a full queue
// drops it); every -interval one event, encoded once, is queued to all. Its
// event has the shape and about the size of the server's (-size bytes), and
// carries "at", so loadgen viewers measures both the same way.
func runRefcast(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("refcast", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:19081", "listen address (loopback only)")
	interval := fs.Duration("interval", 200*time.Millisecond, "time between events")
	size := fs.Int("size", 600, "approximate bytes per message")
	queue := fs.Int("queue", 256, "messages queued per subscriber before it is dropped")
	burst := fs.Float64("burst", 1, "mean events sent back to back every interval, sharing one at (the server commits several events at once); 1.25: one, and two every fourth time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refcast listens on loopback only, not %q", host)
	}
	b := &broadcaster{subs: map[*refSub]struct{}{}, queue: *queue}
	srv := &http.Server{Addr: *addr, Handler: http.HandlerFunc(b.serve), ReadHeaderTimeout: 10 * time.Second}
	go b.run(ctx, *interval, *size, max(*burst, 1))
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

type broadcaster struct {
	mu    sync.Mutex
	subs  map[*refSub]struct{}
	queue int
}

type refSub struct {
	id string
	q  chan []byte
}

// serve accepts one WebSocket: init, ack, subscribe, then writes what is
// queued until the connection or the queue fails.
func (b *broadcaster) serve(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	var s *refSub
	for s == nil { // init, then subscribe
		_, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		var m struct{ ID, Type string }
		_ = json.Unmarshal(msg, &m)
		switch m.Type {
		case "connection_init":
			if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"connection_ack"}`)); err != nil {
				return
			}
		case "subscribe":
			s = &refSub{id: m.ID, q: make(chan []byte, b.queue)}
		}
	}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.subs, s)
		b.mu.Unlock()
	}()
	ctx = c.CloseRead(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case msg, ok := <-s.q:
			if !ok {
				_ = c.Close(websocket.StatusPolicyViolation, "too slow")
				return
			}
			if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
				return
			}
		}
	}
}

// run broadcasts burst events per interval on average (1.25: one, and
// two every fourth time), each encoded once per subscription id.
func (b *broadcaster) run(ctx context.Context, interval time.Duration, size int, burst float64) {
	t := time.NewTicker(interval)
	defer t.Stop()
	pad := strings.Repeat("x", max(size-220, 0))
	seq := int64(0)
	owed := 0.0 // events due, the fraction carried to the next burst
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		at := time.Now().UTC().Format(time.RFC3339Nano)
		owed += burst
		n := int(owed)
		owed -= float64(n)
		for range n {
			seq++
			b.send(fmt.Sprintf(`{"data":{"tableEvents":{"__typename":"CardsDealt","seq":%d,"at":%q,"drawId":"1","street":"FLOP","cards":["Ah","Kd","7c"],"pad":%q}}}`,
				seq, at, pad))
		}
	}
}

// send queues ev to every subscriber, dropping those whose queue is full.
func (b *broadcaster) send(ev string) {
	byID := map[string][]byte{}
	var slow []*refSub
	b.mu.Lock()
	for s := range b.subs {
		msg, ok := byID[s.id]
		if !ok {
			var buf bytes.Buffer
			fmt.Fprintf(&buf, `{"id":%q,"type":"next","payload":%s}`, s.id, ev)
			msg = buf.Bytes()
			byID[s.id] = msg
		}
		select {
		case s.q <- msg:
		default:
			slow = append(slow, s)
		}
	}
	for _, s := range slow {
		delete(b.subs, s)
		close(s.q)
	}
	b.mu.Unlock()
}
