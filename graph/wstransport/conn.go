package wstransport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
)

// wsConn adapts coder/websocket to gqlgen's WebSocket transport (which
// speaks the legacy graphql-ws protocol over a connection Transport
// accepted), like gqlgen's own CoderWebsocketImplementation, with one
// difference that matters for fan-out: a protocol message whose
// payload is already JSON (every "data" carries the response gqlgen
// marshalled) is written as is, instead of being marshalled again, which
// re-validated and copied every response once more per subscriber.
type wsConn struct {
	c        *websocket.Conn
	mu       sync.Mutex
	deadline *time.Timer
	closing  bool
}

var (
	_ transport.WebsocketConn          = (*wsConn)(nil)
	_ transport.WebsocketReadLimiter   = (*wsConn)(nil)
	_ transport.WebsocketReadDeadliner = (*wsConn)(nil)
)

// NextReader implements transport.WebsocketConn.
func (w *wsConn) NextReader() (int, io.Reader, error) {
	typ, data, err := w.c.Read(context.Background())
	if err != nil {
		switch websocket.CloseStatus(err) {
		case websocket.StatusNormalClosure, websocket.StatusNoStatusRcvd:
			return int(typ), nil, transport.ErrWebsocketClosed
		}
		w.mu.Lock()
		closing := w.closing
		w.mu.Unlock()
		if closing { // closed from this side (a drain's 1012, a revocation's 4401): nothing to report
			return int(typ), nil, transport.ErrWebsocketClosed
		}
		return int(typ), nil, err
	}
	return int(typ), bytes.NewReader(data), nil
}

var wsBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteJSON implements transport.WebsocketConn.
func (w *wsConn) WriteJSON(v any) error {
	buf := wsBuffers.Get().(*bytes.Buffer)
	defer wsBuffers.Put(buf)
	buf.Reset()
	if !appendProtocolMessage(buf, v) {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	return w.c.Write(context.Background(), websocket.MessageText, buf.Bytes())
}

// writeText writes one text message as it is.
func (w *wsConn) writeText(b []byte) error {
	return w.c.Write(context.Background(), websocket.MessageText, b)
}

// appendProtocolMessage writes a gqlgen protocol message (a struct with a
// json.RawMessage Payload, a string ID and a string Type, all three
// omitempty but Type) without re-encoding its payload; false when v is not
// one.
func appendProtocolMessage(buf *bytes.Buffer, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return false
	}
	rv = rv.Elem()
	payload, id, typ := rv.FieldByName("Payload"), rv.FieldByName("ID"), rv.FieldByName("Type")
	if !payload.IsValid() || !id.IsValid() || !typ.IsValid() || payload.Type() != reflect.TypeOf(json.RawMessage(nil)) ||
		id.Kind() != reflect.String || typ.Kind() != reflect.String || rv.NumField() > 4 {
		return false
	}
	raw := payload.Bytes() // marshalled by gqlgen: valid, compact JSON
	buf.WriteByte('{')
	sep := false
	if len(raw) > 0 {
		buf.WriteString(`"payload":`)
		buf.Write(raw)
		sep = true
	}
	if s := id.String(); s != "" {
		if sep {
			buf.WriteByte(',')
		}
		q, _ := json.Marshal(s)
		buf.WriteString(`"id":`)
		buf.Write(q)
		sep = true
	}
	if sep {
		buf.WriteByte(',')
	}
	q, _ := json.Marshal(typ.String())
	buf.WriteString(`"type":`)
	buf.Write(q)
	buf.WriteByte('}')
	return true
}

// WriteClose implements transport.WebsocketConn: the close handshake runs
// in the background (it may wait seconds for a silent peer).
func (w *wsConn) WriteClose(code int, msg string) error {
	w.mu.Lock()
	w.stopDeadlineLocked()
	if w.closing {
		w.mu.Unlock()
		return nil
	}
	w.closing = true
	w.mu.Unlock()
	go func() { _ = w.c.Close(websocket.StatusCode(code), msg) }()
	return nil
}

// Close implements transport.WebsocketConn.
func (w *wsConn) Close() error {
	w.mu.Lock()
	w.stopDeadlineLocked()
	closing := w.closing
	w.mu.Unlock()
	if closing { // WriteClose's handshake closes the connection
		return nil
	}
	return w.c.CloseNow()
}

// Subprotocol implements transport.WebsocketConn.
func (w *wsConn) Subprotocol() string { return w.c.Subprotocol() }

// SetReadLimit implements transport.WebsocketReadLimiter.
func (w *wsConn) SetReadLimit(n int64) { w.c.SetReadLimit(n) }

// SetReadDeadline implements transport.WebsocketReadDeadliner: the
// connection is closed when nothing was read by then.
func (w *wsConn) SetReadDeadline(t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopDeadlineLocked()
	if t.IsZero() {
		return nil
	}
	d := time.Until(t)
	if d <= 0 {
		return w.c.CloseNow()
	}
	w.deadline = time.AfterFunc(d, func() { _ = w.c.CloseNow() })
	return nil
}

func (w *wsConn) stopDeadlineLocked() {
	if w.deadline != nil {
		w.deadline.Stop()
		w.deadline = nil
	}
}

// Acceptor accepts WebSockets for gqlgen's own transport over
// coder/websocket, through the adapter this transport hands it legacy
// connections with (tests compare the two transports).
type Acceptor struct{ Options websocket.AcceptOptions }

// Accept implements gqlgen's transport.WebsocketImplementation.
func (u Acceptor) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	opts := u.Options
	opts.Subprotocols = o.Subprotocols
	c, err := websocket.Accept(w, r, &opts)
	if err != nil {
		return nil, err
	}
	return &wsConn{c: c}, nil
}
