package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/gqltest"
	"github.com/pokertote/pokertote/trusteddocs"
)

// TestTrustedDocumentIDsAndMismatches: in production configuration a
// registered document runs by its documentId over graphql-transport-ws and
// graphql-ws as it does over HTTP (queries and subscriptions; an unknown id
// is BAD_USER_INPUT / DOCUMENT_NOT_FOUND), and an id or APQ hash sent with
// a text that is not that text's is BAD_USER_INPUT /
// DOCUMENT_HASH_MISMATCH on every transport (HTTP 400), even when both the
// id and the text are registered.
func TestTrustedDocumentIDsAndMismatches(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, enforcingProduction)
	_, login := webDoc(t, "Login")
	var in struct {
		Login struct{ AccessToken string } `json:"login"`
	}
	c.MustDo(t, login, map[string]any{"email": testAdminEmail, "password": testAdminPassword}, &in)
	admin := c.WithToken(in.Login.AccessToken)
	tableID := createTable(t, admin, unique("trusted-ids"))

	tablesID, tables := webDoc(t, "Tables")
	eventsID, _ := webDoc(t, "TableEvents")
	_, me := webDoc(t, "Me")
	unknownID := trusteddocs.ID("query Unknown { tables { id } }")
	apq := func(text string) map[string]any {
		return map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": strings.TrimPrefix(trusteddocs.ID(text), trusteddocs.Prefix)}}
	}
	mismatches := map[string]map[string]any{
		"documentId with another registered text": {"documentId": tablesID, "query": me},
		"documentId with an unregistered text":    {"documentId": tablesID, "query": tables + " "},
		"APQ hash with another registered text":   {"query": tables, "extensions": apq(me)},
		"APQ hash with an unregistered text":      {"query": tables + " ", "extensions": apq(tables)},
	}

	// Over HTTP.
	for what, body := range mismatches {
		r := postBody(t, c, body)
		if len(r.Errors) == 0 || r.Errors[0].Code() != "BAD_USER_INPUT" || r.Errors[0].Reason() != "DOCUMENT_HASH_MISMATCH" {
			t.Errorf("HTTP, %s: %s %+v, want BAD_USER_INPUT / DOCUMENT_HASH_MISMATCH", what, r.Data, r.Errors)
		}
		if _, isID := body["documentId"]; isID && r.Status != http.StatusBadRequest {
			t.Errorf("HTTP, %s: status %d, want 400", what, r.Status)
		}
	}
	wantOK(t, "HTTP, documentId with its own text", postBody(t, c, map[string]any{"documentId": tablesID, "query": tables}))
	get := func(q url.Values) gqltest.Response {
		t.Helper()
		return getQuery(t, c, q)
	}
	wantRefused(t, "GET, documentId with another text", "DOCUMENT_HASH_MISMATCH", get(url.Values{"documentId": {tablesID}, "query": {me}}))
	wantOK(t, "GET, documentId", get(url.Values{"documentId": {tablesID}}))

	// Over both socket protocols.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, proto := range []string{"graphql-transport-ws", "graphql-ws"} {
		t.Run(proto, func(t *testing.T) {
			sock, err := c.Socket(ctx, gqltest.SocketOptions{Legacy: proto == "graphql-ws"})
			if err != nil {
				t.Fatal(err)
			}
			defer sock.Close()
			first := func(payload map[string]any) gqltest.Response {
				t.Helper()
				return socketFirst(ctx, t, sock, payload)
			}
			wantOK(t, "query by documentId", first(map[string]any{"documentId": tablesID}))
			if r := first(map[string]any{"documentId": eventsID, "variables": map[string]any{"tableId": tableID}}); len(r.Errors) > 0 || !strings.Contains(string(r.Data), "TableSnapshot") {
				t.Errorf("subscription by documentId: %s %+v", r.Data, r.Errors)
			}
			wantRefused(t, "unknown documentId", "DOCUMENT_NOT_FOUND", first(map[string]any{"documentId": unknownID}))
			wantOK(t, "documentId with its own text", first(map[string]any{"documentId": tablesID, "query": tables}))
			for what, body := range mismatches {
				r := first(body)
				if len(r.Errors) == 0 || r.Errors[0].Code() != "BAD_USER_INPUT" || r.Errors[0].Reason() != "DOCUMENT_HASH_MISMATCH" {
					t.Errorf("%s: %s %+v, want BAD_USER_INPUT / DOCUMENT_HASH_MISMATCH", what, r.Data, r.Errors)
				}
			}
		})
	}
}

// getQuery sends a GET with q to c's endpoint.
func getQuery(t *testing.T, c *gqltest.Client, q url.Values) gqltest.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.URL+"?"+q.Encode(), nil)
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
