package webhookhttp_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pokertote/pokertote/domain/webhook"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/webhookhttp"
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

func message() webhook.Message {
	return webhook.Message{ID: webhook.EventID(3, 42), Type: webhook.DrawSettled, Timestamp: time.Now().UTC(), Data: json.RawMessage(`{"drawId":7}`), TableID: 3, Seq: 42}
}

func endpoint(url string) webhook.Endpoint { return webhook.Endpoint{ID: 1, URL: url, Secret: secret} }

// TestSignatureVerifies: a receiver checks a delivery with the Standard
// Webhooks library and with the docs' hand-written recipe.
func TestSignatureVerifies(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		wh, _ := standardwebhooks.NewWebhook(secret)
		got.Store([]any{wh.Verify(body, r.Header), recipe(r.Header, body), string(body), r.Header.Get("Content-Type")})
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	out := webhookhttp.New(webhookhttp.Config{Allow: loopback}).Send(context.Background(), endpoint(srv.URL), message())
	if out.Err != nil || out.Status != http.StatusNoContent {
		t.Fatalf("outcome %+v", out)
	}
	r := got.Load().([]any)
	if r[0] != nil {
		t.Errorf("the library refuses the signature: %v", r[0])
	}
	if r[1] != true {
		t.Error("the docs' recipe refuses the signature")
	}
	if !strings.HasPrefix(r[2].(string), `{"type":"draw.settled","timestamp":"`) || !strings.HasSuffix(r[2].(string), `"data":{"drawId":7}}`) || r[3] != "application/json" {
		t.Errorf("body %s, content type %s", r[2], r[3])
	}
}

// recipe is docs/partners.md's check, written out: HMAC-SHA256 under the
// base64 key after "whsec_", over "id.timestamp.body", compared with each
// "v1,<base64>" of the header.
func recipe(h http.Header, body []byte) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "."))
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

// TestNodeRecipe: the Node recipe of docs/partners.md accepts a delivery
// signed by the sender (node:crypto, no package).
func TestNodeRecipe(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if testenv.Required() {
			t.Fatal("node is not installed: the Node recipe cannot be checked (.ci/run installs nodejs)")
		}
		t.Skip("node is not installed")
	}
	m := message()
	body := m.Body()
	h, err := webhookhttp.Headers(secret, m.ID, time.Now(), body)
	if err != nil {
		t.Fatal(err)
	}
	script := `
const crypto = require('node:crypto');
function verify(secret, headers, body) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = headers['webhook-id'] + '.' + headers['webhook-timestamp'] + '.' + body;
  const expected = 'v1,' + crypto.createHmac('sha256', key).update(signed).digest('base64');
  const age = Math.abs(Date.now() / 1000 - Number(headers['webhook-timestamp']));
  return age < 300 && headers['webhook-signature'].split(' ').some((s) =>
    s.length === expected.length && crypto.timingSafeEqual(Buffer.from(s), Buffer.from(expected)));
}
const [secret, id, ts, sig, body] = process.argv.slice(1);
const ok = verify(secret, {'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig}, body);
const bad = verify(secret, {'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig}, body + ' ');
process.stdout.write(ok && !bad ? 'ok' : 'refused');
`
	out, err := exec.Command(node, "-e", script, secret, h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"), string(body)).CombinedOutput()
	if err != nil || string(out) != "ok" {
		t.Fatalf("node recipe: %s %v", out, err)
	}
}

func TestReceiversThatMisbehave(t *testing.T) {
	var hitTarget atomic.Bool
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hitTarget.Store(true) }))
	defer target.Close()
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) }, "HTTP 500: boom"},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
		},
			"redirects are not followed"},
		{"slow", func(w http.ResponseWriter, r *http.Request) { time.Sleep(2 * time.Second) }, "Client.Timeout"},
		{"huge answer", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
			chunk := []byte(strings.Repeat("x", 1<<16))
			for range 1 << 10 { // 64 MiB offered
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, "HTTP 502: xxxx"},
	}
	s := webhookhttp.New(webhookhttp.Config{Allow: loopback, Timeout: 500 * time.Millisecond})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			out := s.Send(context.Background(), endpoint(srv.URL), message())
			if out.Err == nil || !strings.Contains(out.Err.Error(), c.want) {
				t.Fatalf("outcome %+v, want an error with %q", out, c.want)
			}
			if len(out.Err.Error()) > 400 {
				t.Errorf("error of %d bytes: the answer was not cut", len(out.Err.Error()))
			}
		})
	}
	if hitTarget.Load() {
		t.Error("a redirect was followed")
	}
}

func TestPrivateAddressesRefused(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	out := webhookhttp.New(webhookhttp.Config{}).Send(context.Background(), endpoint(srv.URL), message())
	if !errors.Is(out.Err, webhookhttp.ErrAddressRefused) {
		t.Fatalf("loopback without an allow-list: %+v", out)
	}
	// A name that resolves to loopback is refused the same way: the check
	// is on the address dialled.
	out = webhookhttp.New(webhookhttp.Config{}).Send(context.Background(), endpoint(strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)), message())
	if !errors.Is(out.Err, webhookhttp.ErrAddressRefused) {
		t.Fatalf("localhost without an allow-list: %+v", out)
	}
	if hits.Load() != 0 {
		t.Fatal("a refused receiver was reached")
	}
}

func TestParseNetworks(t *testing.T) {
	ps, err := webhookhttp.ParseNetworks(" 127.0.0.0/8, ::1 ,10.1.2.3")
	if err != nil || len(ps) != 3 || ps[1].String() != "::1/128" || ps[2].String() != "10.1.2.3/32" {
		t.Fatalf("%v %v", ps, err)
	}
	if _, err := webhookhttp.ParseNetworks("10.0.0.0/33"); err == nil {
		t.Error("a bad prefix was accepted")
	}
}
