package gqltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// Socket is one WebSocket carrying many operations, as a long-lived client
// uses it: queries, mutations and subscriptions over graphql-transport-ws
// (or the legacy graphql-ws), and the close code the server ends it with.
type Socket struct {
	conn   *websocket.Conn
	legacy bool
	ids    atomic.Int64

	mu     sync.Mutex
	ops    map[string]chan Response
	closed chan struct{}
	code   int
	reason string
	at     time.Time
}

// SocketOptions choose the protocol and the upgrade request's headers (an
// API key goes there: X-API-Key).
type SocketOptions struct {
	Legacy bool // graphql-ws instead of graphql-transport-ws
	Header http.Header
}

// Socket opens a WebSocket, sends connection_init (with the client's token
// as authToken, when it has one) and waits for the ack.
func (c *Client) Socket(ctx context.Context, o SocketOptions) (*Socket, error) {
	protocol, u := "graphql-transport-ws", "ws"+strings.TrimPrefix(c.URL, "http")
	if o.Legacy {
		protocol = "graphql-ws"
	}
	conn, res, err := websocket.Dial(ctx, u, &websocket.DialOptions{Subprotocols: []string{protocol}, HTTPHeader: o.Header})
	if err != nil {
		if res != nil && res.StatusCode != http.StatusSwitchingProtocols {
			se := &StatusError{Status: res.StatusCode, Header: res.Header}
			if res.Body != nil {
				_ = json.NewDecoder(res.Body).Decode(&se.Body)
			}
			return nil, fmt.Errorf("dial %s: %w", u, se)
		}
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	conn.SetReadLimit(8 << 20)
	payload := map[string]any{}
	if c.Token != "" {
		payload["authToken"] = c.Token
	}
	if err := wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": payload}); err != nil {
		conn.CloseNow()
		return nil, err
	}
	for {
		var m struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := wsjson.Read(ctx, conn, &m); err != nil {
			conn.CloseNow()
			return nil, fmt.Errorf("waiting for connection_ack: %w", err)
		}
		if m.Type == "connection_ack" {
			break
		}
		if m.Type == "connection_error" {
			conn.CloseNow()
			return nil, fmt.Errorf("connection_error: %s", m.Payload)
		}
	}
	s := &Socket{conn: conn, legacy: o.Legacy, ops: map[string]chan Response{}, closed: make(chan struct{})}
	go s.read()
	return s, nil
}

// ErrSocketClosed is Do's error when the socket closed before an answer.
var ErrSocketClosed = errors.New("socket closed")

// Start begins an operation; its responses arrive on the channel, which is
// closed when the operation completes or the socket closes.
func (s *Socket) Start(ctx context.Context, query string, vars map[string]any) (<-chan Response, error) {
	return s.StartPayload(ctx, map[string]any{"query": query, "variables": vars})
}

// StartPayload is Start with the operation's payload as given (a
// documentId, APQ extensions, ...).
func (s *Socket) StartPayload(ctx context.Context, payload map[string]any) (<-chan Response, error) {
	id := strconv.FormatInt(s.ids.Add(1), 10)
	ch := make(chan Response, 1024)
	s.mu.Lock()
	select {
	case <-s.closed:
		s.mu.Unlock()
		return nil, ErrSocketClosed
	default:
	}
	s.ops[id] = ch
	s.mu.Unlock()
	typ := "subscribe"
	if s.legacy {
		typ = "start"
	}
	if err := wsjson.Write(ctx, s.conn, map[string]any{"id": id, "type": typ, "payload": payload}); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSocketClosed, err)
	}
	return ch, nil
}

// Do runs a query or mutation and returns its response, or ErrSocketClosed.
func (s *Socket) Do(ctx context.Context, query string, vars map[string]any) (Response, error) {
	ch, err := s.Start(ctx, query, vars)
	if err != nil {
		return Response{}, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return Response{}, ErrSocketClosed
		}
		return r, nil
	case <-ctx.Done():
		return Response{}, ctx.Err()
	}
}

// Closed is closed when the connection has ended.
func (s *Socket) Closed() <-chan struct{} { return s.closed }

// CloseStatus is the close code and reason the server sent (-1 when the
// connection ended without one) and when the client saw it; valid once
// Closed is.
func (s *Socket) CloseStatus() (code int, reason string, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code, s.reason, s.at
}

// Close ends the socket from the client's side.
func (s *Socket) Close() { _ = s.conn.Close(websocket.StatusNormalClosure, "") }

func (s *Socket) read() {
	for {
		var m struct {
			Type    string          `json:"type"`
			ID      string          `json:"id"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := wsjson.Read(context.Background(), s.conn, &m); err != nil {
			var ce websocket.CloseError
			s.mu.Lock()
			s.code, s.at = -1, time.Now()
			if errors.As(err, &ce) {
				s.code, s.reason = int(ce.Code), ce.Reason
			}
			for id, ch := range s.ops {
				close(ch)
				delete(s.ops, id)
			}
			close(s.closed)
			s.mu.Unlock()
			return
		}
		s.mu.Lock()
		ch := s.ops[m.ID]
		switch m.Type {
		case "next", "data":
			var r Response
			_ = json.Unmarshal(m.Payload, &r)
			if ch != nil {
				ch <- r
			}
		case "error":
			var list []Error
			if json.Unmarshal(m.Payload, &list) != nil {
				var one Error
				_ = json.Unmarshal(m.Payload, &one)
				list = []Error{one}
			}
			if ch != nil {
				ch <- Response{Errors: list}
			}
		case "complete":
			if ch != nil {
				close(ch)
				delete(s.ops, m.ID)
			}
		case "ping":
			go func() { _ = wsjson.Write(context.Background(), s.conn, map[string]any{"type": "pong"}) }()
		}
		s.mu.Unlock()
	}
}
