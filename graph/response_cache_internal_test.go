package graph

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/ledger/ledgertest"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/domain/tote/service"
	"github.com/pokertote/pokertote/domain/tote/totetest"
	"github.com/pokertote/pokertote/trusteddocs"
)

// The web client's lobby document is cached; what reads the database, a
// user's own data, takes arguments, or is not a query is not.
func TestCacheableOperation(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}, Directives: Directives()}).Schema()
	m, err := trusteddocs.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := m.Documents()
	var lobby string
	for _, text := range docs {
		if regexp.MustCompile(`\bquery Tables\b`).MatchString(text) {
			lobby = text
		}
	}
	if lobby == "" {
		t.Fatal("the web client's manifest has no Tables query")
	}
	for _, c := range []struct {
		doc  string
		vars map[string]any
		ok   bool
	}{
		{lobby, nil, true},
		{`{ tables { id name __typename } }`, nil, true},
		{`{ jackpot { balance } }`, nil, true},
		{`query($s: Boolean!) { tables { id settings @skip(if: $s) { minStake } } }`, map[string]any{"s": true}, true},
		{`{ tables { ...T } } fragment T on Table { id currentDraw { ... on Draw { phase beaconDelay { round } } } }`, nil, true},
		{`{ tables { id } me { id } }`, nil, false},
		{`{ tables { id currentDraw { pools { market } } } }`, nil, false},
		{`{ tables { id currentDraw { odds { exact } } } }`, nil, false},
		{`{ tables { id currentDraw { table { id } } } }`, nil, false},
		{`query($id: ID!) { table(id: $id) { id } }`, map[string]any{"id": "1"}, false},
		{`{ results(first: 1) { edges { node { id } } } }`, nil, false},
		{`{ __schema { types { name } } }`, nil, false},
		{`mutation { setJackpotEnabled(enabled: true) { enabled } }`, nil, false},
		{`subscription { tableEvents(tableId: "1") { __typename } }`, nil, false},
	} {
		doc, errList := gqlparser.LoadQueryWithRules(schema, c.doc, nil)
		if errList != nil {
			t.Fatalf("%s: %v", c.doc, errList)
		}
		oc := &graphql.OperationContext{Doc: doc, Operation: doc.Operations[0], Variables: c.vars}
		if got := cacheableOperation(oc); got != c.ok {
			t.Errorf("%s: cacheable %v, want %v", c.doc, got, c.ok)
		}
	}
	oc := &graphql.OperationContext{Extensions: map[string]any{"persistedQuery": map[string]any{}}}
	doc, _ := gqlparser.LoadQueryWithRules(schema, `{ tables { id } }`, nil)
	oc.Doc, oc.Operation = doc, doc.Operations[0]
	if cacheableOperation(oc) {
		t.Error("an operation with extensions (a persisted query's hash) is cacheable")
	}
}

// Every field the cache may store is in the schema, takes no argument and
// needs no role: a field given an argument or a role since must leave
// responseCacheFields (or the cache would answer it for anyone).
func TestResponseCacheFieldsArePublicAndArgumentless(t *testing.T) {
	schema := NewExecutableSchema(Config{Resolvers: &Resolver{}, Directives: Directives()}).Schema()
	for typ, fields := range responseCacheFields {
		def := schema.Types[typ]
		if def == nil {
			t.Errorf("type %s is not in the schema", typ)
			continue
		}
		for name := range fields {
			f := def.Fields.ForName(name)
			switch {
			case f == nil:
				t.Errorf("%s.%s is not in the schema", typ, name)
			case len(f.Arguments) > 0:
				t.Errorf("%s.%s takes arguments", typ, name)
			case len(f.Directives) > 0 && (f.Directives.ForName("authenticated") != nil || f.Directives.ForName("hasRole") != nil):
				t.Errorf("%s.%s needs a viewer", typ, name)
			}
		}
	}
}

func TestHeaderOpsReplayTheHandlersChanges(t *testing.T) {
	before := http.Header{"Vary": {"Origin"}, "X-Gone": {"1"}, "X-Same": {"a"}, "X-Set": {"old"}}
	after := http.Header{"Vary": {"Origin", "Accept"}, "Content-Type": {"application/json"}, "X-Same": {"a"}, "X-Set": {"new"}}
	ops := headerOps(before, after)
	// Replayed on the same headers: after.
	h := before.Clone()
	for _, op := range ops {
		op.apply(h)
	}
	if fmt.Sprint(h) != fmt.Sprint(after) {
		t.Errorf("replayed: %v, want %v", h, after)
	}
	// On another request's (no Origin): what the handler's Add and Set
	// would have made of them.
	h = http.Header{"Vary": {"Accept-Encoding"}, "X-Set": {"old"}}
	for _, op := range ops {
		op.apply(h)
	}
	want := http.Header{"Vary": {"Accept-Encoding", "Accept"}, "Content-Type": {"application/json"}, "X-Set": {"new"}}
	if fmt.Sprint(h) != fmt.Sprint(want) {
		t.Errorf("replayed on other headers: %v, want %v", h, want)
	}
}

// cacheWorld is a ResponseCache over a ToteAPI on an in-memory store, in
// front of a handler standing for the executor: it judges every operation
// cacheable or not as cacheable says and counts its executions.
type cacheWorld struct {
	cache     *ResponseCache
	h         http.Handler
	runs      atomic.Int32
	cacheable bool
	delay     time.Duration
}

func newCacheWorld(t *testing.T) *cacheWorld {
	t.Helper()
	led := ledgertest.NewMemStore(nil)
	store := totetest.NewMemStore(led)
	hub := event.NewHub()
	t.Cleanup(hub.Close)
	svc, err := service.New(service.Config{Store: store, Ledger: led, Gate: totetest.AllowAll{}, Publisher: hubPublisher{hub}})
	if err != nil {
		t.Fatal(err)
	}
	live := readmodel.New(store, hub, nil, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = live.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	<-live.Ready()
	api := NewToteAPI(svc, live, nil)
	changes := &event.Changes{}
	store.WatchJackpot(changes)
	api.WatchJackpot(changes)
	w := &cacheWorld{cache: NewResponseCache(api, nil, 1<<20, 5*time.Second), cacheable: true}
	w.h = w.cache.Middleware(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.runs.Add(1)
		time.Sleep(w.delay)
		if s := cacheSlotFrom(r.Context()); s != nil {
			s.decided, s.docOK, s.respOK = true, w.cacheable, true
		}
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write([]byte(`{"data":{"tables":[]}}`))
	}))
	return w
}

type hubPublisher struct{ hub *event.Hub }

func (p hubPublisher) Publish(_ context.Context, topic string, data []byte) error {
	p.hub.Deliver(topic, data)
	return nil
}

func (w *cacheWorld) post(body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/query", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	w.h.ServeHTTP(rec, req)
	return rec
}

// Requests that miss together with one stamp wait for one execution.
func TestResponseCacheRendersOncePerChange(t *testing.T) {
	w := newCacheWorld(t)
	const body = `{"query":"{ tables { id } }","variables":{}}`
	w.post(body) // seen: the operation is judged
	w.delay = 50 * time.Millisecond
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rec := w.post(body); rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte("tables")) {
				t.Errorf("answered %d %s", rec.Code, rec.Body)
			}
		}()
	}
	wg.Wait()
	if n := w.runs.Load(); n != 2 {
		t.Errorf("%d executions for one new body and 20 requests together, want 2", n)
	}
	if h, f := w.cache.Hits.Load(), w.cache.Fills.Load(); h != 19 || f != 1 {
		t.Errorf("%d hits and %d fills, want 19 and 1", h, f)
	}
}

// However many bodies come, the cache keeps at most responseCacheEntries
// of them and responseCacheBytes in all; a body too large is not kept.
func TestResponseCacheIsBounded(t *testing.T) {
	w := newCacheWorld(t)
	w.cacheable = false
	pad := strings.Repeat(" ", 15<<10)
	for i := range 3 * responseCacheEntries {
		w.post(fmt.Sprintf(`{"query":"{ tables { id } }","variables":{"n":%d}}%s`, i, pad))
	}
	if n, b := w.cache.Len(), w.cache.Bytes(); n > responseCacheEntries || b > responseCacheBytes {
		t.Errorf("%d entries of %d bytes; the bounds are %d and %d", n, b, responseCacheEntries, responseCacheBytes)
	}
	n := w.cache.Len()
	w.post(`{"query":"{ tables { id } }"}` + strings.Repeat(" ", responseCacheBodyMax))
	if w.cache.Len() > n || w.cache.Executions.Load() != int64(3*responseCacheEntries) {
		t.Error("a body above responseCacheBodyMax was looked at")
	}
	// Stored answers count too.
	w.cacheable = true
	for i := range 3 * responseCacheEntries {
		body := fmt.Sprintf(`{"query":"{ tables { id } }","variables":{"n":%d}}`, i)
		w.post(body)
		w.post(body)
	}
	if n, b := w.cache.Len(), w.cache.Bytes(); n > responseCacheEntries || b > responseCacheBytes {
		t.Errorf("%d entries of %d bytes; the bounds are %d and %d", n, b, responseCacheEntries, responseCacheBytes)
	}
}
