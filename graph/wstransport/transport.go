// Package wstransport serves a GraphQL endpoint's WebSockets. The
// graphql-transport-ws protocol (the web client's, and every current client library's) is
// spoken here; the legacy graphql-ws protocol is handed, already accepted,
// to gqlgen's transport.
//
// Why its own: with thousands of viewers of one table, gqlgen's
// transport costs per subscriber and per event what the event itself does
// not: it marshals every subscriber's graphql.Response again (encoding/json
// re-validating the shared data), runs the executor's response middleware
// per subscriber and event, and keeps three goroutines per connection
// (reader, close watcher, subscription). Here a tableEvents subscription
// whose response the Sharer renders once per document and seq is written
// as the shared "next" message bytes with the subscriber's id spliced in
// (no graphql.Response, no marshalling, no executor per subscriber); the
// close watcher is a context.AfterFunc; a connection holds its reader (the
// request's goroutine) and one goroutine per subscription, which is the
// connection's writer for it, fed by the subscription's bounded buffer
// (a subscriber that falls that far behind is dropped, its stream
// completes, and it resumes with afterSeq; nobody else waits).
//
// Everything else behaves as gqlgen's transport does (FollowsGQLGen, whose
// behaviour this follows message by message): connection_init with its
// timeout and InitFunc (the JWT), the ack echoing the init payload,
// queries and mutations and other subscriptions executed by gqlgen's
// executor with the same extensions (complexity, depth, APQ, API-key
// scope, error codes), "error" for protocol errors, "complete" after each
// operation, pong for ping, the read limit (1009 past it), the close codes
// and reasons. Not carried over: gqlgen's GetInitPayload and
// AddSubscriptionError context helpers (their keys are private to gqlgen;
// nothing here uses them), the upgrade request's headers as the
// operations' OperationContext.Headers (nothing here reads them; kept,
// they cost about 1 KB a connection) and server-initiated pings (gqlgen sends none
// on this protocol without PingPongInterval, which is not set).
package wstransport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// FollowsGQLGen is the gqlgen release whose WebSocket transport this one
// follows message by message; a test fails when go.mod names another, so
// that an upgrade reads gqlgen's transport again.
const FollowsGQLGen = "v0.17.98"

// Options are the transport's choices and its hooks into the API it serves.
type Options struct {
	// Accept are the upgrade's options (the allowed origins); the
	// subprotocols are the transport's own.
	Accept websocket.AcceptOptions
	// InitFunc authenticates connection_init; nil acknowledges without a
	// payload.
	InitFunc transport.WebsocketInitFunc
	// InitRefusal is the close code and reason of a connection whose
	// InitFunc failed; nil closes 1011 "internal error".
	InitRefusal func(err error) (code int, reason string)
	// InitTimeout bounds the wait for connection_init; 0 waits for ever.
	InitTimeout time.Duration
	// ReadLimit, when positive, is a connection's read limit.
	ReadLimit int64
	// Counter, when set, counts this transport's sockets with another's
	// streams (its caps are Counter's, not Caps).
	Counter *Counter
	// Legacy speaks graphql-ws over a connection accepted here.
	Legacy transport.Websocket
	// Shared renders shareable subscriptions once for all their
	// subscribers; nil for none.
	Shared Sharer
	// Caps bounds operations per socket and sockets per user and per
	// address; UserID names a connection's signed-in user (false:
	// anonymous, counted by address only) and ClientIP the client's
	// address when it knows it (else the connection's).
	Caps   Caps
	UserID func(ctx context.Context) (int64, bool)
	// KeyID names a connection's API key (false: none), counted against
	// SocketsPerKey instead of as a user.
	KeyID    func(ctx context.Context) (string, bool)
	ClientIP func(ctx context.Context) string
	// Drain closes the sockets when the replica stops (drain.go); nil: none.
	Drain *Drain
	// Track registers a connection by its principal once InitFunc has run
	// on ctx (a revocation closes it with closeConn); untrack is called
	// when it closes. nil tracks nothing.
	Track func(ctx context.Context, closeConn func(code int, reason string)) (_ context.Context, untrack func())
}

// Transport is the WebSocket transport of a gqlgen handler.
type Transport struct {
	o    Options
	caps *wsCounter
}

// New returns the transport o describes.
func New(o Options) *Transport {
	caps := newWSCounter(o.Caps, o.UserID, o.KeyID)
	if o.Counter != nil {
		caps = o.Counter.c
	}
	return &Transport{o: o, caps: caps}
}

const transportWS = "graphql-transport-ws"

var _ graphql.Transport = (*Transport)(nil)

// Supports implements graphql.Transport.
func (t *Transport) Supports(r *http.Request) bool { return r.Header.Get("Upgrade") != "" }

// Do implements graphql.Transport.
func (t *Transport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	if t.o.Drain.refuseNew(w) {
		return
	}
	opts := t.o.Accept
	opts.Subprotocols = []string{"graphql-ws", transportWS}
	lw := &leanWriter{ResponseWriter: w}
	c, err := websocket.Accept(lw, r, &opts)
	if err != nil {
		log.Printf("unable to upgrade %T to websocket %s: ", w, err.Error())
		transport.SendErrorf(w, http.StatusBadRequest, "unable to upgrade")
		return
	}
	releaseAddr, ok := t.caps.admitAddress(socketAddress(r, t.o.ClientIP))
	if !ok {
		_ = c.Close(CloseTooMany, ReasonSocketsPerAddress)
		return
	}
	if c.Subprotocol() != transportWS {
		legacy := t.o.Legacy
		wc := &wsConn{c: c}
		dh, ok := t.o.Drain.register(func(code int, reason string) { _ = wc.WriteClose(code, reason) })
		if !ok {
			_ = c.Close(CloseServiceRestart, ReasonDraining)
			releaseAddr()
			return
		}
		dh.counted = true
		defer dh.release()
		lc := newLegacyConn(wc, t.caps, releaseAddr)
		legacy.InitFunc = lc.initFunc(legacy.InitFunc, t.initRefusal)
		legacy.Implementation = acceptedConn{lc}
		ctx, _ := t.track(withDrainHandle(r.Context(), dh), func(code int, reason string) { _ = wc.WriteClose(code, reason) })
		legacy.Do(w, r.WithContext(ctx), exec)
		return
	}
	if t.o.ReadLimit > 0 {
		c.SetReadLimit(t.o.ReadLimit)
	}
	conn := &twsConn{t: t, c: c, exec: exec, active: map[string]context.CancelFunc{}}
	if lw.conn != nil && w.Header().Get("Sec-WebSocket-Extensions") == "" {
		conn.lean = lw.conn // shared messages go to the socket as they are
	}
	// The drain closes the connection when the replica stops (drain.go).
	dh, ok := t.o.Drain.register(conn.close)
	if !ok {
		_ = c.Close(CloseServiceRestart, ReasonDraining)
		releaseAddr()
		return
	}
	conn.drain = dh
	// Tracked, a revocation closes the connection; InitFunc registers it
	// once the connection is authenticated.
	conn.ctx, conn.untrack = t.track(r.Context(), conn.close)
	if !conn.init() {
		dh.release()
		releaseAddr()
		return
	}
	releaseUser, reason := t.caps.admitPrincipal(conn.ctx)
	if reason != "" {
		// Released before the close is sent: a client that sees the close
		// and dials again finds the address's place free.
		dh.release()
		releaseAddr()
		conn.close(CloseTooMany, reason)
		return
	}
	// This goroutine's stack grew serving the request and the handshake;
	// the connection's reader is a fresh one (a small stack for as long as
	// the connection lasts) and the handler returns. The hijacked
	// connection outlives the request, whose context only the handler's
	// return would have cancelled.
	conn.ctx = context.WithoutCancel(conn.ctx)
	go func() {
		defer releaseAddr()
		defer releaseUser()
		defer dh.release()
		conn.run()
	}()
}

// track is Options.Track, or nothing.
func (t *Transport) track(ctx context.Context, closeConn func(code int, reason string)) (context.Context, func()) {
	if t.o.Track == nil {
		return ctx, func() {}
	}
	return t.o.Track(ctx, closeConn)
}

// acceptedConn hands gqlgen's transport a connection accepted already.
type acceptedConn struct{ c transport.WebsocketConn }

func (a acceptedConn) Accept(http.ResponseWriter, *http.Request, transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	return a.c, nil
}

// twsConn is one graphql-transport-ws connection.
type twsConn struct {
	t    *Transport
	c    *websocket.Conn
	exec graphql.GraphExecutor
	ctx  context.Context
	// lean writes shared "next" messages without copying them (lean.go);
	// nil when the connection compresses (or was not hijacked through it).
	lean *leanConn
	// untrack takes the connection out of the registry of connections by
	// principal (Options.Track).
	untrack func()
	// drain is the connection in the replica's drain (drain.go): it counts
	// the queries and mutations in flight, which a shutdown waits for.
	drain *drainHandle

	// Writes need no lock: coder/websocket serialises them (and a write
	// blocked on a slow peer must not hold up close).
	mu     sync.Mutex // guards what follows
	active map[string]context.CancelFunc
	closed bool
}

// twsMessage is a protocol message as read (gqlgen's field order, so what
// is written is byte for byte what gqlgen wrote).
type twsMessage struct {
	Payload json.RawMessage `json:"payload,omitempty"`
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
}

var (
	errTWSInvalid  = errors.New("invalid message received")
	errTWSDirected = errors.New("not a client message")
)

// read returns the next client message: errTWSInvalid when it is not a
// protocol message, errTWSDirected when it is one only a server sends.
func (c *twsConn) read() (twsMessage, error) {
	_, data, err := c.c.Read(context.Background())
	if err != nil {
		return twsMessage{}, err
	}
	return decodeTWS(data)
}

// decodeTWS decodes a client message (read's errors).
func decodeTWS(data []byte) (twsMessage, error) {
	var m twsMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return m, errTWSInvalid
	}
	switch m.Type {
	case "connection_init", "subscribe", "complete", "ping", "pong":
		return m, nil
	case "connection_ack", "next", "error":
		return m, errTWSDirected
	}
	return m, errTWSInvalid
}

// init reads connection_init (within the init timeout), authenticates it
// and acknowledges; false when the connection was refused.
func (c *twsConn) init() bool {
	var timer *time.Timer
	if c.t.o.InitTimeout > 0 {
		timer = time.AfterFunc(c.t.o.InitTimeout, func() { c.close(int(websocket.StatusProtocolError), "connection initialisation timeout") })
	}
	m, err := c.read()
	if timer != nil && !timer.Stop() {
		return false // timed out: closed
	}
	if err != nil {
		c.close(int(websocket.StatusProtocolError), "decoding error")
		return false
	}
	if m.Type != "connection_init" {
		c.close(int(websocket.StatusProtocolError), "unexpected message")
		return false
	}
	var payload transport.InitPayload
	if len(m.Payload) > 0 {
		payload = make(transport.InitPayload)
		if err := json.Unmarshal(m.Payload, &payload); err != nil {
			c.close(int(websocket.StatusProtocolError), "decoding error")
			return false
		}
	}
	ack := &payload
	if c.t.o.InitFunc != nil {
		ctx, p, err := c.t.o.InitFunc(c.ctx, payload)
		if err != nil {
			c.close(c.t.initRefusal(err))
			return false
		}
		c.ctx, ack = ctx, p
	} else {
		ack = nil
	}
	msg := twsMessage{Type: "connection_ack"}
	if ack != nil {
		b, err := json.Marshal(*ack)
		if err != nil {
			c.close(int(websocket.StatusInternalError), "init payload")
			return false
		}
		msg.Payload = b
	}
	c.send(&msg)
	return true
}

// initRefusal is Options.InitRefusal, or 1011.
func (t *Transport) initRefusal(err error) (int, string) {
	if t.o.InitRefusal == nil {
		return int(websocket.StatusInternalError), "internal error"
	}
	return t.o.InitRefusal(err)
}

// run reads messages until the connection ends; then every operation of
// the connection is cancelled. The reader waits for most of a connection's
// life in Read, shallow; a message is decoded and handled in a goroutine
// of its own (messages are few: init, subscribe, complete, ping), since
// decoding and starting an operation grow a stack to 8 KB, which the
// reader would otherwise keep as long as the connection lasts.
func (c *twsConn) run() {
	defer c.close(int(websocket.StatusNormalClosure), "terminated")
	more := make(chan bool, 1)
	for {
		start := graphql.Now()
		_, data, err := c.c.Read(context.Background())
		if err != nil {
			return
		}
		go func() { more <- c.handle(start, data) }()
		if !<-more {
			return
		}
	}
}

// handle handles one client message; false ends the connection.
func (c *twsConn) handle(start time.Time, data []byte) bool {
	m, err := decodeTWS(data)
	if err != nil {
		return false
	}
	switch m.Type {
	case "subscribe":
		c.subscribe(start, m)
	case "complete":
		c.mu.Lock()
		cancel := c.active[m.ID]
		c.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case "ping":
		c.send(&twsMessage{Type: "pong", Payload: m.Payload})
	case "pong":
	default: // a second connection_init
		c.close(int(websocket.StatusProtocolError), "unexpected message")
		return false
	}
	return true
}

// subscribe starts operation m.ID: a query, mutation or subscription. It
// is registered at once (a "complete" for it cancels it from now on); the
// rest (parsing, validation, execution) runs in the operation's own
// goroutine, which keeps the reader's stack small.
func (c *twsConn) subscribe(start time.Time, m twsMessage) {
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(moveDocumentID(m.Payload)))
	dec.UseNumber()
	if err := dec.Decode(params); err != nil {
		c.sendError(m.ID, &gqlerror.Error{Message: "invalid json"})
		c.complete(m.ID)
		return
	}
	params.Query = internQuery(params.Query)
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	ctx, cancel := context.WithCancel(graphql.StartOperationTrace(c.ctx))
	c.mu.Lock()
	if c.t.caps.overSocket(len(c.active)) {
		c.mu.Unlock()
		cancel()
		c.sendError(m.ID, tooManySubscriptions())
		return
	}
	// Counted in flight from now until answered (a subscription only
	// until it is known to be one), so that a drain closing the socket
	// waits for it; refused when the socket's turn to close has come.
	if !c.drain.opStart() {
		c.mu.Unlock()
		cancel()
		c.sendError(m.ID, errDraining())
		return
	}
	c.active[m.ID] = cancel
	c.mu.Unlock()
	go c.serve(ctx, cancel, params, m.ID)
}

// serve runs one operation and writes its responses.
func (c *twsConn) serve(ctx context.Context, cancel context.CancelFunc, params *graphql.RawParams, id string) {
	var inFlight sync.Once // the drain's count of this operation, undone once
	settled := func() { inFlight.Do(c.drain.opDone) }
	done := func() {
		c.mu.Lock()
		delete(c.active, id)
		c.mu.Unlock()
		cancel()
		settled()
	}
	rc, errs := c.operation(ctx, params)
	if rc != nil && rc.Operation != nil && rc.Operation.Operation == ast.Subscription {
		settled() // a subscription lasts: the drain ends it, the client resumes it
	}
	if errs != nil {
		resp := c.exec.DispatchError(graphql.WithOperationContext(ctx, rc), errs)
		if errcode.GetErrorKind(errs) == errcode.KindProtocol {
			c.sendError(id, resp.Errors...)
		} else {
			c.sendResponse(id, &graphql.Response{Errors: errs})
		}
		c.complete(id)
		done()
		return
	}
	if rc == nil { // the operation could not be prepared: the connection is closed
		done()
		return
	}
	ctx = graphql.WithOperationContext(ctx, rc)
	var stream Stream
	if c.t.o.Shared != nil {
		ctx, stream = c.t.o.Shared.Tap(ctx, rc)
	}
	finish := func(r any) {
		if r != nil {
			err := rc.Recover(ctx, r)
			var gqlerr *gqlerror.Error
			if !errors.As(err, &gqlerr) {
				gqlerr = &gqlerror.Error{}
				if err != nil {
					gqlerr.Message = err.Error()
				}
			}
			c.sendError(id, gqlerr)
		}
		if !c.isClosed() { // a closed connection is not told
			c.complete(id)
		}
		done()
	}
	handedOff := false
	defer func() {
		if r := recover(); r != nil || !handedOff {
			finish(r)
		}
	}()
	responses, ctx := c.exec.DispatchOperation(ctx, rc)
	if stream != nil && stream.Started() {
		// Preparing the operation, the resolver and the first item (a
		// snapshot, or a replay from the store) grew this goroutine's
		// stack; the stream runs in a fresh one, small for its lifetime.
		ok := stream.Pull(ctx)
		handedOff = true
		go func() {
			defer func() { finish(recover()) }()
			if ok {
				c.serveShared(ctx, stream, responses, id)
			}
		}()
		return
	}
	for {
		resp := responses(ctx)
		if resp == nil {
			return
		}
		c.sendResponse(id, resp)
	}
}

func (c *twsConn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// operation parses and validates params. A panic there (which would have
// ended the reader, and the connection, in gqlgen's transport) closes the
// connection and returns neither.
func (c *twsConn) operation(ctx context.Context, params *graphql.RawParams) (rc *graphql.OperationContext, errs gqlerror.List) {
	defer func() {
		if r := recover(); r != nil {
			log.Printf("graphql-transport-ws: panic preparing an operation: %v", r)
			rc, errs = nil, nil
			_ = c.c.CloseNow()
		}
	}()
	return c.exec.CreateOperationContext(ctx, params)
}

// serveShared writes a shared stream: each event's shared "next" message
// with id spliced in, or this subscriber's own response when the event
// could not be shared. Events ready one behind the other (those of one
// commit, delivered together; a replay) are written in one go, up to
// maxBurst messages in one vectored write, instead of a write(2) each.
func (c *twsConn) serveShared(ctx context.Context, s Stream, responses graphql.ResponseHandler, id string) {
	tail := append(appendJSONString(nil, id), nextTail...)
	var heads [][]byte
	flush := func() bool {
		if len(heads) == 0 {
			return true
		}
		err := c.writeNexts(heads, tail)
		clear(heads)
		heads = heads[:0]
		if err != nil {
			return false
		}
		s.Written()
		return true
	}
	defer flush() // what was rendered before the stream ended
	for {
		head, own := s.Render(ctx, responses)
		switch {
		case head != nil:
			heads = append(heads, head)
			if c.lean != nil && len(heads) < maxBurst {
				ok, got := s.PullNow(ctx)
				if !ok {
					return
				}
				if got {
					continue
				}
			}
			if !flush() {
				return
			}
		case own != nil:
			if !flush() {
				return
			}
			c.sendResponse(id, own)
		default:
			return // ctx ended
		}
		if !s.Pull(ctx) {
			return
		}
	}
}

// maxBurst bounds the messages of one write.
const maxBurst = 16

var twsBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// sharedWrites counts the "next" messages written from shared renderings.
var sharedWrites atomic.Int64

// SharedWrites is how many "next" messages were written from shared
// renderings so far in this process (tests check that the fast path is
// the one taken).
func SharedWrites() int64 { return sharedWrites.Load() }

// writeNexts writes each of heads with tail (the quoted id and nextTail)
// as one message: the shared bytes as they are, straight to the socket in
// one vectored write (lean.go), or, on a compressing connection, one by
// one through coder/websocket.
func (c *twsConn) writeNexts(heads [][]byte, tail []byte) error {
	sharedWrites.Add(int64(len(heads)))
	if c.lean != nil {
		return c.lean.writeMessages(heads, tail)
	}
	for _, head := range heads {
		buf := twsBuffers.Get().(*bytes.Buffer)
		buf.Reset()
		buf.Grow(len(head) + len(tail))
		buf.Write(head)
		buf.Write(tail)
		err := c.c.Write(context.Background(), websocket.MessageText, buf.Bytes())
		if buf.Cap() <= 64<<10 {
			twsBuffers.Put(buf)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// send writes one protocol message.
func (c *twsConn) send(m *twsMessage) {
	buf := twsBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	appendProtocolMessage(buf, m)
	_ = c.c.Write(context.Background(), websocket.MessageText, buf.Bytes())
	if buf.Cap() <= 64<<10 {
		twsBuffers.Put(buf)
	}
}

func (c *twsConn) sendResponse(id string, resp *graphql.Response) {
	b, err := json.Marshal(resp)
	if err != nil {
		panic(err)
	}
	c.send(&twsMessage{Payload: b, ID: id, Type: "next"})
}

func (c *twsConn) complete(id string) { c.send(&twsMessage{ID: id, Type: "complete"}) }

func (c *twsConn) sendError(id string, list ...*gqlerror.Error) {
	errs := make([]error, len(list))
	for i, e := range list {
		errs[i] = e
	}
	b, err := json.Marshal(errs)
	if err != nil {
		panic(err)
	}
	c.send(&twsMessage{Payload: b, ID: id, Type: "error"})
}

// close starts the close handshake (in the background: a silent peer may
// take seconds) and cancels every operation; once.
func (c *twsConn) close(code int, reason string) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	for _, cancel := range c.active {
		cancel()
	}
	c.mu.Unlock()
	c.untrack()
	go func() { _ = c.c.Close(websocket.StatusCode(code), reason) }()
}

// queryTexts holds one copy of each document text recently subscribed
// with: a subscription keeps its operation's text for its life, and
// thousands of viewers send the same one (about 1 KB each otherwise).
var queryTexts = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// queryTextsMax bounds queryTexts (it starts over when full).
const queryTextsMax = 1024

// internQuery returns the copy of q kept in queryTexts.
func internQuery(q string) string {
	if len(q) > 64<<10 {
		return q
	}
	queryTexts.Lock()
	defer queryTexts.Unlock()
	if kept, ok := queryTexts.m[q]; ok {
		return kept
	}
	if len(queryTexts.m) >= queryTextsMax {
		clear(queryTexts.m)
	}
	queryTexts.m[q] = q
	return q
}

// appendJSONString appends s as a JSON string, as encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if ch := s[i]; ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\' || ch == '<' || ch == '>' || ch == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
