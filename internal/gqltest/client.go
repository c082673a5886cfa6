// Package gqltest is a small GraphQL client for end-to-end tests: queries
// and mutations over HTTP, subscriptions over a real WebSocket speaking
// graphql-transport-ws (or the legacy graphql-ws protocol).
package gqltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// Client talks to one server's /query endpoint.
type Client struct {
	URL   string // http://host:port/query
	Token string // access token sent as a bearer token, if set
	HTTP  *http.Client
	// Header is sent with every HTTP request (a proxy's X-Forwarded-For).
	Header http.Header
}

// New returns a client for the server at addr (host:port).
func New(addr string) *Client {
	return &Client{URL: "http://" + addr + "/query", HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// WithToken returns a copy of c that sends token.
func (c *Client) WithToken(token string) *Client {
	d := *c
	d.Token = token
	return &d
}

// WithHeader returns a copy of c that also sends the header key: value.
func (c *Client) WithHeader(key, value string) *Client {
	d := *c
	d.Header = c.Header.Clone()
	if d.Header == nil {
		d.Header = http.Header{}
	}
	d.Header.Set(key, value)
	return &d
}

// Error is one GraphQL error as the server sent it.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Code is the error's extensions.code.
func (e Error) Code() string { s, _ := e.Extensions["code"].(string); return s }

// Reason is the error's extensions.reason.
func (e Error) Reason() string { s, _ := e.Extensions["reason"].(string); return s }

// Response is a decoded GraphQL response.
type Response struct {
	Status int
	// Header is the HTTP response's (the quota headers of an API key).
	Header     http.Header     `json:"-"`
	Data       json.RawMessage `json:"data"`
	Errors     []Error         `json:"errors"`
	Extensions map[string]any  `json:"extensions"`
}

// Do sends one operation and decodes the response.
func (c *Client) Do(ctx context.Context, query string, vars map[string]any) (Response, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return Response{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return Response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, vs := range c.Header {
		req.Header[k] = vs
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer res.Body.Close()
	var out Response
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return Response{}, fmt.Errorf("decode response (HTTP %d): %w", res.StatusCode, err)
	}
	out.Status, out.Header = res.StatusCode, res.Header
	return out, nil
}

// MustDo runs an operation that must succeed and decodes its data into out
// (when out is not nil).
func (c *Client) MustDo(t testing.TB, query string, vars map[string]any, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Do(ctx, query, vars)
	if err != nil {
		t.Fatalf("%s: %v", firstLine(query), err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("%s: errors %+v", firstLine(query), res.Errors)
	}
	if out != nil {
		if err := json.Unmarshal(res.Data, out); err != nil {
			t.Fatalf("%s: decode %s: %v", firstLine(query), res.Data, err)
		}
	}
}

// MustFail runs an operation that must fail with the given extensions.code
// (and reason, when not empty) and returns the error.
func (c *Client) MustFail(t testing.TB, code, reason, query string, vars map[string]any) Error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Do(ctx, query, vars)
	if err != nil {
		t.Fatalf("%s: %v", firstLine(query), err)
	}
	if len(res.Errors) == 0 {
		t.Fatalf("%s: succeeded with %s, want error %s", firstLine(query), res.Data, code)
	}
	e := res.Errors[0]
	if e.Code() != code || (reason != "" && e.Reason() != reason) {
		t.Fatalf("%s: error %+v, want code %s reason %q", firstLine(query), e, code, reason)
	}
	return e
}

func firstLine(q string) string {
	q = strings.TrimSpace(q)
	if i := strings.IndexByte(q, '\n'); i > 0 {
		return q[:i]
	}
	return q
}

// Subscription is one live subscription over its own WebSocket.
type Subscription struct {
	conn *websocket.Conn
	// Next delivers each payload's data in order; it is closed when the
	// server completes the subscription or the connection ends.
	Next <-chan json.RawMessage
	// Err is set (before Next closes) when the server sent an error.
	err atomic.Pointer[string]
}

// Err reports the error the subscription ended with, if any.
func (s *Subscription) Err() string {
	if p := s.err.Load(); p != nil {
		return *p
	}
	return ""
}

// Close ends the subscription's connection.
func (s *Subscription) Close() { _ = s.conn.Close(websocket.StatusNormalClosure, "") }

// Subscribe opens a WebSocket with the graphql-transport-ws protocol,
// authenticates in connection_init (when the client has a token) and starts
// one subscription.
func (c *Client) Subscribe(ctx context.Context, query string, vars map[string]any) (*Subscription, error) {
	return c.subscribe(ctx, "graphql-transport-ws", query, vars)
}

// SubscribeLegacy does the same over the older graphql-ws protocol.
func (c *Client) SubscribeLegacy(ctx context.Context, query string, vars map[string]any) (*Subscription, error) {
	return c.subscribe(ctx, "graphql-ws", query, vars)
}

func (c *Client) subscribe(ctx context.Context, protocol, query string, vars map[string]any) (*Subscription, error) {
	u := "ws" + strings.TrimPrefix(c.URL, "http")
	opts := &websocket.DialOptions{Subprotocols: []string{protocol}}
	if c.HTTP != nil && c.HTTP.Transport != nil {
		// The client's transport (a TLS configuration: wss:// through a
		// proxy); the WebSocket library refuses a client with a timeout.
		opts.HTTPClient = &http.Client{Transport: c.HTTP.Transport}
	}
	conn, _, err := websocket.Dial(ctx, u, opts)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", u, err)
	}
	conn.SetReadLimit(8 << 20)
	init := map[string]any{"type": "connection_init", "payload": map[string]any{}}
	if c.Token != "" {
		init["payload"] = map[string]any{"authToken": c.Token}
	}
	if err := wsjson.Write(ctx, conn, init); err != nil {
		conn.CloseNow()
		return nil, err
	}
	var ack struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	for {
		if err := wsjson.Read(ctx, conn, &ack); err != nil {
			conn.CloseNow()
			return nil, fmt.Errorf("waiting for connection_ack: %w", err)
		}
		if ack.Type == "connection_ack" {
			break
		}
		if ack.Type == "connection_error" {
			conn.CloseNow()
			return nil, fmt.Errorf("connection_error: %s", ack.Payload)
		}
	}
	start := "subscribe"
	if protocol == "graphql-ws" {
		start = "start"
	}
	if err := wsjson.Write(ctx, conn, map[string]any{
		"id": "1", "type": start, "payload": map[string]any{"query": query, "variables": vars},
	}); err != nil {
		conn.CloseNow()
		return nil, err
	}
	next := make(chan json.RawMessage, 1024)
	s := &Subscription{conn: conn, Next: next}
	go s.read(next)
	return s, nil
}

func (s *Subscription) read(next chan<- json.RawMessage) {
	defer close(next)
	for {
		var msg struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := wsjson.Read(context.Background(), s.conn, &msg); err != nil {
			return
		}
		switch msg.Type {
		case "next", "data":
			var p struct {
				Data   json.RawMessage `json:"data"`
				Errors []Error         `json:"errors"`
			}
			_ = json.Unmarshal(msg.Payload, &p)
			if len(p.Errors) > 0 {
				e := fmt.Sprintf("%s (%s)", p.Errors[0].Message, p.Errors[0].Code())
				s.err.Store(&e)
				return
			}
			next <- p.Data
		case "error":
			e := string(msg.Payload)
			s.err.Store(&e)
			return
		case "complete":
			return
		case "ping":
			_ = wsjson.Write(context.Background(), s.conn, map[string]any{"type": "pong"})
		}
	}
}
