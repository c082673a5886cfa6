package app_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/app"
	"github.com/pokertote/pokertote/internal/gqltest"
)

// A development server with no ADMIN_EMAIL makes an admin, prints its
// credentials, and reuses them after a restart; production refuses the
// setting, and it is off there by default.
func TestDevAdmin(t *testing.T) {
	t.Parallel()
	dev, err := app.LoadConfig(func(string) string { return "" })
	if err != nil || !dev.DevAdmin {
		t.Fatalf("development: DevAdmin %v, err %v; want on by default", dev.DevAdmin, err)
	}
	prodEnv := map[string]string{"POKERTOTE_ENV": "production", "JWT_SECRET": strings.Repeat("s", 32),
		"DOCUMENT_PEPPER": strings.Repeat("p", 32), "ALLOWED_ORIGINS": "https://app.example.kz", "BEACON_ALLOW_LOCAL": "true", "BEACON": "local"}
	prod, err := app.LoadConfig(func(k string) string { return prodEnv[k] })
	if err != nil || prod.DevAdmin {
		t.Fatalf("production: DevAdmin %v, err %v; want off", prod.DevAdmin, err)
	}
	prodEnv["DEV_ADMIN"] = "true"
	if _, err := app.LoadConfig(func(k string) string { return prodEnv[k] }); err == nil || !strings.Contains(err.Error(), "DEV_ADMIN") {
		t.Fatalf("production with DEV_ADMIN=true: %v, want refused", err)
	}

	dataDir := t.TempDir()
	db := filepath.Join(dataDir, "pokertote.db")
	var passwords []string
	for run := range 2 {
		logs := &lockedBuffer{}
		cfg := app.DefaultConfig()
		cfg.Addr = "127.0.0.1:0"
		cfg.JWTSecret = "test secret of at least thirty-two bytes!"
		cfg.DocumentPepper = "test pepper of at least thirty-two bytes!"
		cfg.DemoTables, cfg.DealerEnabled = false, false
		cfg.DevAdmin = true
		cfg.DataDir, cfg.SQLitePath = dataDir, db
		a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- a.Run(ctx) }()
		c := gqltest.New(a.Addr())
		b, err := os.ReadFile(filepath.Join(dataDir, "dev-admin-password"))
		if err != nil {
			t.Fatal(err)
		}
		password := strings.TrimSpace(string(b))
		passwords = append(passwords, password)
		out := logs.String()
		if !strings.Contains(out, app.DevAdminEmail) || !strings.Contains(out, password) {
			t.Fatalf("run %d: the credentials are not printed at start:\n%s", run, out)
		}
		var me struct {
			Me struct{ Role string } `json:"me"`
		}
		signIn(t, c, app.DevAdminEmail, password).MustDo(t, `{ me { role } }`, nil, &me)
		if me.Me.Role != "ADMIN" {
			t.Fatalf("run %d: the development admin's role is %q", run, me.Me.Role)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("run %d: the server stopped with %v", run, err)
		}
	}
	if passwords[0] != passwords[1] {
		t.Errorf("the restart changed the password: %q then %q", passwords[0], passwords[1])
	}
}
