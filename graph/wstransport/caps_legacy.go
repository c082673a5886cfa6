package wstransport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"sync"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// legacyConn is a legacy graphql-ws connection under the same caps as a
// graphql-transport-ws one: gqlgen's transport speaks the protocol, and
// this connection, between it and the socket, counts the operations it
// runs ("start" to "stop", "complete" or "error") and refuses one over
// SubscriptionsPerSocket with an "error" of SUBSCRIPTIONS_PER_SOCKET;
// once the init has named the user or key it counts the socket against
// SocketsPerUser or SocketsPerKey (close 4429 with the cap's reason). A refused init
// closes with the code and reason InitRefusal gives (4401 TOKEN_EXPIRED),
// as on the other protocol. Closing releases every count.
type legacyConn struct {
	*wsConn
	caps *wsCounter

	mu          sync.Mutex
	active      map[string]struct{}
	releaseAddr func()
	releaseUser func()
}

func newLegacyConn(c *wsConn, caps *wsCounter, releaseAddr func()) *legacyConn {
	return &legacyConn{wsConn: c, caps: caps, active: map[string]struct{}{}, releaseAddr: releaseAddr, releaseUser: func() {}}
}

// legacyMessage is the part of a protocol message the caps read.
type legacyMessage struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// NextReader implements transport.WebsocketConn: a "start" over the cap
// is answered here and never reaches gqlgen.
func (l *legacyConn) NextReader() (int, io.Reader, error) {
	for {
		typ, r, err := l.wsConn.NextReader()
		if err != nil || r == nil {
			return typ, r, err
		}
		data, err := io.ReadAll(r)
		if err != nil {
			return typ, nil, err
		}
		var m legacyMessage
		if json.Unmarshal(data, &m) == nil {
			switch m.Type {
			case "start":
				if !l.start(m.ID) {
					if err := l.refuse(m.ID); err != nil {
						return typ, nil, err
					}
					continue
				}
				data = moveStartDocumentID(data)
			case "stop":
				l.done(m.ID)
			}
		}
		return typ, bytes.NewReader(data), nil
	}
}

// WriteJSON implements transport.WebsocketConn: an operation's
// "complete" or "error" ends its count.
func (l *legacyConn) WriteJSON(v any) error {
	if typ, id, ok := messageTypeID(v); ok && (typ == "complete" || typ == "error") {
		l.done(id)
	}
	return l.wsConn.WriteJSON(v)
}

// Close implements transport.WebsocketConn, releasing the counts.
func (l *legacyConn) Close() error {
	l.mu.Lock()
	releaseUser := l.releaseUser
	l.mu.Unlock()
	releaseUser()
	l.releaseAddr()
	return l.wsConn.Close()
}

func (l *legacyConn) start(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, dup := l.active[id]; dup {
		return true // gqlgen answers a reused id itself
	}
	if l.caps.overSocket(len(l.active)) {
		return false
	}
	l.active[id] = struct{}{}
	return true
}

func (l *legacyConn) done(id string) {
	l.mu.Lock()
	delete(l.active, id)
	l.mu.Unlock()
}

// refuse answers a start over the cap as the protocol answers a failed
// operation: an "error" with the list of errors as its payload.
func (l *legacyConn) refuse(id string) error {
	payload, _ := json.Marshal(gqlerror.List{tooManySubscriptions()})
	b, _ := json.Marshal(map[string]any{"type": "error", "id": id, "payload": json.RawMessage(payload)})
	return l.wsConn.writeText(b)
}

// errTooManySockets fails an init over the per-user cap.
var errTooManySockets = errors.New("this user holds as many sockets as it may")

// initFunc wraps next, the legacy transport's InitFunc: a refused
// credential closes with refusal's code and reason; a user over its
// socket cap closes 4429 SOCKETS_PER_USER.
func (l *legacyConn) initFunc(next transport.WebsocketInitFunc, refusal func(error) (int, string)) transport.WebsocketInitFunc {
	return func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
		var ack *transport.InitPayload
		if next != nil {
			authed, a, err := next(ctx, p)
			if err != nil {
				code, reason := refusal(err)
				l.releaseAddr() // before the close is sent (the release runs once)
				return transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, code), reason), nil, err
			}
			ctx, ack = authed, a
		}
		release, reason := l.caps.admitPrincipal(ctx)
		if reason != "" {
			l.releaseAddr()
			return transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, CloseTooMany), reason), nil, errTooManySockets
		}
		l.mu.Lock()
		l.releaseUser = release
		l.mu.Unlock()
		return ctx, ack, nil
	}
}

// messageTypeID reads the Type and ID of a gqlgen protocol message.
func messageTypeID(v any) (typ, id string, ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return "", "", false
	}
	rv = rv.Elem()
	t, i := rv.FieldByName("Type"), rv.FieldByName("ID")
	if !t.IsValid() || !i.IsValid() || t.Kind() != reflect.String || i.Kind() != reflect.String {
		return "", "", false
	}
	return t.String(), i.String(), true
}
