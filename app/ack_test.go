package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// TestConnectionAckEchoesNothing: on both socket protocols, the server's
// connection_ack to a connection_init carrying the access token says
// nothing of the token (it used to echo the whole payload back).
func TestConnectionAckEchoesNothing(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	_, c := startServer(t, b, nil)
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	for _, proto := range []string{"graphql-transport-ws", "graphql-ws"} {
		t.Run(proto, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.URL, "http"), &websocket.DialOptions{Subprotocols: []string{proto}})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseNow()
			if err := wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{"authToken": admin.Token}}); err != nil {
				t.Fatal(err)
			}
			for {
				_, raw, err := conn.Read(ctx)
				if err != nil {
					t.Fatalf("no ack: %v", err)
				}
				if strings.Contains(string(raw), "ka") && !strings.Contains(string(raw), "connection_ack") {
					continue // the legacy protocol's keep-alive
				}
				if !strings.Contains(string(raw), `"connection_ack"`) {
					t.Fatalf("first frame %s", raw)
				}
				if strings.Contains(string(raw), admin.Token) || strings.Contains(string(raw), "authToken") {
					t.Fatalf("the ack echoes the token: %s", raw)
				}
				return
			}
		})
	}
}
