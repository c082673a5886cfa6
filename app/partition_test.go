package app_test

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// cutProxy forwards TCP connections to target until Cut: from then on it
// forwards nothing in either direction and holds every connection, old and
// new, open and silent, as a network partition does.
type cutProxy struct {
	ln     net.Listener
	target string
	cut    atomic.Bool
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.keep(c)
			if p.cut.Load() {
				continue // silent
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.keep(up)
			go p.pump(up, c)
			go p.pump(c, up)
		}
	}()
	return p
}

func (p *cutProxy) keep(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

func (p *cutProxy) pump(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.cut.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil { // io.EOF or a closed connection
			return
		}
	}
}

func (p *cutProxy) Addr() string { return p.ln.Addr().String() }

// TestPartitionFromPostgres: a replica whose Postgres is cut off by a
// partition (a proxy that stops forwarding) answers /readyz 503 within its
// 1 s budget, and a request that needs the database answers UNAVAILABLE
// within the request timeout, instead of hanging. The times are printed.
func TestPartitionFromPostgres(t *testing.T) {
	t.Parallel()
	dbURL := sqldbtest.MigratedPostgres.Postgres(t)
	redisURL, prefix := testenv.Redis(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutProxy(t, u.Host)
	u.Host = proxy.Addr()
	b := backend{name: "postgres+redis", databaseURL: u.String(), redisURL: redisURL, redisPrefix: prefix}
	a, c := startServer(t, b, func(cfg *app.Config) { cfg.RequestTimeout = 3 * time.Second })
	p := newPlayer(t, c, "5.00")
	readyz := func() (int, time.Duration) {
		start := time.Now()
		res, err := http.Get("http://" + a.Addr() + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, time.Since(start)
	}
	if code, _ := readyz(); code != http.StatusOK {
		t.Fatalf("/readyz before the cut = %d", code)
	}
	proxy.cut.Store(true)
	code, took := readyz()
	if code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz cut from Postgres = %d, want 503", code)
	}
	t.Logf("/readyz answered 503 %v after the cut (goal <= 1 s)", took.Round(time.Millisecond))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	res, err := p.Client.Do(ctx, `{ me { balance } }`, nil)
	if err != nil {
		t.Fatalf("request cut from Postgres: %v (after %v)", err, time.Since(start))
	}
	if len(res.Errors) == 0 || res.Errors[0].Code() != "UNAVAILABLE" {
		t.Fatalf("request cut from Postgres answered %s %+v, want UNAVAILABLE", res.Data, res.Errors)
	}
	t.Logf("a request needing the database answered UNAVAILABLE %v after it was sent (request timeout 3 s)", time.Since(start).Round(time.Millisecond))
}
