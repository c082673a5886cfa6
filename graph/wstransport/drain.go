package wstransport

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// Deploys without a storm. A replica that is told to stop
// (SIGTERM) must not drop thousands of sockets at once: every client would
// reconnect to the other replicas in the same second. So the Drain:
//   - knows every long-lived connection of this replica (WebSockets of both
//     protocols, SSE streams), from the moment it is accepted;
//   - once draining, refuses new ones (HTTP 503, Retry-After, reason
//     DRAINING) so that clients go to another replica;
//   - closes the open ones spread evenly over a window (DRAIN_WINDOW), in the
//     order they were opened: WebSockets with close code 1012 (service
//     restart) and reason DRAINING, SSE streams by completing them;
//   - closes a connection only once its queries and mutations in flight have
//     answered (a bet sent just before is committed and answered on the same
//     socket, never cut off); an operation sent on a connection whose turn has
//     come is refused with UNAVAILABLE / DRAINING before it runs (nothing is
//     written), so the client sends it again once reconnected.
// Clients resume each tableEvents subscription with afterSeq (docs/frontend.md,
// "Reconnect").

// CloseServiceRestart is the close code of a WebSocket the server closes
// because it is restarting (RFC 6455's 1012): reconnect at once (to
// another replica) and resume.
const CloseServiceRestart = 1012

// ReasonDraining: the replica is restarting: its sockets close with
// CloseServiceRestart, new sockets and streams are refused with HTTP 503,
// an operation sent on a socket being closed is refused (UNAVAILABLE)
// before it runs, and /readyz answers 503 with it.
const ReasonDraining = "DRAINING"

// Drain is the registry of a replica's long-lived connections. The zero
// value is not usable (NewDrain); a nil *Drain registers nothing and never
// drains.
type Drain struct {
	// Pace waits step before the next batch of closes; false when ctx
	// ended (the rest are closed at once). nil: a timer. Tests step it.
	Pace func(ctx context.Context, step time.Duration) bool
	// OpTimeout bounds how long a connection's close waits for its
	// operations in flight (default 20 s).
	OpTimeout time.Duration

	draining atomic.Bool
	mu       sync.Mutex
	next     uint64
	conns    map[*drainHandle]struct{}
}

// NewDrain returns an empty registry.
func NewDrain() *Drain { return &Drain{conns: map[*drainHandle]struct{}{}} }

// Begin starts draining without closing anything yet: new connections are
// refused from now on (Drain closes the open ones).
func (d *Drain) Begin() {
	if d != nil {
		d.mu.Lock()
		d.draining.Store(true)
		d.mu.Unlock()
	}
}

// Draining reports whether the replica is draining.
func (d *Drain) Draining() bool { return d != nil && d.draining.Load() }

// Len is the number of open connections registered.
func (d *Drain) Len() int {
	if d == nil {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.conns)
}

// DrainReport says what a drain did.
type DrainReport struct {
	Closed int           // connections closed by the drain
	Waited int           // of which had operations in flight at their turn
	Took   time.Duration // from the drain's start to the last close
	// PerSecond counts the closes sent in each second of the drain.
	PerSecond []int
}

// Drain refuses new connections from now on and closes the open ones over
// window, evenly: the i-th of n (in the order they were opened) at
// (i+½)·window/n, so the first and the last are half a step from either
// end. When ctx ends, the rest are closed at once. It returns when every
// close is done.
func (d *Drain) Drain(ctx context.Context, window time.Duration) DrainReport {
	if d == nil {
		return DrainReport{}
	}
	d.mu.Lock()
	d.draining.Store(true)
	victims := make([]*drainHandle, 0, len(d.conns))
	for h := range d.conns {
		victims = append(victims, h)
	}
	d.mu.Unlock()
	slices.SortFunc(victims, func(a, b *drainHandle) int {
		switch {
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
	n := len(victims)
	rep := DrainReport{}
	if n == 0 {
		return rep
	}
	pace := d.Pace
	if pace == nil {
		pace = timerPace()
	}
	due := func(i int) time.Duration { return time.Duration((2*int64(i) + 1) * int64(window) / (2 * int64(n))) }
	var wg sync.WaitGroup
	var waited atomic.Int64
	start := time.Now()
	var secMu sync.Mutex
	perSecond := []int{}
	paced := true
	var elapsed time.Duration
	for i := 0; i < n; {
		if at := due(i); paced && at > elapsed {
			step := max(at-elapsed, minDrainStep)
			if !pace(ctx, step) {
				paced = false
			}
			elapsed += step
		}
		for i < n && (!paced || due(i) <= elapsed) {
			h := victims[i]
			wg.Go(func() {
				if h.closeAfterOps(d.opTimeout()) {
					waited.Add(1)
				}
				sec := int(time.Since(start) / time.Second)
				secMu.Lock()
				for len(perSecond) <= sec {
					perSecond = append(perSecond, 0)
				}
				perSecond[sec]++
				secMu.Unlock()
			})
			i++
		}
	}
	wg.Wait()
	rep.Closed, rep.Waited, rep.Took, rep.PerSecond = n, int(waited.Load()), time.Since(start), perSecond
	return rep
}

// minDrainStep is the shortest wait between two batches of closes: with
// more connections than window/minDrainStep, each batch closes several.
const minDrainStep = 5 * time.Millisecond

func (d *Drain) opTimeout() time.Duration {
	if d.OpTimeout > 0 {
		return d.OpTimeout
	}
	return 20 * time.Second
}

// timerPace is the default Pace: it sleeps until the start plus the sum of
// the steps asked so far, so that timer lateness does not add up over
// thousands of steps.
func timerPace() func(ctx context.Context, step time.Duration) bool {
	var target time.Time
	return func(ctx context.Context, step time.Duration) bool {
		if target.IsZero() {
			target = time.Now()
		}
		target = target.Add(step)
		t := time.NewTimer(time.Until(target))
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
}

// register adds a connection closed with closeConn; false (and nothing
// registered) when the replica is draining already: the caller closes it.
func (d *Drain) register(closeConn func(code int, reason string)) (*drainHandle, bool) {
	h := &drainHandle{closeConn: closeConn}
	if d == nil {
		return h, true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining.Load() {
		return h, false
	}
	d.next++
	h.id, h.drain = d.next, d
	d.conns[h] = struct{}{}
	return h, true
}

// Hold registers a long-lived connection another transport serves (SSE),
// whose queries and mutations DrainOps counts: the returned ctx carries its
// handle, closeConn ends it, release takes it out when it ended. ok is
// false (and the request answered with 503, Retry-After and the reason)
// while draining.
func (d *Drain) Hold(ctx context.Context, w http.ResponseWriter, closeConn func(code int, reason string)) (_ context.Context, release func(), ok bool) {
	if d.refuseNew(w) {
		return ctx, nil, false
	}
	dh, ok := d.register(closeConn)
	if !ok {
		writeDraining(w)
		return ctx, nil, false
	}
	dh.counted = true
	return withDrainHandle(ctx, dh), dh.release, true
}

// refuseNew answers a new WebSocket upgrade or SSE request while draining:
// 503 with Retry-After and the reason, so that the client (or a proxy)
// tries another replica; false when not draining.
func (d *Drain) refuseNew(w http.ResponseWriter) bool {
	if !d.Draining() {
		return false
	}
	writeDraining(w)
	return true
}

func writeDraining(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(1))
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusServiceUnavailable)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{
		"message":    drainingMessage,
		"extensions": map[string]any{"code": string(errs.Unavailable), "reason": ReasonDraining},
	}}})
}

// errDraining is the error of an operation refused because its connection
// is being closed by the drain.
func errDraining() *gqlerror.Error {
	return &gqlerror.Error{
		Message:    drainingMessage,
		Extensions: map[string]any{"code": string(errs.Unavailable), "reason": ReasonDraining},
	}
}

const drainingMessage = "this server is restarting: connect again (another replica answers) and resume with afterSeq; send a refused mutation again with the same idempotency key"

// drainHandle is one connection in the Drain.
type drainHandle struct {
	id        uint64
	drain     *Drain
	closeConn func(code int, reason string)

	// counted: the operation middleware counts this connection's
	// operations (the legacy WebSocket, SSE); graphql-transport-ws counts
	// its own, from the moment a message arrives (transport.go).
	counted bool

	mu      sync.Mutex
	ops     int           // queries and mutations in flight
	idle    chan struct{} // closed when ops falls to 0 while closing
	closing bool
	done    bool
}

type drainHandleKey struct{}

func withDrainHandle(ctx context.Context, h *drainHandle) context.Context {
	return context.WithValue(ctx, drainHandleKey{}, h)
}

func drainHandleFrom(ctx context.Context) *drainHandle {
	h, _ := ctx.Value(drainHandleKey{}).(*drainHandle)
	return h
}

// release takes the handle out of the registry (the connection ended).
func (h *drainHandle) release() {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.done = true
	h.mu.Unlock()
	if d := h.drain; d != nil {
		d.mu.Lock()
		delete(d.conns, h)
		d.mu.Unlock()
	}
}

// opStart counts an operation in flight; false when the connection's turn
// to close has come (the operation is refused).
func (h *drainHandle) opStart() bool {
	if h == nil {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.ops++
	return true
}

func (h *drainHandle) opDone() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops--
	if h.ops == 0 && h.idle != nil {
		close(h.idle)
		h.idle = nil
	}
}

// closeAfterOps refuses new operations, waits (up to timeout) for those in
// flight to answer, and closes the connection with 1012 / DRAINING; true
// when it had to wait.
func (h *drainHandle) closeAfterOps(timeout time.Duration) (waited bool) {
	h.mu.Lock()
	h.closing = true
	var idle chan struct{}
	if h.ops > 0 {
		idle = make(chan struct{})
		h.idle = idle
	}
	done := h.done
	h.mu.Unlock()
	if idle != nil {
		t := time.NewTimer(timeout)
		select {
		case <-idle:
		case <-t.C:
		}
		t.Stop()
	}
	if !done && h.closeConn != nil {
		h.closeConn(CloseServiceRestart, ReasonDraining)
	}
	h.release()
	return idle != nil
}

// DrainOps is the operation middleware that counts each connection's
// queries and mutations in flight until their answer is written (the
// transports call the response handler again after writing; it returns nil
// then), and refuses new ones on a connection being closed. Subscriptions
// are not counted: the close ends them, and the client resumes them.
func DrainOps(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	h := drainHandleFrom(ctx)
	if h == nil || !h.counted {
		return next(ctx)
	}
	if oc := graphql.GetOperationContext(ctx); oc != nil && oc.Operation != nil && oc.Operation.Operation == ast.Subscription {
		return next(ctx)
	}
	if !h.opStart() {
		return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{errDraining()}})
	}
	var once sync.Once
	done := func() { once.Do(h.opDone) }
	responses := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		r := responses(ctx)
		if r == nil {
			done()
		}
		return r
	}
}
