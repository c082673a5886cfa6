package app_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// TestProxyCarriesStreamsAcrossReloadAndDrain runs the deploy kit's HAProxy
// configuration (deploy/haproxy/haproxy.cfg, its addresses and certificate
// path substituted) on 127.0.0.1 with a self-signed certificate in front of
// two replicas, and carries a WebSocket and an SSE stream of one table's
// events through it:
//   - TLS with HTTP/2 offered (the SSE stream and queries ride HTTP/2, the
//     WebSocket HTTP/1.1);
//   - a reload (SIGUSR2 to the master, as `systemctl reload haproxy` does)
//     leaves both streams open and flowing, and new requests are served;
//   - one replica drains (SIGTERM): its /readyz fails, the proxy takes it
//     out, and every stream it closed resumes through the proxy on the other
//     replica from the last seq it saw, with no gap.
func TestProxyCarriesStreamsAcrossReloadAndDrain(t *testing.T) {
	testenv.SkipShort(t, "runs HAProxy and two replicas dealing a table")
	t.Parallel()
	bin := needTool(t, "haproxy", "sudo apt-get install -y haproxy")
	redisURL, prefix := testenv.Redis(t)
	b := backend{name: "postgres+redis", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redisURL, redisPrefix: prefix}
	tweak := func(cfg *app.Config) {
		fastTote(cfg)
		// Long enough for the proxy's checks (fall 2, inter 1s) to take a
		// draining replica out before it closes its sockets, as the kit's
		// DRAIN_WINDOW of 10 s is in production.
		cfg.DrainWindow = 4 * time.Second
	}
	r1, c1, stop1 := startStoppable(t, b, tweak)
	t.Cleanup(func() { <-stop1() })
	tableID := createTableWith(t, signIn(t, c1, testAdminEmail, testAdminPassword), unique("proxy"), "")

	// Replica 2 starts once both streams ride replica 1, so that the drain
	// moves both.
	addr2 := freeAddr(t)
	proxy := startHAProxy(t, bin, r1.Addr(), addr2)
	h2 := proxy.client(false)
	if proto := proxy.get(t, h2, "/healthz"); proto != "HTTP/2.0" {
		t.Fatalf("/healthz through the proxy over %s, want HTTP/2.0", proto)
	}
	ws := openWS(t, proxy.client(true), tableID, 0)
	sse := openSSE(t, h2, tableID, 0)
	ws.next(t, "before the reload")
	sse.next(t, "before the reload")
	startServer(t, b, func(cfg *app.Config) { tweak(cfg); cfg.Addr = addr2 })

	proxy.reload(t)
	for i := 0; i < 5; i++ {
		ws.next(t, "after the reload")
		sse.next(t, "after the reload")
	}
	if proto := proxy.get(t, h2, "/healthz"); proto != "HTTP/2.0" {
		t.Fatalf("after the reload: /healthz over %s", proto)
	}

	drained := stop1()
	for _, s := range []*proxyStream{ws, sse} {
		for !s.closed {
			s.next(t, "until the drain closes it")
		}
		s.reopen(t)
	}
	if err := <-drained; err != nil {
		t.Fatalf("replica 1 stopped with %v", err)
	}
	for _, s := range []*proxyStream{ws, sse} {
		s.next(t, "after the drain")
		s.next(t, "after the drain")
		t.Logf("%s: %d events, resumed %d times, last seq %d", s.kind, s.events, s.resumed, s.last)
	}
}

// needTool is the path of a program a test runs; a missing one fails the
// test with how to install it (testenv.Required), or skips when opted out.
func needTool(t *testing.T, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if testenv.Required() {
		t.Fatalf("%s is not installed (%v): `%s`, or set %s=1 to skip", name, err, install, testenv.SkipEnv)
	}
	t.Skipf("%s is not installed (%v); skipping (%s=1)", name, err, testenv.SkipEnv)
	return ""
}

type haproxy struct {
	cmd  *exec.Cmd
	addr string
	pool *x509.CertPool
}

// startHAProxy runs deploy/haproxy/haproxy.cfg in master-worker mode in the
// foreground with the replicas at addr1 and addr2.
func startHAProxy(t *testing.T, bin, addr1, addr2 string) *haproxy {
	t.Helper()
	dir := t.TempDir()
	pemPath, pool := selfSignedCert(t, dir)
	cfg, err := os.ReadFile("../deploy/haproxy/haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	h := &haproxy{addr: freeAddr(t), pool: pool}
	text := string(cfg)
	for _, r := range [][2]string{
		{"bind :443 ", "bind " + h.addr + " "}, {"bind :80\n", "bind " + freeAddr(t) + "\n"},
		{"crt /etc/haproxy/certs/pokertote.pem", "crt " + pemPath}, {"stats socket /run/haproxy/admin.sock", "stats socket " + filepath.Join(dir, "admin.sock")},
		{"127.0.0.1:8081", addr1}, {"127.0.0.1:8082", addr2},
		// The test runs as whoever runs it, with no syslog.
		{"    user haproxy\n", ""}, {"    group haproxy\n", ""}, {"    log /dev/log local0\n", ""},
	} {
		if strings.Count(text, r[0]) != 1 {
			t.Fatalf("deploy/haproxy/haproxy.cfg: %q appears %d times, want once", r[0], strings.Count(text, r[0]))
		}
		text = strings.Replace(text, r[0], r[1], 1)
	}
	path := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-c", "-q", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
	h.cmd = exec.Command(bin, "-W", "-db", "-f", path)
	h.cmd.Stdout, h.cmd.Stderr = testWriter{t}, testWriter{t}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.cmd.Process.Signal(syscall.SIGTERM); _ = h.cmd.Wait() })
	h.waitServing(t, 2)
	return h
}

// waitServing waits until the proxy serves /readyz with n replicas up.
func (h *haproxy) waitServing(t *testing.T, n int) {
	t.Helper()
	c := h.client(false)
	eventually(t, "HAProxy serves", func() bool {
		res, err := c.HTTP.Get("https://" + h.addr + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	time.Sleep(time.Duration(n) * time.Second) // both replicas' first checks (inter 1s)
}

// reload does what `systemctl reload haproxy` does to Debian's unit: the
// master starts new workers and the old ones keep what they carry.
func (h *haproxy) reload(t *testing.T) {
	t.Helper()
	if err := h.cmd.Process.Signal(syscall.SIGUSR2); err != nil {
		t.Fatalf("reload: %v", err)
	}
	h.waitServing(t, 2)
}

// client is a GraphQL client through the proxy that trusts its
// certificate; http1 offers HTTP/1.1 only (for a WebSocket upgrade).
func (h *haproxy) client(http1 bool) *gqltest.Client {
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: h.pool}, ForceAttemptHTTP2: !http1}
	if http1 {
		tr.TLSClientConfig.NextProtos = []string{"http/1.1"}
	}
	return &gqltest.Client{URL: "https://" + h.addr + "/query", HTTP: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// get fetches path through the proxy and returns the protocol it rode.
func (h *haproxy) get(t *testing.T, c *gqltest.Client, path string) string {
	t.Helper()
	res, err := c.HTTP.Get("https://" + h.addr + path)
	if err != nil {
		t.Fatalf("GET %s through the proxy: %v", path, err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s through the proxy: %s", path, res.Status)
	}
	return res.Proto
}

// proxyStream is one table-event stream through the proxy (a WebSocket or
// SSE), reopened from its last seq when the server closes it.
type proxyStream struct {
	kind    string
	client  *gqltest.Client
	table   string
	ch      <-chan int64
	close   func()
	last    int64
	events  int
	closed  bool
	resumed int
}

func openWS(t *testing.T, c *gqltest.Client, table string, after int64) *proxyStream {
	s := &proxyStream{kind: "websocket", client: c, table: table, last: after}
	s.open(t)
	return s
}

func openSSE(t *testing.T, c *gqltest.Client, table string, after int64) *proxyStream {
	s := &proxyStream{kind: "sse", client: c, table: table, last: after}
	s.open(t)
	return s
}

func (s *proxyStream) open(t *testing.T) {
	t.Helper()
	if err := s.tryOpen(t); err != nil {
		t.Fatalf("%s through the proxy: %v", s.kind, err)
	}
}

// tryOpen opens the stream after s.last, or says why it could not.
func (s *proxyStream) tryOpen(t *testing.T) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	vars := map[string]any{"t": s.table, "after": s.last}
	out := make(chan int64, 4096)
	decode := func(data json.RawMessage) {
		var m struct{ TableEvents struct{ Seq int64 } }
		if err := json.Unmarshal(data, &m); err != nil {
			t.Errorf("%s: decode %s: %v", s.kind, data, err)
		}
		out <- m.TableEvents.Seq
	}
	if s.kind == "websocket" {
		sub, err := s.client.Subscribe(ctx, tableEventsSub, vars)
		if err != nil {
			return err
		}
		go func() {
			defer close(out)
			for raw := range sub.Next {
				decode(raw)
			}
		}()
		s.ch, s.close = out, sub.Close
	} else {
		st, err := s.client.SSE(context.Background(), tableEventsSub, vars, nil)
		if err != nil {
			return err
		}
		go func() {
			defer close(out)
			for r := range st.Next {
				decode(r.Data)
			}
		}()
		s.ch, s.close = out, st.Close
	}
	t.Cleanup(s.close)
	s.closed = false
	return nil
}

// next waits for the stream's next event and checks that it follows the
// last one seen (after a resume too: no gap, no repeat); a stream the server
// closed is marked closed.
func (s *proxyStream) next(t *testing.T, when string) {
	t.Helper()
	select {
	case seq, ok := <-s.ch:
		if !ok {
			s.closed = true
			return
		}
		if s.last != 0 && seq != s.last+1 {
			t.Fatalf("%s %s: seq %d after %d", s.kind, when, seq, s.last)
		}
		s.last = seq
		s.events++
	case <-time.After(15 * time.Second):
		t.Fatalf("%s %s: no event within 15 s (last seq %d)", s.kind, when, s.last)
	}
}

// reopen resumes a closed stream through the proxy from its last seq, as
// a client does: a refusal (the proxy sent it to the draining replica before
// its checks took it out) is tried again after a pause, for up to 15 s.
func (s *proxyStream) reopen(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		err := s.tryOpen(t)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no resume through the proxy within 15 s: %v", s.kind, err)
		}
		t.Logf("%s: resume refused, trying again: %v", s.kind, err)
		time.Sleep(250 * time.Millisecond)
	}
	s.resumed++
}

// selfSignedCert writes a certificate for 127.0.0.1 and its key in one PEM
// file (as HAProxy's crt takes them) and returns it with a pool trusting it.
func selfSignedCert(t *testing.T, dir string) (string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	data := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})...)
	path := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, pool
}
