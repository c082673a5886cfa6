// Package webhookhttp delivers webhooks over HTTP: each message POSTed as
// JSON and signed as the Standard Webhooks convention says (webhook-id,
// webhook-timestamp, webhook-signature: HMAC-SHA256 of "id.timestamp.body"
// under the endpoint's secret), by the convention's own Go library.
//
// A receiver is a stranger's server, so the sender trusts nothing of it:
// every attempt has a deadline, redirects are not followed (a 3xx is a
// failed attempt), at most MaxResponse bytes of an answer are read, no
// proxy from the environment is used, and the address actually dialled
// (after DNS) must be public unless the operator's allow-list names it.
package webhookhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pokertote/pokertote/domain/webhook"
)

// Config tunes a Sender; zero fields take the defaults.
type Config struct {
	// Timeout bounds one attempt, connection to the answer's last byte
	// read (default 10s).
	Timeout time.Duration
	// MaxResponse is how much of an answer is read (default 64 KiB); the
	// rest is cut.
	MaxResponse int64
	// Allow lists the non-public networks receivers may be on (loopback
	// for a development machine, an operator's own partner network).
	Allow []netip.Prefix
	// Now is the clock of webhook-timestamp (nil: time.Now).
	Now func() time.Time
}

// Sender is the webhook.Sender over HTTP.
type Sender struct {
	client *http.Client
	cfg    Config
}

var _ webhook.Sender = (*Sender)(nil)

// ErrAddressRefused is returned for a receiver whose address is loopback,
// private or otherwise special and not on the allow-list.
var ErrAddressRefused = errors.New("webhook receiver address refused: not public and not on WEBHOOK_ALLOW_NETWORKS")

// New returns a Sender with cfg.
func New(cfg Config) *Sender {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = 64 << 10
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !webhook.AddressAllowed(ap.Addr(), cfg.Allow) {
			return ErrAddressRefused
		}
		return nil
	}}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
	}
	client := &http.Client{
		Transport:     transport,
		Timeout:       cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Sender{client: client, cfg: cfg}
}

// Headers signs body as message id at time at with secret: the three
// Standard Webhooks headers a receiver checks.
func Headers(secret, id string, at time.Time, body []byte) (http.Header, error) {
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return nil, err
	}
	sig, err := wh.Sign(id, at, body)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set(standardwebhooks.HeaderWebhookID, id)
	h.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(at.Unix(), 10))
	h.Set(standardwebhooks.HeaderWebhookSignature, sig)
	return h, nil
}

// Send implements webhook.Sender: one POST, a 2xx answer acknowledges.
func (s *Sender) Send(ctx context.Context, e webhook.Endpoint, m webhook.Message) webhook.Outcome {
	body := m.Body()
	h, err := Headers(e.Secret, m.ID, s.cfg.Now(), body)
	if err != nil {
		return webhook.Outcome{Err: fmt.Errorf("signing: %w", err)}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return webhook.Outcome{Err: err}
	}
	req.Header = h
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Pokertote-Webhooks/1")
	resp, err := s.client.Do(req)
	if err != nil {
		return webhook.Outcome{Err: err}
	}
	defer resp.Body.Close()
	snippet, readErr := io.ReadAll(io.LimitReader(resp.Body, s.cfg.MaxResponse))
	if resp.StatusCode/100 == 2 {
		return webhook.Outcome{Status: resp.StatusCode}
	}
	msg := fmt.Sprintf("HTTP %d", resp.StatusCode)
	if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
		msg += " redirect to " + loc + " (redirects are not followed)"
	}
	if readErr == nil && len(snippet) > 0 {
		msg += ": " + printable(snippet, 200)
	}
	return webhook.Outcome{Status: resp.StatusCode, Err: errors.New(msg)}
}

// printable is at most n bytes of b as one line of text.
func printable(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b[:min(n, len(b))]), "?")
	return strings.Join(strings.Fields(s), " ")
}

// ParseNetworks reads a comma-separated list of CIDR prefixes (or single
// addresses) as WEBHOOK_ALLOW_NETWORKS gives it.
func ParseNetworks(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("WEBHOOK_ALLOW_NETWORKS: %q: %w", f, err)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("WEBHOOK_ALLOW_NETWORKS: %q: %w", f, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
