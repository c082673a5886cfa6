package app_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/trusteddocs"
)

// webDoc is the web client's registered document of operation name.
func webDoc(t *testing.T, name string) (id, text string) {
	t.Helper()
	m, err := trusteddocs.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	docs, sources := m.Documents()
	re := regexp.MustCompile(`\b(query|mutation|subscription) ` + name + `\b`)
	for id, text := range docs {
		if sources[id] == "web.json" && re.MatchString(text) {
			return id, text
		}
	}
	t.Fatalf("trusteddocs/web.json has no operation %s", name)
	return "", ""
}

// postBody sends body as JSON to c's endpoint, with c's token.
// enforcingProduction configures a production server that enforces the
// trusted documents (TRUSTED_DOCUMENTS=enforce).
func enforcingProduction(cfg *app.Config) {
	cfg.Env = "production"
	cfg.AllowedOrigins = []string{"https://app.example.kz"}
	cfg.BeaconAllowLocal = true
	cfg.Introspection, cfg.Playground = false, false
	cfg.TrustedDocuments = "enforce"
}

// socketFirst starts payload on sock and returns its first response.
func socketFirst(ctx context.Context, t *testing.T, sock *gqltest.Socket, payload map[string]any) gqltest.Response {
	t.Helper()
	ch, err := sock.StartPayload(ctx, payload)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			code, reason, _ := sock.CloseStatus()
			t.Fatalf("no response (socket closed %d %q)", code, reason)
		}
		return r
	case <-ctx.Done():
		t.Fatal("no response")
	}
	return gqltest.Response{}
}

func postBody(t *testing.T, c *gqltest.Client, body map[string]any) gqltest.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, c.URL, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := gqltest.Response{Status: res.StatusCode}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func wantOK(t *testing.T, what string, r gqltest.Response) {
	t.Helper()
	if len(r.Errors) > 0 || len(r.Data) == 0 || string(r.Data) == "null" {
		t.Errorf("%s: refused: %+v", what, r.Errors)
	}
}

func wantRefused(t *testing.T, what, reason string, r gqltest.Response) {
	t.Helper()
	if len(r.Errors) == 0 || r.Errors[0].Reason() != reason {
		t.Errorf("%s: %s %+v, want reason %s", what, r.Data, r.Errors, reason)
	}
}

// TestTrustedDocumentsInProduction: in production configuration
// (TRUSTED_DOCUMENTS=enforce), players and anonymous clients run the
// registered documents (by text, documentId or APQ hash, over HTTP and
// WebSocket) and nothing else; admins and API keys run any document.
func TestTrustedDocumentsInProduction(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, enforcingProduction)
	const adhoc = `{ tables { id name } }`

	tablesID, tables := webDoc(t, "Tables")
	wantOK(t, "anonymous, registered text", postBody(t, c, map[string]any{"query": tables}))
	wantOK(t, "anonymous, documentId", postBody(t, c, map[string]any{"documentId": tablesID}))
	wantOK(t, "anonymous, APQ hash of a registered document", postBody(t, c, map[string]any{
		"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": strings.TrimPrefix(tablesID, "sha256:")}}}))
	wantRefused(t, "anonymous, ad hoc", "DOCUMENT_NOT_TRUSTED", postBody(t, c, map[string]any{"query": adhoc}))
	wantRefused(t, "anonymous, registered text changed by one space", "DOCUMENT_NOT_TRUSTED", postBody(t, c, map[string]any{"query": tables + " "}))
	unknown := postBody(t, c, map[string]any{"documentId": trusteddocs.ID(adhoc)})
	wantRefused(t, "unknown documentId", "DOCUMENT_NOT_FOUND", unknown)
	if unknown.Status != http.StatusBadRequest {
		t.Errorf("unknown documentId: HTTP %d, want 400", unknown.Status)
	}

	// The admin signs in with the web client's document, then runs anything.
	_, login := webDoc(t, "Login")
	var in struct {
		Login struct{ AccessToken string } `json:"login"`
	}
	c.MustDo(t, login, map[string]any{"email": testAdminEmail, "password": testAdminPassword}, &in)
	admin := c.WithToken(in.Login.AccessToken)
	wantOK(t, "admin, ad hoc", postBody(t, admin, map[string]any{"query": adhoc}))
	tableID := createTable(t, admin, unique("trusted"))

	// A player registers with the web client's document; their ad-hoc
	// operations are refused, the registered ones run.
	_, register := webDoc(t, "Register")
	var reg struct {
		Register struct{ AccessToken string } `json:"register"`
	}
	c.MustDo(t, register, map[string]any{"input": map[string]any{"email": unique("p") + "@example.kz", "password": "player password 1", "name": "Player", "dateOfBirth": "1990-05-17", "acceptedTerms": account.DefaultTermsVersion}}, &reg)
	p := c.WithToken(reg.Register.AccessToken)
	_, me := webDoc(t, "Me")
	wantOK(t, "player, registered", postBody(t, p, map[string]any{"query": me}))
	wantRefused(t, "player, ad hoc", "DOCUMENT_NOT_TRUSTED", postBody(t, p, map[string]any{"query": `{ me { id balance } }`}))

	// An affiliate's API key runs ad-hoc reads.
	_, key := createKey(t, admin, "trusted-docs", 600)
	var out struct{ Tables []struct{ ID string } }
	withKey(c, key).MustDo(t, adhoc, nil, &out)
	if len(out.Tables) == 0 {
		t.Error("API key, ad hoc: no tables")
	}

	// WebSocket: the registered subscription runs for anyone, an ad-hoc
	// one only for the admin.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, events := webDoc(t, "TableEvents")
	firstEvent := func(who string, cl *gqltest.Client, doc string, vars map[string]any) (json.RawMessage, string) {
		t.Helper()
		sub, err := cl.Subscribe(ctx, doc, vars)
		if err != nil {
			t.Fatalf("%s: subscribe: %v", who, err)
		}
		defer sub.Close()
		select {
		case m, ok := <-sub.Next:
			if !ok {
				return nil, sub.Err()
			}
			return m, ""
		case <-ctx.Done():
			t.Fatalf("%s: no answer", who)
		}
		return nil, ""
	}
	if m, err := firstEvent("anonymous, registered", c, events, map[string]any{"tableId": tableID}); err != "" || !strings.Contains(string(m), "TableSnapshot") {
		t.Errorf("anonymous, registered subscription: %s %s", m, err)
	}
	const adhocSub = `subscription($t: ID!) { tableEvents(tableId: $t) { __typename seq } }`
	if m, err := firstEvent("anonymous, ad hoc", c, adhocSub, map[string]any{"t": tableID}); !refusedUntrusted(err) {
		t.Errorf("anonymous, ad-hoc subscription: %s, error %q; want DOCUMENT_NOT_TRUSTED", m, err)
	}
	if m, err := firstEvent("player, ad hoc", p, adhocSub, map[string]any{"t": tableID}); !refusedUntrusted(err) {
		t.Errorf("player, ad-hoc subscription: %s, error %q; want DOCUMENT_NOT_TRUSTED", m, err)
	}
	if m, err := firstEvent("admin, ad hoc", admin, adhocSub, map[string]any{"t": tableID}); err != "" || !strings.Contains(string(m), "TableSnapshot") {
		t.Errorf("admin, ad-hoc subscription: %s %s", m, err)
	}
}

// refusedUntrusted reports whether a subscription's error (gqltest shows
// its message and code) is the trusted-documents refusal.
func refusedUntrusted(err string) bool {
	return strings.Contains(err, "only registered documents") && strings.Contains(err, "FORBIDDEN")
}

// TestTrustedDocumentsOverEveryTransport: in production configuration the
// allowlist holds on every transport, graphql-transport-ws, graphql-ws and
// SSE alike: anonymous and player connections run the registered documents
// and are refused an ad-hoc one (FORBIDDEN / DOCUMENT_NOT_TRUSTED), while an
// affiliate's API key (X-API-Key on the upgrade or the stream's request)
// runs ad-hoc documents.
func TestTrustedDocumentsOverEveryTransport(t *testing.T) {
	_, c := startServer(t, backend{name: "sqlite"}, enforcingProduction)
	_, login := webDoc(t, "Login")
	var in struct {
		Login struct{ AccessToken string } `json:"login"`
	}
	c.MustDo(t, login, map[string]any{"email": testAdminEmail, "password": testAdminPassword}, &in)
	admin := c.WithToken(in.Login.AccessToken)
	tableID := createTable(t, admin, unique("trusted-transports"))
	_, register := webDoc(t, "Register")
	var reg struct {
		Register struct{ AccessToken string } `json:"register"`
	}
	c.MustDo(t, register, map[string]any{"input": map[string]any{"email": unique("p") + "@example.kz", "password": "player password 1", "name": "Player", "dateOfBirth": "1990-05-17", "acceptedTerms": account.DefaultTermsVersion}}, &reg)
	player := c.WithToken(reg.Register.AccessToken)
	_, key := createKey(t, admin, "trusted-transports", 600)
	keyHeader := http.Header{"X-Api-Key": {key}}

	_, events := webDoc(t, "TableEvents")
	_, tables := webDoc(t, "Tables")
	registered := map[string]struct {
		doc  string
		vars map[string]any
	}{
		"registered subscription": {events, map[string]any{"tableId": tableID}},
		"registered query":        {tables, nil},
	}
	adhoc := map[string]struct {
		doc  string
		vars map[string]any
	}{
		"ad-hoc subscription": {`subscription($t: ID!) { tableEvents(tableId: $t) { __typename seq } }`, map[string]any{"t": tableID}},
		"ad-hoc query":        {`{ tables { id name } }`, nil},
	}
	type who struct {
		name   string
		c      *gqltest.Client
		header http.Header
		exempt bool
	}
	principals := []who{{"anonymous", c, nil, false}, {"player", player, nil, false}, {"API key", withKey(c, key), keyHeader, true}}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// first runs doc over the transport and returns its first response.
	first := func(t *testing.T, proto string, p who, doc string, vars map[string]any) gqltest.Response {
		t.Helper()
		if proto == "sse" {
			st, err := p.c.SSE(ctx, doc, vars, nil)
			if err != nil {
				t.Fatalf("SSE: %v", err)
			}
			defer st.Close()
			select {
			case r, ok := <-st.Next:
				if !ok {
					t.Fatalf("the stream ended without a response (completed %v)", st.Completed())
				}
				return r
			case <-ctx.Done():
				t.Fatal("no response")
			}
		}
		sock, err := p.c.Socket(ctx, gqltest.SocketOptions{Legacy: proto == "graphql-ws", Header: p.header})
		if err != nil {
			t.Fatalf("socket: %v", err)
		}
		defer sock.Close()
		return socketFirst(ctx, t, sock, map[string]any{"query": doc, "variables": vars})
	}
	for _, proto := range []string{"graphql-transport-ws", "graphql-ws", "sse"} {
		for _, p := range principals {
			t.Run(proto+"/"+p.name, func(t *testing.T) {
				for what, op := range registered {
					if r := first(t, proto, p, op.doc, op.vars); len(r.Errors) > 0 || len(r.Data) == 0 || string(r.Data) == "null" {
						t.Errorf("%s: refused %+v", what, r.Errors)
					}
				}
				for what, op := range adhoc {
					r := first(t, proto, p, op.doc, op.vars)
					switch {
					case p.exempt && (len(r.Errors) > 0 || len(r.Data) == 0 || string(r.Data) == "null"):
						t.Errorf("%s with an API key: refused %+v", what, r.Errors)
					case !p.exempt && (len(r.Errors) == 0 || r.Errors[0].Reason() != "DOCUMENT_NOT_TRUSTED" || r.Errors[0].Code() != "FORBIDDEN"):
						t.Errorf("%s: %s %+v, want FORBIDDEN / DOCUMENT_NOT_TRUSTED", what, r.Data, r.Errors)
					}
				}
			})
		}
	}
}

// TestTrustedDocumentsRegisteredAtRuntime: a mobile client's documents
// need no server release. In production, on two replicas sharing Postgres
// and Redis: an Apollo manifest's documents (as Apollo Client sends them,
// __typename added) are refused until an admin registers the manifest,
// then run on both replicas by text, documentId and APQ hash over HTTP,
// graphql-transport-ws, graphql-ws and SSE; a Relay manifest's document
// runs by its MD5 id; a manifest whose id is not its document's hash is
// refused (DOCUMENT_HASH_MISMATCH); the registration is audited, and a revoked one is refused
// again everywhere.
func TestTrustedDocumentsRegisteredAtRuntime(t *testing.T) {
	t.Parallel()
	b := backends(t)[1]
	prod := enforcingProduction
	_, one := startServer(t, b, prod)
	_, two := startServer(t, b, prod)
	_, login := webDoc(t, "Login")
	var in struct {
		Login struct{ AccessToken string } `json:"login"`
	}
	one.MustDo(t, login, map[string]any{"email": testAdminEmail, "password": testAdminPassword}, &in)
	admin := one.WithToken(in.Login.AccessToken)
	tableID := createTable(t, admin, unique("runtime-docs"))

	client := unique("ios")
	const query = "query MobileTables {\n  tables {\n    id\n    name\n    __typename\n  }\n}"
	const sub = "subscription MobileEvents($tableId: ID!) {\n  tableEvents(tableId: $tableId) {\n    __typename\n    seq\n  }\n}"
	hexOf := func(s string) string { return strings.TrimPrefix(trusteddocs.ID(s), "sha256:") }
	apollo, _ := json.Marshal(map[string]any{"format": "apollo-persisted-query-manifest", "version": 1, "operations": []map[string]any{
		{"id": hexOf(query), "name": "MobileTables", "type": "query", "body": query},
		{"id": hexOf(sub), "name": "MobileEvents", "type": "subscription", "body": sub},
	}})
	register := `mutation($in: RegisterTrustedDocumentsInput!) { registerTrustedDocuments(input: $in) { client version format documents revokedAt } }`
	apq := map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hexOf(query)}}}
	forms := map[string]map[string]any{
		"text":       {"query": query},
		"documentId": {"documentId": trusteddocs.ID(query)},
		"APQ hash":   apq,
	}

	for _, c := range []*gqltest.Client{one, two} {
		wantRefused(t, "before registration", "DOCUMENT_NOT_TRUSTED", postBody(t, c, forms["text"]))
	}
	// A manifest whose id is another text's hash is refused.
	forged, _ := json.Marshal(map[string]any{"format": "apollo-persisted-query-manifest", "version": 1, "operations": []map[string]any{
		{"id": hexOf(query), "name": "MobileTables", "type": "query", "body": "query MobileTables { me { id email } }"}}})
	admin.MustFail(t, "BAD_USER_INPUT", "DOCUMENT_HASH_MISMATCH", register, map[string]any{"in": map[string]any{"client": client, "version": "1.0.0", "manifest": string(forged)}})

	var got struct {
		RegisterTrustedDocuments struct {
			Format    string
			Documents int
		}
	}
	admin.MustDo(t, register, map[string]any{"in": map[string]any{"client": client, "version": "1.0.0", "manifest": string(apollo)}}, &got)
	if got.RegisterTrustedDocuments.Format != "APOLLO" || got.RegisterTrustedDocuments.Documents != 2 {
		t.Fatalf("registered %+v", got.RegisterTrustedDocuments)
	}
	admin.MustFail(t, "CONFLICT", "ALREADY_EXISTS", register, map[string]any{"in": map[string]any{"client": client, "version": "1.0.0", "manifest": string(apollo)}})

	// served waits until every form runs (want) or is refused (!want) on c.
	served := func(c *gqltest.Client, want bool) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			ok := 0
			for _, body := range forms {
				if r := postBody(t, c, body); len(r.Errors) == 0 && len(r.Data) > 0 && string(r.Data) != "null" {
					ok++
				}
			}
			if (want && ok == len(forms)) || (!want && ok == 0) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d of %d forms run, want all %v", c.URL, ok, len(forms), want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	served(one, true)
	served(two, true)

	// The subscription runs on the other replica over every transport.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	vars := map[string]any{"tableId": tableID}
	for _, legacy := range []bool{false, true} {
		sock, err := two.Socket(ctx, gqltest.SocketOptions{Legacy: legacy})
		if err != nil {
			t.Fatal(err)
		}
		ch, err := sock.Start(ctx, sub, vars)
		if err != nil {
			t.Fatal(err)
		}
		if r := <-ch; len(r.Errors) > 0 || !strings.Contains(string(r.Data), "TableSnapshot") {
			t.Errorf("socket (legacy=%v): %s %+v", legacy, r.Data, r.Errors)
		}
		sock.Close()
	}
	st, err := two.SSE(ctx, sub, vars, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := <-st.Next; len(r.Errors) > 0 || !strings.Contains(string(r.Data), "TableSnapshot") {
		t.Errorf("SSE: %s %+v", r.Data, r.Errors)
	}
	st.Close()

	// Relay's manifest names a document by its MD5; that id is its documentId.
	const relayDoc = "query RelayTables {\n  tables {\n    id\n  }\n}"
	sum := md5.Sum([]byte(relayDoc))
	relayID := hex.EncodeToString(sum[:])
	relay, _ := json.Marshal(map[string]string{relayID: relayDoc})
	admin.MustDo(t, register, map[string]any{"in": map[string]any{"client": client + "-relay", "version": "7", "manifest": string(relay)}}, &got)
	if got.RegisterTrustedDocuments.Format != "RELAY" {
		t.Errorf("a Relay manifest registered as %s", got.RegisterTrustedDocuments.Format)
	}
	wantOK(t, "Relay documentId", postBody(t, one, map[string]any{"documentId": relayID}))

	// Audited, listed, and revoked everywhere.
	var audit struct {
		AuditLog struct {
			Edges []struct{ Node struct{ Detail string } }
		}
	}
	admin.MustDo(t, `{ auditLog(action: "TRUSTED_DOCUMENTS_REGISTERED") { edges { node { detail } } } }`, nil, &audit)
	if n := len(audit.AuditLog.Edges); n < 2 || !strings.Contains(audit.AuditLog.Edges[len(audit.AuditLog.Edges)-1].Node.Detail+audit.AuditLog.Edges[0].Node.Detail, client) {
		t.Errorf("audit log: %+v", audit.AuditLog.Edges)
	}
	admin.MustDo(t, `mutation($c: String!) { revokeTrustedDocuments(client: $c, version: "1.0.0") { revokedAt } }`, map[string]any{"c": client}, nil)
	served(one, false)
	served(two, false)
	var list struct {
		TrustedManifests []struct {
			Client    string
			RevokedAt *string
		}
	}
	admin.MustDo(t, `{ trustedManifests { client revokedAt } }`, nil, &list)
	revoked := 0
	for _, m := range list.TrustedManifests {
		if m.Client == client && m.RevokedAt != nil {
			revoked++
		}
	}
	if revoked != 1 {
		t.Errorf("trustedManifests: %+v", list.TrustedManifests)
	}
}
