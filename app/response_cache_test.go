package app_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb/sqldbtest"
)

// The response cache (graph/response_cache.go) answers the lobby's
// anonymous table list from stored bytes. These tests hold it to the rule
// it is built on: a cached answer is never older than the uncached one
// would have been when the request arrived (a jackpot change committed
// before the request, anywhere, is in it; the read model's tables as they
// stood then are in it), on SQLite, on Postgres with the in-process broker
// (one replica: the jackpot kept while the store's watch says it holds),
// and on two replicas sharing Postgres and Redis, the changes made on one
// and the lobby read on the other.

// lobbyBackends are SQLite, Postgres alone and Postgres with Redis (the
// last run as two replicas).
func lobbyBackends(t *testing.T) []backend {
	t.Helper()
	redisURL, prefix := testenv.Redis(t)
	return []backend{
		{name: "sqlite"},
		{name: "postgres", databaseURL: sqldbtest.MigratedPostgres.Postgres(t)},
		{name: "postgres+redis, two replicas", databaseURL: sqldbtest.MigratedPostgres.Postgres(t), redisURL: redisURL, redisPrefix: prefix},
	}
}

// lobbyServers starts b's server, or two replicas when b has Redis: the
// changes are made through cA and the lobby is read through cB.
func lobbyServers(t *testing.T, b backend, tweak func(*app.Config)) (cA, cB *gqltest.Client) {
	t.Helper()
	_, cA = startServer(t, b, tweak)
	cB = cA
	if b.redisURL != "" {
		_, cB = startServer(t, b, tweak)
	}
	return cA, cB
}

// lobbyTable is one table of the lobby's answer.
type lobbyTable struct {
	ID       string
	Status   string
	LastSeq  int64
	Settings struct{ MinStake, MaxStake, Commission string }
	Draw     *struct {
		ID     string
		Number int
		Phase  string
	} `json:"currentDraw"`
}

// lobbyAnswer is what the tests compare of the lobby's answer.
type lobbyAnswer struct {
	Tables  []lobbyTable
	Jackpot struct {
		Balance string
		Enabled bool
	}
}

// table is table id in a, nil when a lacks it.
func (a lobbyAnswer) table(id string) *lobbyTable {
	for i := range a.Tables {
		if a.Tables[i].ID == id {
			return &a.Tables[i]
		}
	}
	return nil
}

// lobby asks c for the web client's lobby document as the client sends it
// (the text and empty variables).
func lobby(t *testing.T, c *gqltest.Client, doc string) lobbyAnswer {
	t.Helper()
	var out lobbyAnswer
	c.MustDo(t, doc, map[string]any{}, &out)
	return out
}

// cacheCounts reads the response cache's counters from c's server's
// /metrics: hit, fill, executed.
func cacheCounts(t *testing.T, c *gqltest.Client) map[string]int {
	t.Helper()
	res, err := http.Get(strings.TrimSuffix(c.URL, "/query") + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "pokertote_response_cache_requests_total{") {
			continue
		}
		result := line[strings.Index(line, `"`)+1 : strings.LastIndex(line, `"`)]
		n, _ := strconv.ParseFloat(line[strings.LastIndex(line, " ")+1:], 64)
		out[result] = int(n)
	}
	return out
}

// warm asks c for the lobby until an answer comes from its cache (seen,
// then stored, then answered, unless the lobby changed meanwhile).
func warm(t *testing.T, c *gqltest.Client, doc string) {
	t.Helper()
	start := cacheCounts(t, c)["hit"]
	for range 100 {
		lobby(t, c, doc)
		if cacheCounts(t, c)["hit"] > start {
			return
		}
	}
	t.Fatalf("no lobby came from the cache: %v", cacheCounts(t, c))
}

// drawPhases orders DrawPhase: a later draw or phase is newer.
var drawPhases = []string{"PRE_DEAL", "DEALING_POCKET", "POCKET", "DEALING_FLOP", "FLOP", "DEALING_TURN", "TURN", "DEALING_RIVER", "SETTLED", "VOID"}

// notOlder fails when the cached answer shows table id older than the
// control, an uncached answer obtained before it.
func notOlder(t *testing.T, what, id string, cached, control lobbyAnswer) {
	t.Helper()
	got, want := cached.table(id), control.table(id)
	switch {
	case want == nil:
		return
	case got == nil:
		t.Fatalf("%s: the cached lobby lacks table %s, which an earlier uncached one showed", what, id)
	case got.LastSeq < want.LastSeq:
		t.Fatalf("%s: the cached lobby shows table %s at seq %d, an earlier uncached one at %d", what, id, got.LastSeq, want.LastSeq)
	case want.Draw != nil && got.Draw == nil:
		t.Fatalf("%s: the cached lobby shows no draw, an earlier uncached one draw %s", what, want.Draw.ID)
	case want.Draw != nil && (got.Draw.Number < want.Draw.Number ||
		got.Draw.Number == want.Draw.Number && slices.Index(drawPhases, got.Draw.Phase) < slices.Index(drawPhases, want.Draw.Phase)):
		t.Fatalf("%s: the cached lobby shows draw %d %s, an earlier uncached one draw %d %s", what, got.Draw.Number, got.Draw.Phase, want.Draw.Number, want.Draw.Phase)
	}
}

// TestLobbyCacheNeverOlderThanItsRequest: jackpot top-ups, the jackpot
// turned off and on, and a table's new minimum stake, each made on one
// server (replica A) and read through the other's (B) cached lobby.
func TestLobbyCacheNeverOlderThanItsRequest(t *testing.T) {
	t.Parallel()
	_, doc := webDoc(t, "Tables")
	for _, b := range lobbyBackends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			cA, cB := lobbyServers(t, b, nil)
			twoReplicas := cA != cB
			admin := signIn(t, cA, testAdminEmail, testAdminPassword)
			tableID := createTable(t, admin, unique("lobby"))
			control := signIn(t, cB, testAdminEmail, testAdminPassword) // uncached: it carries a token
			warm(t, cB, doc)
			before := cacheCounts(t, cB)

			// A top-up committed on A is in B's next answer, and in the
			// answers after it, cached or not.
			for range 5 {
				var top struct{ JackpotTopUp struct{ Balance string } }
				admin.MustDo(t, `mutation($a: Money!, $k: String!) { jackpotTopUp(amount: $a, idempotencyKey: $k) { balance } }`,
					map[string]any{"a": "10.00", "k": unique("top")}, &top)
				for i := range 3 {
					if got := lobby(t, cB, doc).Jackpot.Balance; got != top.JackpotTopUp.Balance {
						t.Fatalf("lobby %d after the top-up: jackpot %s, the top-up answered %s", i, got, top.JackpotTopUp.Balance)
					}
				}
			}
			for _, on := range []bool{false, true, false} {
				admin.MustDo(t, `mutation($on: Boolean!) { setJackpotEnabled(enabled: $on) { enabled } }`, map[string]any{"on": on}, nil)
				for i := range 3 {
					if got := lobby(t, cB, doc).Jackpot.Enabled; got != on {
						t.Fatalf("lobby %d after setJackpotEnabled(%v): enabled %v", i, on, got)
					}
				}
			}

			// A new minimum stake: on the replica that made it, in the next
			// answer; on the other, once its read model has it (it reads
			// the settings every 2 s), and never an answer older than an
			// uncached one before it.
			admin.MustDo(t, `mutation($t: ID!) { setMinStake(tableId: $t, amount: "250.00") { id } }`, map[string]any{"t": tableID}, nil)
			deadline := time.Now().Add(15 * time.Second)
			for {
				ctl := lobby(t, control, doc)
				got := lobby(t, cB, doc)
				notOlder(t, "after setMinStake", tableID, got, ctl)
				tb := got.table(tableID)
				if c := ctl.table(tableID); c != nil && c.Settings.MinStake == "250.00" && (tb == nil || tb.Settings.MinStake != "250.00") {
					t.Fatalf("the cached lobby shows %+v after an uncached one showed the new minimum stake", tb)
				}
				if tb != nil && tb.Settings.MinStake == "250.00" {
					break
				}
				if !twoReplicas {
					t.Fatalf("the lobby after setMinStake on the same server shows %+v", tb)
				}
				if time.Now().After(deadline) {
					t.Fatalf("replica B's lobby never showed the new minimum stake: %+v", tb)
				}
				time.Sleep(20 * time.Millisecond)
			}
			for range 3 {
				if tb := lobby(t, cB, doc).table(tableID); tb == nil || tb.Settings.MinStake != "250.00" {
					t.Fatalf("a lobby after showing the new minimum stake shows %+v", tb)
				}
			}

			after := cacheCounts(t, cB)
			t.Logf("replica B's cache: %v before the changes, %v after", before, after)
			if after["hit"] <= before["hit"] || after["fill"] <= before["fill"] {
				t.Errorf("the cache did not answer, or did not store again after the changes: %v, then %v", before, after)
			}
		})
	}
}

// TestLobbyCacheFollowsTheDraw: while a table is dealt, every cached lobby
// read on replica B shows the table at least at the seq of the last event
// B's subscription delivered, and no older than an uncached answer B gave
// just before (the draw the lobby shows is reloaded from the store after
// each event, so the phase is compared with that answer, not with the
// event).
func TestLobbyCacheFollowsTheDraw(t *testing.T) {
	testenv.SkipShort(t, "deals draws in real time on each backend")
	t.Parallel()
	_, doc := webDoc(t, "Tables")
	for _, b := range lobbyBackends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			cA, cB := lobbyServers(t, b, fastTote)
			admin := signIn(t, cA, testAdminEmail, testAdminPassword)
			tableID := createTable(t, admin, unique("lobby-draw"))
			control := signIn(t, cB, testAdminEmail, testAdminPassword)
			events := watch(t, cB, tableID)
			before := cacheCounts(t, cB)
			var seen int64
			phases := map[string]bool{}
			timeout := time.After(60 * time.Second)
			for n := 0; n < 25; {
				select {
				case e, ok := <-events:
					if !ok {
						t.Fatal("the table's events ended")
					}
					seen = max(seen, e.Seq)
					n++
				case <-timeout:
					t.Fatalf("%d events in 60 s", n)
				case <-time.After(5 * time.Millisecond):
				}
				ctl := lobby(t, control, doc)
				got := lobby(t, cB, doc)
				notOlder(t, "while dealing", tableID, got, ctl)
				tb := got.table(tableID)
				if tb == nil || tb.LastSeq < seen {
					t.Fatalf("the cached lobby shows the table %+v after its event %d was delivered", tb, seen)
				}
				if tb.Draw != nil {
					phases[tb.Draw.Phase] = true
				}
			}
			after := cacheCounts(t, cB)
			t.Logf("phases shown %v; replica B's cache %v, then %v", phases, before, after)
			if after["hit"] <= before["hit"] || after["fill"] <= before["fill"]+1 {
				t.Errorf("the cache did not answer, or not again after the draw moved: %v, then %v", before, after)
			}
			if len(phases) < 2 {
				t.Errorf("the lobby showed the phases %v while the draw was dealt", phases)
			}
		})
	}
}

// rawPost posts body to c's endpoint with the headers h and returns the
// status, the headers (without Date) and the body as sent (not decoded).
func rawPost(t *testing.T, c *gqltest.Client, body []byte, h http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.URL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	tr := &http.Transport{DisableCompression: true} // the bytes as the server wrote them
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	res.Header.Del("Date")
	return res.StatusCode, res.Header, b
}

// TestLobbyCacheAnswersAsTheServerWould: for each way a client may ask
// (media type, compression, an allowed origin), the cached answer has the
// uncached one's status, headers and bytes (the lobby of enough tables to
// be compressed); and what must not be cached is not: a signed-in
// caller, an API key, a bad token, a per-user field, a mutation.
func TestLobbyCacheAnswersAsTheServerWould(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) {
		cfg.AllowedOrigins = []string{"https://app.example.kz"}
	})
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	for i := range 8 {
		createTable(t, admin, unique(fmt.Sprintf("lobby-%d", i)))
	}
	_, doc := webDoc(t, "Tables")
	body, _ := json.Marshal(map[string]any{"query": doc, "variables": map[string]any{}})
	for _, h := range []http.Header{
		{},
		{"Accept-Encoding": {"gzip"}},
		{"Accept-Encoding": {"zstd, gzip"}},
		{"Accept": {"application/graphql-response+json"}},
		{"Origin": {"https://app.example.kz"}, "Accept-Encoding": {"gzip"}},
		{"Origin": {"https://elsewhere.example"}},
	} {
		t.Run(fmt.Sprint(h), func(t *testing.T) {
			before := cacheCounts(t, c)
			// The first is executed (the body is new), the second is
			// executed and stored, the third comes from the cache: nothing
			// changes meanwhile (no dealer), so they must agree.
			s1, h1, b1 := rawPost(t, c, body, h)
			s2, h2, b2 := rawPost(t, c, body, h)
			s3, h3, b3 := rawPost(t, c, body, h)
			after := cacheCounts(t, c)
			if after["hit"] != before["hit"]+1 || after["fill"] != before["fill"]+1 || after["executed"] != before["executed"]+1 {
				t.Fatalf("the cache's counts went from %v to %v; want one execution, one fill, one hit", before, after)
			}
			for i, r := range []struct {
				s int
				h http.Header
				b []byte
			}{{s2, h2, b2}, {s3, h3, b3}} {
				if r.s != s1 || !bytes.Equal(r.b, b1) || fmt.Sprint(r.h) != fmt.Sprint(h1) {
					t.Errorf("answer %d: %d %v %d bytes; the first: %d %v %d bytes", i+2, r.s, r.h, len(r.b), s1, h1, len(b1))
				}
			}
			if h.Get("Accept-Encoding") != "" && h1.Get("Content-Encoding") == "" {
				t.Errorf("a lobby of %d bytes was not compressed: %v", len(b1), h1)
			}
			if h1.Get("Content-Encoding") == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(b3))
				if err != nil {
					t.Fatal(err)
				}
				plain, _ := io.ReadAll(zr)
				if !bytes.Contains(plain, []byte(`"tables"`)) {
					t.Errorf("the cached gzip answer reads %.80s", plain)
				}
			}
		})
	}

	// uncounted runs a request the cache must not look at: none of its
	// counts moves.
	uncounted := func(what string, run func()) {
		t.Helper()
		before := cacheCounts(t, c)
		for range 3 {
			run()
		}
		if after := cacheCounts(t, c); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Errorf("%s: the cache's counts went from %v to %v", what, before, after)
		}
	}
	uncounted("signed in", func() {
		if a := lobby(t, admin, doc); len(a.Tables) < 8 {
			t.Errorf("signed in: %d tables", len(a.Tables))
		}
	})
	uncounted("a bad token", func() {
		r, err := c.WithToken("not a token").Do(context.Background(), doc, map[string]any{})
		if err != nil || r.Status != http.StatusUnauthorized {
			t.Errorf("a bad token: HTTP %d, %v", r.Status, err)
		}
	})
	uncounted("an API key", func() {
		r, err := c.WithHeader("X-API-Key", "pk_not_a_key").Do(context.Background(), doc, map[string]any{})
		if err != nil || r.Status != http.StatusUnauthorized {
			t.Errorf("an API key: HTTP %d, %v", r.Status, err)
		}
	})

	// executedOnly runs an anonymous request the cache looks at but must
	// never answer: it executes every time.
	executedOnly := func(what, query string, vars map[string]any) {
		t.Helper()
		before := cacheCounts(t, c)
		for range 3 {
			if _, err := c.Do(context.Background(), query, vars); err != nil {
				t.Fatal(err)
			}
		}
		after := cacheCounts(t, c)
		if after["hit"] != before["hit"] || after["fill"] != before["fill"] || after["executed"] != before["executed"]+3 {
			t.Errorf("%s: the cache's counts went from %v to %v; want three executions", what, before, after)
		}
	}
	executedOnly("a per-user field", `{ tables { id } me { id } }`, nil)
	executedOnly("a field read from the database", `{ tables { id currentDraw { id pools { market } } } }`, nil)
	executedOnly("a mutation", `mutation { login(email: "nobody@example.kz", password: "wrong password") { accessToken } }`, nil)
	executedOnly("a table by id", `query($id: ID!) { table(id: $id) { id name } }`, map[string]any{"id": "1"})
}
