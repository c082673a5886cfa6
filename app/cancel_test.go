package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestClosingSubscriptionsIsNoError: clients that close their table and
// user subscriptions (at once, or while events flow) leave no
// level=ERROR "internal error ... context canceled" in the server's log
// (issue 11).
func TestClosingSubscriptionsIsNoError(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	cfg := app.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.JWTSecret = "test secret of at least thirty-two bytes!"
	cfg.DocumentPepper = "test pepper of at least thirty-two bytes!"
	cfg.AdminEmail, cfg.AdminPassword = testAdminEmail, testAdminPassword
	cfg.DemoTables, cfg.Introspection = false, true
	cfg.SQLitePath = filepath.Join(t.TempDir(), "pokertote.db")
	fastTote(&cfg)
	seedSQLite(t, &cfg)
	a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()
	c := gqltest.New(a.Addr())
	admin := signIn(t, c, testAdminEmail, testAdminPassword)
	tableID := createTable(t, admin, unique("cancel"))
	p := newPlayer(t, c, "")
	for i := range 20 {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		sub, err := c.Subscribe(sctx, joinSub, map[string]any{"t": tableID})
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 { // let some events flow first
			select {
			case <-sub.Next:
			case <-sctx.Done():
			}
		}
		sub.Close()
		user, err := p.Client.Subscribe(sctx, `subscription { myEvents { at } }`, nil)
		if err != nil {
			t.Fatal(err)
		}
		user.Close()
		scancel()
	}
	time.Sleep(300 * time.Millisecond)
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "level=ERROR") && strings.Contains(line, "context canceled") {
			t.Fatalf("closing a subscription was logged as an error: %s", line)
		}
	}
}
