package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/auth"
)

// TestExpiredTokenSaysRefresh: an access token this server signed, past
// its expiry, is answered 401 UNAUTHENTICATED / TOKEN_EXPIRED over HTTP,
// even for a public field such as tables, and closes a socket 4401
// TOKEN_EXPIRED at connection_init: the client refreshes and retries,
// rather than signing its user out (INVALID_TOKEN). A token signed by
// another secret stays INVALID_TOKEN, expired or not.
func TestExpiredTokenSaysRefresh(t *testing.T) {
	t.Parallel()
	secret := []byte("a test secret of at least 32 bytes, for the expiry test")
	_, c := startServer(t, backends(t)[0], func(cfg *app.Config) { cfg.JWTSecret = string(secret) })
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	var me struct{ Me struct{ ID string } }
	admin.MustDo(t, `{ me { id } }`, nil, &me)
	mint := func(key []byte) string {
		t.Helper()
		past := func() time.Time { return time.Now().Add(-2 * time.Hour) }
		tokens, err := auth.NewAccessTokens(auth.AccessConfig{Secret: key, TTL: 15 * time.Minute, Now: past})
		if err != nil {
			t.Fatal(err)
		}
		id := int64(0)
		for _, r := range me.Me.ID {
			id = id*10 + int64(r-'0')
		}
		tok, _, err := tokens.Issue(id, account.Admin)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	expired, forged := mint(secret), mint([]byte("another secret of at least 32 bytes, not the server's"))

	post := func(token string) (int, string, string) {
		req, _ := http.NewRequest(http.MethodPost, c.URL, strings.NewReader(`{"query":"{ tables { id } }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		var out struct {
			Errors []struct {
				Extensions struct{ Code, Reason string }
			}
		}
		_ = json.Unmarshal(body, &out)
		if len(out.Errors) != 1 {
			t.Fatalf("%d %s", res.StatusCode, body)
		}
		return res.StatusCode, out.Errors[0].Extensions.Code, out.Errors[0].Extensions.Reason
	}
	if st, code, reason := post(expired); st != http.StatusUnauthorized || code != "UNAUTHENTICATED" || reason != "TOKEN_EXPIRED" {
		t.Errorf("an expired token on tables: %d %s/%s; want 401 UNAUTHENTICATED/TOKEN_EXPIRED", st, code, reason)
	}
	if st, code, reason := post(forged); st != http.StatusUnauthorized || code != "UNAUTHENTICATED" || reason != "INVALID_TOKEN" {
		t.Errorf("a forged expired token: %d %s/%s; want 401 UNAUTHENTICATED/INVALID_TOKEN", st, code, reason)
	}

	for _, proto := range []string{"graphql-transport-ws", "graphql-ws"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.URL, "http"), &websocket.DialOptions{Subprotocols: []string{proto}})
		if err != nil {
			t.Fatal(err)
		}
		_ = wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{"authToken": expired}})
		var frames []string
		for {
			_, raw, err2 := conn.Read(ctx)
			if err2 != nil {
				err = err2
				break
			}
			frames = append(frames, string(raw))
		}
		var ce websocket.CloseError
		if proto == "graphql-ws" {
			// The legacy protocol answers connection_error with the
			// message, then closes.
			if len(frames) == 0 || !strings.Contains(frames[0], "connection_error") || !strings.Contains(frames[0], "expired: refresh") {
				t.Errorf("legacy: an expired token at connection_init: frames %v", frames)
			}
		} else if !asClose(err, &ce) || ce.Code != 4401 || ce.Reason != "TOKEN_EXPIRED" {
			t.Errorf("%s: an expired token at connection_init closed with %v; want 4401 TOKEN_EXPIRED", proto, err)
		}
		conn.CloseNow()
		cancel()
	}
}

func asClose(err error, ce *websocket.CloseError) bool {
	return websocket.CloseStatus(err) != -1 && errors.As(err, ce)
}
