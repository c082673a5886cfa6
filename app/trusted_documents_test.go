package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
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
	_, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) {
		cfg.Env = "production"
		cfg.AllowedOrigins = []string{"https://app.example.kz"}
		cfg.BeaconAllowLocal = true
		cfg.Introspection, cfg.Playground = false, false
		cfg.TrustedDocuments = "enforce"
	})
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
	c.MustDo(t, register, map[string]any{"input": map[string]any{"email": unique("p") + "@example.kz", "password": "player password 1", "name": "Player", "dateOfBirth": "1990-05-17"}}, &reg)
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
	_, c := startServer(t, backend{name: "sqlite"}, func(cfg *app.Config) {
		cfg.Env = "production"
		cfg.AllowedOrigins = []string{"https://app.example.kz"}
		cfg.BeaconAllowLocal = true
		cfg.Introspection, cfg.Playground = false, false
		cfg.TrustedDocuments = "enforce"
	})
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
	c.MustDo(t, register, map[string]any{"input": map[string]any{"email": unique("p") + "@example.kz", "password": "player password 1", "name": "Player", "dateOfBirth": "1990-05-17"}}, &reg)
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
		ch, err := sock.Start(ctx, doc, vars)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case r, ok := <-ch:
			if !ok {
				code, reason, _ := sock.CloseStatus()
				t.Fatalf("the operation ended without a response (socket closed %d %q)", code, reason)
			}
			return r
		case <-ctx.Done():
			t.Fatal("no response")
		}
		return gqltest.Response{}
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
