package wstransport

import (
	"context"
	"net"
	"net/http"
	"sync"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// The reasons of the WebSocket caps. A socket over a cap is closed with
// code CloseTooMany and the reason as its close reason; a subscription over
// the per-socket cap gets an error with the reason and completes.
const (
	ReasonSocketsPerAddress      = "SOCKETS_PER_ADDRESS"
	ReasonSocketsPerUser         = "SOCKETS_PER_USER"
	ReasonSocketsPerKey          = "SOCKETS_PER_KEY"
	ReasonSubscriptionsPerSocket = "SUBSCRIPTIONS_PER_SOCKET"
)

// CloseTooMany is the close code of a socket refused by a cap (4429, as
// graphql-ws names too many requests; its client does not retry a 4xxx
// close it does not know without backing off).
const CloseTooMany = 4429

// Caps bounds what one client holds: operations per socket, and sockets
// (and SSE streams) per signed-in user, per API key and per address. Zero
// is no cap.
type Caps struct {
	SubscriptionsPerSocket int
	SocketsPerUser         int
	SocketsPerKey          int
	SocketsPerAddress      int
}

// wsCounter counts the open sockets per user and per address.
type wsCounter struct {
	caps  Caps
	user  func(ctx context.Context) (int64, bool)
	key   func(ctx context.Context) (string, bool)
	mu    sync.Mutex
	users map[int64]int
	keys  map[string]int
	addrs map[string]int
}

func newWSCounter(c Caps, user func(ctx context.Context) (int64, bool), key func(ctx context.Context) (string, bool)) *wsCounter {
	return &wsCounter{caps: c, user: user, key: key, users: map[int64]int{}, keys: map[string]int{}, addrs: map[string]int{}}
}

// socketAddress is the client's address: clientIP's (the one the
// authentication middleware recorded) when it knows it, else the
// connection's.
func socketAddress(r *http.Request, clientIP func(ctx context.Context) string) string {
	if clientIP != nil {
		if ip := clientIP(r.Context()); ip != "" {
			return ip
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// admitAddress counts a socket of addr; ok is false (and nothing counted)
// when addr holds its cap already. release undoes the count, once.
func (w *wsCounter) admitAddress(addr string) (release func(), ok bool) {
	if w == nil || w.caps.SocketsPerAddress <= 0 {
		return func() {}, true
	}
	return admit(&w.mu, w.addrs, addr, w.caps.SocketsPerAddress)
}

// admitPrincipal counts a socket of ctx's API key or signed-in user
// (anonymous sockets are counted by address only); reason names the cap
// that is full ("" when admitted). release undoes the count, once.
func (w *wsCounter) admitPrincipal(ctx context.Context) (release func(), reason string) {
	if w == nil {
		return func() {}, ""
	}
	if w.key != nil {
		if id, ok := w.key(ctx); ok {
			if w.caps.SocketsPerKey <= 0 {
				return func() {}, ""
			}
			if release, ok := admit(&w.mu, w.keys, id, w.caps.SocketsPerKey); ok {
				return release, ""
			}
			return nil, ReasonSocketsPerKey
		}
	}
	if w.caps.SocketsPerUser <= 0 || w.user == nil {
		return func() {}, ""
	}
	userID, signedIn := w.user(ctx)
	if !signedIn {
		return func() {}, ""
	}
	if release, ok := admit(&w.mu, w.users, userID, w.caps.SocketsPerUser); ok {
		return release, ""
	}
	return nil, ReasonSocketsPerUser
}

func admit[K comparable](mu *sync.Mutex, m map[K]int, k K, limit int) (func(), bool) {
	mu.Lock()
	defer mu.Unlock()
	if m[k] >= limit {
		return nil, false
	}
	m[k]++
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			if m[k]--; m[k] <= 0 {
				delete(m, k)
			}
		})
	}, true
}

// overSocket reports whether a socket running active operations is at
// its cap.
func (w *wsCounter) overSocket(active int) bool {
	return w != nil && w.caps.SubscriptionsPerSocket > 0 && active >= w.caps.SubscriptionsPerSocket
}

// tooManySubscriptions is the error of a subscribe over the per-socket cap.
func tooManySubscriptions() *gqlerror.Error {
	return &gqlerror.Error{
		Message:    "this connection runs as many operations as it may at once: complete one first",
		Extensions: map[string]any{"code": string(errs.Forbidden), "reason": ReasonSubscriptionsPerSocket},
	}
}

// Counter counts the open sockets and SSE streams of every user and
// address against one set of Caps: a transport of this package and the
// server's SSE transport share one, so a client cannot step round a cap by
// switching transports.
type Counter struct{ c *wsCounter }

// NewCounter returns a counter of caps; key names the API key of a
// request's context, user its signed-in user (anonymous ones are counted
// by address only).
func NewCounter(caps Caps, user func(ctx context.Context) (int64, bool), key func(ctx context.Context) (string, bool)) *Counter {
	return &Counter{c: newWSCounter(caps, user, key)}
}

// Admit counts a stream of r (its address, then its signed-in user): ok
// is false, with the cap's reason, when one is full; release undoes the
// counts, once.
func (c *Counter) Admit(ctx context.Context, r *http.Request, clientIP func(ctx context.Context) string) (release func(), reason string) {
	if c == nil {
		return func() {}, ""
	}
	releaseAddr, ok := c.c.admitAddress(socketAddress(r, clientIP))
	if !ok {
		return nil, ReasonSocketsPerAddress
	}
	releaseUser, reason := c.c.admitPrincipal(ctx)
	if reason != "" {
		releaseAddr()
		return nil, reason
	}
	return func() { releaseUser(); releaseAddr() }, ""
}
