package graph

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
)

// TrustedProxies are the addresses (load balancers, reverse proxies) whose
// X-Forwarded-For or Forwarded headers are believed. A request from
// anywhere else is the client's own, whatever headers it sends: a client
// could otherwise pick the address its sign-in failures count against.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads addresses and CIDR prefixes ("10.0.0.0/8",
// "192.0.2.1", "::1").
func ParseTrustedProxies(list []string) (TrustedProxies, error) {
	var out TrustedProxies
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, errs.E(errs.Invalid, "trusted proxy %q is neither an address nor a CIDR prefix", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func (p TrustedProxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, pre := range p {
		if pre.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP is the address of the client that sent r: its peer's, unless
// the peer is a trusted proxy; then the hops it forwarded (Forwarded's
// for=, else X-Forwarded-For) are read from the nearest back, and the
// first one that is not a trusted proxy is the client. A hop that is not
// an address ends the walk at the last trusted one.
func (p TrustedProxies) ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !p.trusts(peer) {
		return host
	}
	hops := forwardedFor(r.Header)
	client := peer.Unmap()
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = a
		if !p.trusts(a) {
			break
		}
	}
	return client.String()
}

// forwardedFor lists the for= hops of every Forwarded header (RFC 7239),
// or, without one, of every X-Forwarded-For header, in order.
func forwardedFor(h http.Header) []string {
	var hops []string
	for _, line := range h.Values("Forwarded") {
		for _, elem := range strings.Split(line, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") {
					hops = append(hops, v)
				}
			}
		}
	}
	if len(hops) > 0 {
		return hops
	}
	for _, line := range h.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(line, ",")...)
	}
	return hops
}

// parseHop reads one hop: an address, or Forwarded's quoted and bracketed
// forms ("[2001:db8::1]:4711", "192.0.2.1:80").
func parseHop(s string) (netip.Addr, bool) {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	return a.Unmap(), err == nil
}

// ClientIPMiddleware puts the client's address (TrustedProxies.ClientIP)
// in the request's context, for the sign-in throttle and the per-address
// socket cap (ClientIP).
func ClientIPMiddleware(p TrustedProxies, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientIPKey{}, p.ClientIP(r))))
	})
}
