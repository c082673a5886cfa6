package graph

import (
	"net/http"
	"net/netip"
	"testing"
)

// TestClientIP: forwarded headers count only from trusted proxies, and then
// name the nearest hop that is not one.
func TestClientIP(t *testing.T) {
	proxies, err := ParseTrustedProxies([]string{"10.0.0.0/8", "192.0.2.1", "::1"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, remote string
		header       http.Header
		want         string
	}{
		{"direct client, forged header", "203.0.113.9:5000", http.Header{"X-Forwarded-For": {"198.51.100.1"}}, "203.0.113.9"},
		{"through the balancer", "10.1.2.3:4000", http.Header{"X-Forwarded-For": {"198.51.100.1"}}, "198.51.100.1"},
		{"spoofed hop left of the client", "10.1.2.3:4000", http.Header{"X-Forwarded-For": {"1.2.3.4, 198.51.100.1, 10.9.9.9"}}, "198.51.100.1"},
		{"two header lines", "192.0.2.1:80", http.Header{"X-Forwarded-For": {"1.2.3.4", "198.51.100.2"}}, "198.51.100.2"},
		{"Forwarded wins", "10.0.0.1:1", http.Header{"Forwarded": {`for="[2001:db8::7]:4711";proto=https`}, "X-Forwarded-For": {"1.1.1.1"}}, "2001:db8::7"},
		{"garbage hop", "10.0.0.1:1", http.Header{"X-Forwarded-For": {"198.51.100.1, unknown"}}, "10.0.0.1"},
		{"only proxies", "10.0.0.1:1", http.Header{"X-Forwarded-For": {"10.0.0.2"}}, "10.0.0.2"},
		{"no header", "[::1]:9", nil, "::1"},
	}
	for _, c := range cases {
		r := &http.Request{RemoteAddr: c.remote, Header: c.header}
		if got := proxies.ClientIP(r); got != c.want {
			t.Errorf("%s: ClientIP = %s, want %s", c.name, got, c.want)
		}
	}
	if _, err := ParseTrustedProxies([]string{"10.0.0.0/33"}); err == nil {
		t.Error("a bad prefix was accepted")
	}
}

// FuzzClientIP: whatever the headers say, the answer is the peer or an
// address one of them named, never text an attacker chose.
func FuzzClientIP(f *testing.F) {
	f.Add("198.51.100.1, 10.0.0.2", `for=192.0.2.60;proto=http, for="[2001:db8::1]:80"`)
	f.Add("", "")
	proxies, _ := ParseTrustedProxies([]string{"10.0.0.0/8"})
	f.Fuzz(func(t *testing.T, xff, fwd string) {
		r := &http.Request{RemoteAddr: "10.0.0.1:1", Header: http.Header{"X-Forwarded-For": {xff}, "Forwarded": {fwd}}}
		got := proxies.ClientIP(r)
		if _, err := netip.ParseAddr(got); err != nil {
			t.Fatalf("ClientIP = %q, not an address", got)
		}
	})
}
