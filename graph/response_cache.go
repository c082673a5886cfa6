package graph

import (
	"bytes"
	"context"
	"hash/maphash"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/pokertote/pokertote/graph/model"
	"github.com/pokertote/pokertote/trusteddocs"
)

// ResponseCache answers an anonymous query of public data that changes
// only with the table read model and the jackpot (the lobby's Tables
// document: the tables with their settings and current draws, and the
// jackpot) with the very bytes an identical earlier request was answered
// with, while neither has changed since those bytes were rendered: the
// HTTP middleware before gqlgen short-circuits the request (no JSON
// parsing of the body, no middleware behind it, no execution).
//
// # What an answer is keyed and stamped by
//
// The key is the request's bytes that can change the answer: its body
// (the document, variables, operation name) and the headers of
// responseCacheVary (the response's media type, its compression, CORS).
// Every other part of the request that can change the answer keeps the
// request off the cache: a credential (Authorization, X-API-Key: the role
// and the per-user fields belong to someone), another method than POST, a
// WebSocket upgrade, an SSE Accept, a documentId, and whatever Bypass says
// (the database known down: the fail-fast answer). The middleware is the
// first the endpoint runs (after its metrics), so the answer it records,
// headers and bytes, is the one the whole chain wrote (compressed or not,
// with its CORS and Vary headers), and a cached answer runs nothing else.
//
// A stored answer carries its stamp: the read model's Version read before
// it was rendered, and the jackpot it was rendered with (pinned: the
// resolver answers that jackpot). A request takes the stamp of the moment
// it arrived: the read model's Version, and the current jackpot
// (ToteAPI.currentJackpot: with one replica, the jackpot kept while the
// store's jackpot watch says nothing changed since it was read; otherwise
// a read begun after the request arrived). The bytes serve only a request
// of the same stamp, so they show the read model as it stood when the
// request arrived and a jackpot no change committed before it is missing
// from: nothing older than what the uncached execution would have
// answered at that moment. A version that is being published (Version not
// ok) serves and stores nothing.
//
// # What is cached
//
// An operation is cached only when it is a query, carries no extensions
// (persisted-query hashes), and selects only the fields of
// responseCacheFields, which read nothing but the read model and the
// jackpot and take no argument; and only an answer of status 200 with no
// errors and no other extension than cost. Whether a body's operation
// qualifies is learnt the first time it is executed (the operation's
// document decides, so a refusal is remembered); its answer is stored
// from the second time, when the request has a stamp. Trusted documents
// are checked again for every cached answer (a document revoked since is
// refused as before). Mutations, subscriptions, per-user and
// authenticated queries always run.
//
// # Bounds
//
// A body above responseCacheBodyMax bytes is not looked at, at most
// responseCacheEntries bodies are remembered, an answer above
// responseCacheAnswerMax bytes is not stored, and the bodies and answers
// together stay under responseCacheBytes: the oldest entry goes first.
// Requests of the same key and stamp that miss at once wait for the
// first one's execution rather than each executing (one render per change
// of the lobby, not one per waiting client).
type ResponseCache struct {
	// Bypass, when set, sends a request past the cache when it says so
	// (set before serving).
	Bypass func(*http.Request) bool

	tote    *ToteAPI
	trusted *TrustedDocuments
	maxBody int64
	timeout time.Duration
	seed    maphash.Seed

	// entries is read without a lock (copied on write under mu).
	entries atomic.Pointer[map[uint64]*rcEntry]
	mu      sync.Mutex
	order   []uint64 // keys, oldest first
	bytes   int
	flights map[uint64]*rcFlight

	// Hits, Fills and Executions count the requests answered from the
	// cache, the ones executed to store their answer, and the eligible
	// ones executed without storing (first sight, not cacheable, no stamp).
	Hits, Fills, Executions atomic.Int64
}

// The cache's bounds (see ResponseCache).
const (
	responseCacheBodyMax   = 16 << 10
	responseCacheEntries   = 128
	responseCacheAnswerMax = 512 << 10
	responseCacheBytes     = 8 << 20
)

// responseCacheFields are the fields a cached operation may select, by
// type: each reads only the read model (a table and its current draw as
// ToteAPI.liveTables and liveCurrentDraw convert them) or the jackpot
// (QueryJackpot), the same for every anonymous caller, and takes no
// argument. __typename is allowed everywhere. Draw's odds, pools, result,
// chances and positions, among others, are left out: they are read from
// the database or not needed by the lobby.
var responseCacheFields = map[string]map[string]bool{
	"Query": {"tables": true, "jackpot": true},
	"Table": {"id": true, "nodeId": true, "name": true, "positions": true, "status": true, "settings": true,
		"currentDraw": true, "lastSeq": true},
	"TableSettings": {"minStake": true, "maxStake": true, "commission": true, "roundSeconds": true,
		"cardIntervalMs": true, "resultSeconds": true, "expressShares": true, "suspendAt": true},
	"Draw": {"id": true, "nodeId": true, "number": true, "phase": true, "openRound": true, "roundClosesAt": true,
		"minStake": true, "maxStake": true, "board": true, "openedAt": true, "settledAt": true,
		"voidReason": true, "voidKind": true, "beaconDelay": true},
	"BeaconDelay": {"street": true, "round": true, "since": true, "deadline": true},
	"Jackpot":     {"balance": true, "enabled": true},
}

// responseCacheVary are the request headers an answer is keyed by: the
// transport's media type (Content-Type, Accept), the compression
// (Accept-Encoding) and CORS (Origin).
var responseCacheVary = [...]string{"Content-Type", "Accept", "Accept-Encoding", "Origin"}

// rcEntry is one body the cache knows: whether its operation may be
// cached and, once stored, its answer. Immutable once published.
type rcEntry struct {
	body []byte // the request body, to tell keys apart on a collision
	// vary are its headers of responseCacheVary, in that order.
	vary [len(responseCacheVary)][]string
	// cacheable says the operation may be cached; docID is its text's
	// trusted-document id.
	cacheable bool
	docID     string
	answer    *rcAnswer
}

func (e *rcEntry) size() int {
	n := len(e.body) + 256
	if e.answer != nil {
		n += len(e.answer.body)
	}
	return n
}

// rcAnswer is a stored answer and the stamp it holds.
type rcAnswer struct {
	stamp   rcStamp
	status  int
	headers []headerOp
	body    []byte
}

// rcStamp is what an answer shows: the read model's version and the
// jackpot.
type rcStamp struct {
	tables  uint64
	jackpot model.Jackpot
}

// rcFlight is one execution storing an answer, which requests of the
// same key and stamp wait for.
type rcFlight struct {
	stamp  rcStamp
	done   chan struct{}
	answer *rcAnswer // nil: nothing stored; the waiters execute
}

// NewResponseCache returns the cache of tote's lobby queries. trusted
// (nil: none) is checked again on every cached answer; maxBody is the
// request body limit (LimitBody's: a larger body is left to it), and
// timeout bounds a cached request's wait for a jackpot read or another
// request's execution.
func NewResponseCache(tote *ToteAPI, trusted *TrustedDocuments, maxBody int64, timeout time.Duration) *ResponseCache {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	c := &ResponseCache{tote: tote, trusted: trusted, maxBody: min(maxBody, responseCacheBodyMax), timeout: timeout, seed: maphash.MakeSeed(),
		flights: map[uint64]*rcFlight{}}
	c.entries.Store(&map[uint64]*rcEntry{})
	return c
}

// Middleware answers the requests it can from the cache and hands the
// others to next.
func (c *ResponseCache) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !c.eligible(r) || (c.Bypass != nil && c.Bypass(r)) {
			next.ServeHTTP(w, r)
			return
		}
		body, ok := c.readBody(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		k := c.key(r, body)
		e := c.lookup(k, r, body)
		switch {
		case e == nil:
			c.learn(w, r, next, k, body)
		case !e.cacheable || !c.allowed(r.Context(), e):
			c.Executions.Add(1)
			next.ServeHTTP(w, withBody(r, body))
		default:
			c.serve(w, r, next, k, e, body)
		}
	})
}

// eligible says whether r may be answered from the cache by its method
// and headers: an anonymous POST that is not a WebSocket or SSE request.
func (c *ResponseCache) eligible(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil || r.ContentLength > c.maxBody {
		return false
	}
	h := r.Header
	if len(h["Authorization"]) > 0 || len(h["X-Api-Key"]) > 0 || len(h["Upgrade"]) > 0 {
		return false
	}
	for _, a := range h["Accept"] {
		if strings.Contains(a, "event-stream") {
			return false
		}
	}
	return true
}

// readBody reads r's body (up to maxBody); false when it cannot be cached
// (too large, unreadable, a documentId), the body then put back for
// whoever handles r next. withBody puts back one that can.
func (c *ResponseCache) readBody(r *http.Request) ([]byte, bool) {
	var body []byte
	var err error
	if n := r.ContentLength; n >= 0 {
		body = make([]byte, n)
		_, err = io.ReadFull(r.Body, body)
	} else {
		body, err = io.ReadAll(io.LimitReader(r.Body, c.maxBody+1))
	}
	if err != nil || int64(len(body)) > c.maxBody {
		// LimitBody and the transport answer as they do without the cache.
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), r.Body))
		return nil, false
	}
	if bytes.Contains(body, []byte(`"documentId"`)) {
		withBody(r, body)
		return nil, false
	}
	return body, true
}

// withBody gives r body again, read by readBody, for the next handler.
func withBody(r *http.Request, body []byte) *http.Request {
	r.Body = io.NopCloser(bytes.NewReader(body))
	return r
}

func (c *ResponseCache) key(r *http.Request, body []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	for _, name := range responseCacheVary {
		for _, v := range r.Header[name] {
			_, _ = h.WriteString(v)
			_ = h.WriteByte(0)
		}
		_ = h.WriteByte(1)
	}
	_, _ = h.Write(body)
	return h.Sum64()
}

// lookup is the entry of key k when it is r's.
func (c *ResponseCache) lookup(k uint64, r *http.Request, body []byte) *rcEntry {
	e := (*c.entries.Load())[k]
	if e == nil || !bytes.Equal(e.body, body) {
		return nil
	}
	for i, name := range responseCacheVary {
		if !slices.Equal(e.vary[i], r.Header[name]) {
			return nil
		}
	}
	return e
}

// allowed says whether the trusted documents still let the caller run e's
// operation.
func (c *ResponseCache) allowed(ctx context.Context, e *rcEntry) bool {
	t := c.trusted
	if t == nil || !t.Enforce {
		return true
	}
	if t.Manifest != nil {
		if _, ok := t.Manifest.Lookup(e.docID); ok {
			return true
		}
	}
	return t.exempt(ctx)
}

// learn executes a body seen for the first time and remembers whether its
// operation may be cached.
func (c *ResponseCache) learn(w http.ResponseWriter, r *http.Request, next http.Handler, k uint64, body []byte) {
	c.Executions.Add(1)
	slot := &cacheSlot{}
	next.ServeHTTP(w, withBody(r, body).WithContext(withCacheSlot(r.Context(), slot)))
	if slot.decided {
		e := &rcEntry{body: slices.Clone(body), cacheable: slot.docOK, docID: slot.docID}
		for i, name := range responseCacheVary {
			e.vary[i] = slices.Clone(r.Header[name])
		}
		c.store(k, e)
	}
}

// serve answers r, whose operation may be cached: from the stored answer
// when its stamp is r's, else by executing it (or waiting for the
// execution of the same key and stamp under way) and storing the answer.
func (c *ResponseCache) serve(w http.ResponseWriter, r *http.Request, next http.Handler, k uint64, e *rcEntry, body []byte) {
	st, ok := c.stamp(r.Context())
	if !ok {
		c.Executions.Add(1)
		next.ServeHTTP(w, withBody(r, body))
		return
	}
	if a := e.answer; a != nil && a.stamp == st {
		c.Hits.Add(1)
		a.write(w)
		return
	}
	c.mu.Lock()
	if f := c.flights[k]; f != nil && f.stamp == st {
		c.mu.Unlock()
		ctx, cancel := context.WithTimeout(r.Context(), c.timeout)
		defer cancel()
		select {
		case <-f.done:
			if f.answer != nil {
				c.Hits.Add(1)
				f.answer.write(w)
				return
			}
		case <-ctx.Done():
		}
		c.Executions.Add(1)
		next.ServeHTTP(w, withBody(r, body))
		return
	}
	f := &rcFlight{stamp: st, done: make(chan struct{})}
	c.flights[k] = f
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.flights[k] == f {
			delete(c.flights, k)
		}
		c.mu.Unlock()
		close(f.done)
	}()
	c.Fills.Add(1)
	jp := st.jackpot
	slot := &cacheSlot{pinned: &jp}
	cw := &captureWriter{ResponseWriter: w, before: w.Header().Clone(), max: responseCacheAnswerMax}
	next.ServeHTTP(cw, withBody(r, body).WithContext(withCacheSlot(r.Context(), slot)))
	if !slot.decided || !slot.docOK || !slot.respOK || cw.status != http.StatusOK || cw.over || !cw.wrote {
		return
	}
	f.answer = &rcAnswer{stamp: st, status: cw.status, headers: cw.ops, body: cw.buf.Bytes()}
	c.storeAnswer(k, e, f.answer)
}

// stamp is what an answer to a request arriving now must show: the read
// model's version (false while a change of it is being published) and the
// current jackpot (false when it cannot be read).
func (c *ResponseCache) stamp(ctx context.Context) (rcStamp, bool) {
	n, ok := c.tote.live.Version()
	if !ok {
		return rcStamp{}, false
	}
	jp, hit, _, _ := c.tote.jackpot.get()
	if !hit {
		ctx, cancel := context.WithTimeout(ctx, c.timeout)
		defer cancel()
		var err error
		if jp, err = c.tote.currentJackpot(ctx); err != nil {
			return rcStamp{}, false
		}
	}
	return rcStamp{tables: n, jackpot: jp}, true
}

// store publishes e as key k's entry, within the bounds.
func (c *ResponseCache) store(k uint64, e *rcEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.put(k, e)
}

// storeAnswer stores a as the answer of k's entry e, unless a newer
// answer is there already.
func (c *ResponseCache) storeAnswer(k uint64, e *rcEntry, a *rcAnswer) {
	if len(e.body)+len(a.body) > responseCacheBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur := (*c.entries.Load())[k]; cur != nil {
		if cur.answer != nil && cur.answer.stamp.tables > a.stamp.tables {
			return
		}
		e = cur
	}
	ne := *e
	ne.answer = a
	c.put(k, &ne)
}

// put replaces or adds k's entry and drops the oldest entries beyond the
// bounds; c.mu is held.
func (c *ResponseCache) put(k uint64, e *rcEntry) {
	old := *c.entries.Load()
	m := make(map[uint64]*rcEntry, len(old)+1)
	for key, v := range old {
		m[key] = v
	}
	if prev, ok := m[k]; ok {
		c.bytes -= prev.size()
	} else {
		c.order = append(c.order, k)
	}
	m[k] = e
	c.bytes += e.size()
	for len(c.order) > 1 && (len(m) > responseCacheEntries || c.bytes > responseCacheBytes) {
		drop := c.order[0]
		c.order = c.order[1:]
		if drop == k {
			c.order = append(c.order, k)
			continue
		}
		c.bytes -= m[drop].size()
		delete(m, drop)
	}
	c.entries.Store(&m)
}

// Len and Bytes are the entries remembered and their size, for tests and
// metrics.
func (c *ResponseCache) Len() int { return len(*c.entries.Load()) }

// Bytes is the size the bounds count: the bodies and answers stored.
func (c *ResponseCache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// write answers with a: the headers the handler set, its status, its
// bytes.
func (a *rcAnswer) write(w http.ResponseWriter) {
	h := w.Header()
	for _, op := range a.headers {
		op.apply(h)
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body)
}

// headerOp is one change the handler made to the response's headers: its
// values added after those already there (add), the header replaced
// (set), or removed (values nil, !add).
type headerOp struct {
	key    string
	values []string
	add    bool
}

func (op headerOp) apply(h http.Header) {
	switch {
	case op.add:
		h[op.key] = append(h[op.key], op.values...)
	case op.values == nil:
		delete(h, op.key)
	default:
		h[op.key] = slices.Clone(op.values)
	}
}

// headerOps is what turned before into after, header by header: values
// appended to those before are added, anything else replaces.
func headerOps(before, after http.Header) []headerOp {
	var ops []headerOp
	for k, av := range after {
		bv := before[k]
		switch {
		case slices.Equal(av, bv):
		case len(av) > len(bv) && slices.Equal(av[:len(bv)], bv):
			ops = append(ops, headerOp{key: k, values: slices.Clone(av[len(bv):]), add: true})
		default:
			ops = append(ops, headerOp{key: k, values: slices.Clone(av)})
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			ops = append(ops, headerOp{key: k})
		}
	}
	slices.SortFunc(ops, func(a, b headerOp) int { return strings.Compare(a.key, b.key) })
	return ops
}

// captureWriter writes through to its ResponseWriter and records the
// status, the headers the handler set (against before) and, up to max
// bytes, the body.
type captureWriter struct {
	http.ResponseWriter
	before http.Header
	max    int
	status int
	wrote  bool
	ops    []headerOp
	buf    bytes.Buffer
	over   bool // the body passed max, or was flushed (streamed)
}

func (w *captureWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote, w.status = true, code
		w.ops = headerOps(w.before, w.ResponseWriter.Header())
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *captureWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if !w.over {
		if w.buf.Len()+len(b) > w.max {
			w.over = true
			w.buf = bytes.Buffer{}
		} else {
			w.buf.Write(b)
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *captureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush streams: what was flushed is not an answer to store.
func (w *captureWriter) Flush() {
	w.over = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// cacheSlot is what the cache learns of a request it hands on: set by
// responseCacheVerdict inside the executor.
type cacheSlot struct {
	// pinned, when set, is the jackpot the answer must show (its stamp's).
	pinned *model.Jackpot
	// decided says the operation ran; docOK that it may be cached (docID
	// its text's trusted-document id); respOK that its response may be
	// stored.
	decided, docOK, respOK bool
	docID                  string
}

type cacheSlotKey struct{}

func withCacheSlot(ctx context.Context, s *cacheSlot) context.Context {
	return context.WithValue(ctx, cacheSlotKey{}, s)
}

func cacheSlotFrom(ctx context.Context) *cacheSlot {
	s, _ := ctx.Value(cacheSlotKey{}).(*cacheSlot)
	return s
}

// pinnedJackpot is the jackpot the response cache's execution stamped its
// answer with; false outside one.
func pinnedJackpot(ctx context.Context) (model.Jackpot, bool) {
	if s := cacheSlotFrom(ctx); s != nil && s.pinned != nil {
		return *s.pinned, true
	}
	return model.Jackpot{}, false
}

// responseCacheVerdict is the executor's side of ResponseCache: it judges
// the operation and its response for the request's cacheSlot. It must be
// the outermost response interceptor, to see the response as written.
type responseCacheVerdict struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = responseCacheVerdict{}

func (responseCacheVerdict) ExtensionName() string { return "ResponseCache" }

func (responseCacheVerdict) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptResponse implements graphql.ResponseInterceptor.
func (responseCacheVerdict) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	slot := cacheSlotFrom(ctx)
	if slot == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	oc := graphql.GetOperationContext(ctx)
	if oc == nil || oc.Operation == nil {
		return resp
	}
	slot.decided = true
	slot.docOK = cacheableOperation(oc)
	if slot.docOK {
		slot.docID = trusteddocs.ID(oc.RawQuery)
	}
	slot.respOK = resp != nil && cacheableResponse(resp)
	return resp
}

// cacheableOperation says whether oc's operation may be cached: a query
// without extensions selecting only responseCacheFields.
func cacheableOperation(oc *graphql.OperationContext) bool {
	return oc.Operation.Operation == ast.Query && len(oc.Extensions) == 0 &&
		onlyCacheableFields(oc.Doc, oc.Operation.SelectionSet, 0)
}

func onlyCacheableFields(doc *ast.QueryDocument, set ast.SelectionSet, depth int) bool {
	if depth > maxCostDepth {
		return false
	}
	for _, s := range set {
		var inner ast.SelectionSet
		var dirs ast.DirectiveList
		switch s := s.(type) {
		case *ast.Field:
			if s.Name != "__typename" {
				if s.ObjectDefinition == nil || !responseCacheFields[s.ObjectDefinition.Name][s.Name] || len(s.Arguments) > 0 {
					return false
				}
			}
			inner, dirs = s.SelectionSet, s.Directives
		case *ast.InlineFragment:
			inner, dirs = s.SelectionSet, s.Directives
		case *ast.FragmentSpread:
			frag := s.Definition
			if frag == nil && doc != nil {
				frag = doc.Fragments.ForName(s.Name)
			}
			if frag == nil {
				return false
			}
			inner, dirs = frag.SelectionSet, s.Directives
		default:
			return false
		}
		for _, d := range dirs {
			if d.Name != "skip" && d.Name != "include" {
				return false
			}
		}
		if !onlyCacheableFields(doc, inner, depth+1) {
			return false
		}
	}
	return true
}

// cacheableResponse says whether resp may be stored: data, no errors, no
// incremental parts, no extension but cost.
func cacheableResponse(resp *graphql.Response) bool {
	if len(resp.Errors) > 0 || resp.Data == nil || resp.HasNext != nil || resp.Label != "" || resp.Path != nil {
		return false
	}
	for k := range resp.Extensions {
		if k != "cost" {
			return false
		}
	}
	return true
}
