package graph

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
	"github.com/pokertote/pokertote/graph/wstransport"
)

// A table event's response depends only on the subscription's document, its
// variables and the event: events are immutable facts, and none of their
// fields depends on the viewer. So the response is rendered once per
// (document, variables, seq) in this process and the bytes are shared by
// every subscriber using that document, instead of each subscriber running
// gqlgen's execution and encoding for itself (with 10,000 viewers
// that execution was most of the CPU).
//
// The mechanism sits between gqlgen's executor and the generated schema:
// sharedRender wraps the ExecutableSchema. For a subscription whose only
// root field is tableEvents it puts a renderTap in the context; the
// tableEvents resolver (tableStream.emit) then hands each event with its seq
// to the tap instead of to gqlgen's channel. The wrapped response handler
// takes the event from the tap and answers from the cache; on a miss one
// subscriber (the others wait for it) passes the event on to gqlgen's
// channel, lets the generated code render it, and stores the bytes.

// renderCacheSize bounds the rendered responses kept per process.
const renderCacheSize = 4096

// renderTap connects one subscriber's tableEvents resolver with its
// response handler: the resolver sets pull, which the handler calls (in
// the transport's goroutine: no goroutine of its own per subscriber) for
// the next event; false ends the stream.
type renderTap struct {
	doc    [32]byte // the document and variables, afterSeq left out
	table  int64    // the table streamed (set by the resolver)
	driven bool     // set for wstransport, which pulls itself (Tap)
	pull   func(ctx context.Context) (tapItem, bool)
	// pullNow is pull without waiting: got is false when nothing was
	// ready (ok: the stream goes on).
	pullNow func(ctx context.Context) (it tapItem, ok, got bool)
	forward chan model.TableEvent // gqlgen's channel, fed on a cache miss

	// For wstransport (the tap as its Stream): the renderer, the item
	// pulled and not yet rendered, and the seq and kind of the one
	// rendered last.
	shared   *sharedRender
	cur      tapItem
	seq      int64
	snapshot bool
	unmarked []int64 // live seqs rendered and not yet told Written
}

// tapItem is one event the resolver wants sent: a snapshot (already a
// model event) or one of the read model's (or the outbox's) events,
// converted only when this subscriber has to render it.
type tapItem struct {
	seq      int64
	snapshot bool
	event    model.TableEvent
	live     *tote.TableEvent
}

// model is the item as the schema's type.
func (it tapItem) model() model.TableEvent {
	if it.event == nil && it.live != nil {
		return toModelTableEvent(*it.live)
	}
	return it.event
}

type tapKey struct{}

func tapFrom(ctx context.Context) *renderTap {
	t, _ := ctx.Value(tapKey{}).(*renderTap)
	return t
}

// renderKey names one rendered response.
type renderKey struct {
	doc      [32]byte
	seq      int64
	snapshot bool
}

// rendered is a response being or having been rendered; done is closed
// when data (or failed) is set.
type rendered struct {
	done   chan struct{}
	head   []byte          // data in a "next" message, up to the id (wstransport.NextHead)
	data   json.RawMessage // within head
	failed bool
}

// renderCache holds the last renderCacheSize responses.
type renderCache struct {
	mu    sync.RWMutex
	items map[renderKey]*rendered
	order []renderKey // ring of insertion order
	next  int
}

func newRenderCache() *renderCache {
	return &renderCache{items: make(map[renderKey]*rendered, renderCacheSize), order: make([]renderKey, renderCacheSize)}
}

// claim returns the entry of k and whether the caller must render it.
func (c *renderCache) claim(k renderKey) (*rendered, bool) {
	c.mu.RLock()
	r, ok := c.items[k]
	c.mu.RUnlock()
	if ok {
		return r, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.items[k]; ok {
		return r, false
	}
	r = &rendered{done: make(chan struct{})}
	if old := c.order[c.next]; c.items[old] != nil {
		delete(c.items, old)
	}
	c.order[c.next] = k
	c.next = (c.next + 1) % len(c.order)
	c.items[k] = r
	return r, true
}

// sharedRender wraps es so that tableEvents subscriptions share rendered
// responses.
type sharedRender struct {
	graphql.ExecutableSchema
	cache *renderCache
	// stages records socket writes of table events (nil: none).
	stages *event.StageLog
}

var _ wstransport.Sharer = (*sharedRender)(nil)

// Tap implements wstransport.Sharer: a subscription whose only root field
// is tableEvents gets a tap, which the transport pulls (Exec leaves it to
// the transport).
func (s *sharedRender) Tap(ctx context.Context, rc *graphql.OperationContext) (context.Context, wstransport.Stream) {
	if _, ok := tableEventsDoc(rc); !ok {
		return ctx, nil
	}
	tap := &renderTap{driven: true, forward: make(chan model.TableEvent, 1), shared: s}
	return context.WithValue(ctx, tapKey{}, tap), tap
}

// Started implements wstransport.Stream: the resolver set pull.
func (t *renderTap) Started() bool { return t.pull != nil }

// Pull implements wstransport.Stream.
func (t *renderTap) Pull(ctx context.Context) bool {
	it, ok := t.pull(ctx)
	t.cur = it
	return ok
}

// PullNow implements wstransport.Stream.
func (t *renderTap) PullNow(ctx context.Context) (ok, got bool) {
	if t.pullNow == nil {
		return true, false
	}
	it, ok, got := t.pullNow(ctx)
	if got {
		t.cur = it
	}
	return ok, got
}

// Render implements wstransport.Stream. The item is let go of first: the
// tap would keep the join's snapshot for the stream's life.
func (t *renderTap) Render(ctx context.Context, responses graphql.ResponseHandler) ([]byte, *graphql.Response) {
	it := t.cur
	t.cur = tapItem{}
	t.seq, t.snapshot = it.seq, it.snapshot
	r, own := t.shared.next(ctx, t, it, responses)
	if r != nil {
		if t.shared.stages != nil && !it.snapshot {
			t.unmarked = append(t.unmarked, it.seq)
		}
		return r.head, nil
	}
	return nil, own
}

// Written implements wstransport.Stream: the first socket write of a live
// event is a stage of its passage (profiling).
func (t *renderTap) Written() {
	if st := t.shared.stages; st != nil && len(t.unmarked) > 0 {
		now := time.Now()
		for _, seq := range t.unmarked {
			st.Mark(t.table, seq, event.StageFirstWrite, now)
		}
		t.unmarked = t.unmarked[:0]
	}
}

// Exec implements graphql.ExecutableSchema.
func (s *sharedRender) Exec(ctx context.Context) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	doc, ok := tableEventsDoc(oc)
	if !ok {
		return s.ExecutableSchema.Exec(ctx)
	}
	if tap := tapFrom(ctx); tap != nil && tap.driven {
		// The WebSocket transport drives the stream itself (Tap):
		// it pulls events and forwards only those it has to render.
		tap.doc = doc
		return s.ExecutableSchema.Exec(ctx)
	}
	tap := &renderTap{doc: doc, forward: make(chan model.TableEvent, 1)}
	inner := s.ExecutableSchema.Exec(context.WithValue(ctx, tapKey{}, tap))
	if tap.pull == nil { // the resolver failed: inner reports it
		return inner
	}
	return func(ctx context.Context) *graphql.Response {
		it, ok := tap.pull(ctx)
		if !ok {
			return nil
		}
		r, own := s.next(ctx, tap, it, inner)
		if r != nil {
			return &graphql.Response{Data: r.data}
		}
		return own
	}
}

// next renders it for a subscriber of tap's document: either the shared
// rendering (r) or, when that failed or this subscriber rendered it and
// the response is not shareable, the subscriber's own response (own, nil
// when ctx ended). respond is the subscriber's gqlgen response handler,
// which renders what is forwarded to tap.
func (s *sharedRender) next(ctx context.Context, tap *renderTap, it tapItem, respond graphql.ResponseHandler) (r *rendered, own *graphql.Response) {
	key := renderKey{doc: tap.doc, seq: it.seq, snapshot: it.snapshot}
	r, mine := s.cache.claim(key)
	if !mine {
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, nil
		}
		if !r.failed {
			return r, nil
		}
	}
	resp := renderOwn(ctx, tap, respond, it.model())
	if mine {
		// Errors met while rendering are in resp when the executor's
		// response handler rendered it (tap.driven); else they are still
		// in ctx, the executor adding them after this handler returns.
		if resp != nil && len(resp.Errors) == 0 && len(resp.Extensions) == 0 && (tap.driven || len(graphql.GetErrors(ctx)) == 0) {
			r.head, r.data = wstransport.NextHead(resp.Data)
			sharedEncodes.Add(1)
		} else {
			r.failed = true
		}
		close(r.done)
		if !r.failed {
			return r, nil
		}
	}
	return nil, resp
}

// sharedEncodes counts the responses rendered for sharing: one per
// (document, variables, seq) however many subscribers write it (tests
// count it).
var sharedEncodes atomic.Int64

// renderOwn renders ev through gqlgen for this subscriber.
func renderOwn(ctx context.Context, tap *renderTap, inner graphql.ResponseHandler, ev model.TableEvent) *graphql.Response {
	select {
	case tap.forward <- ev:
	case <-ctx.Done():
		return nil
	}
	if !tap.driven {
		return inner(ctx)
	}
	// Rendering (gqlgen's generated code) runs deep; in a goroutine of its
	// own, the subscriber's long-lived one keeps a small stack.
	type result struct {
		resp  *graphql.Response
		panic any
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{panic: r}
			}
		}()
		ch <- result{resp: inner(ctx)}
	}()
	r := <-ch
	if r.panic != nil {
		panic(r.panic)
	}
	return r.resp
}

// tableEventsDoc is the cache key of a subscription whose only root field
// is tableEvents: the hash of its document, operation name and variables,
// leaving out the variable given as afterSeq (it chooses where the stream
// starts, not how an event renders).
func tableEventsDoc(oc *graphql.OperationContext) ([32]byte, bool) {
	if oc == nil || oc.Operation == nil || oc.Operation.Operation != ast.Subscription || len(oc.Operation.SelectionSet) != 1 {
		return [32]byte{}, false
	}
	f, ok := oc.Operation.SelectionSet[0].(*ast.Field)
	if !ok || f.Name != "tableEvents" || len(f.Directives) > 0 {
		return [32]byte{}, false
	}
	skip := ""
	if a := f.Arguments.ForName("afterSeq"); a != nil && a.Value != nil && a.Value.Kind == ast.Variable {
		skip = a.Value.Raw
	}
	vars := make(map[string]any, len(oc.Variables))
	for k, v := range oc.Variables {
		if k != skip {
			vars[k] = v
		}
	}
	vb, err := json.Marshal(vars) // map keys are sorted: a canonical form
	if err != nil {
		return [32]byte{}, false
	}
	h := sha256.New()
	h.Write([]byte(oc.RawQuery))
	h.Write([]byte{0})
	h.Write([]byte(oc.OperationName))
	h.Write([]byte{0})
	h.Write(vb)
	var out [32]byte
	h.Sum(out[:0])
	return out, true
}
