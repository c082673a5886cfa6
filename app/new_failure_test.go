package app_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pokertote/pokertote/app"
)

// TestNewFailsWithoutPanic: when start-up fails (here the database cannot
// be opened), New returns the error, no App and no panic, having released
// what it had opened.
func TestNewFailsWithoutPanic(t *testing.T) {
	t.Parallel()
	for name, url := range map[string]string{
		"malformed URL":    "postgres://%zz",
		"nobody listening": "postgres://pokertote@127.0.0.1:1/pokertote?sslmode=disable&connect_timeout=2",
	} {
		t.Run(name, func(t *testing.T) {
			cfg := app.DefaultConfig()
			cfg.Addr = "127.0.0.1:0"
			cfg.JWTSecret = "test secret of at least thirty-two bytes!"
			cfg.DocumentPepper = "test pepper of at least thirty-two bytes!"
			cfg.DatabaseURL = url
			cfg.SQLitePath = filepath.Join(t.TempDir(), "pokertote.db")
			var (
				a   *app.App
				err error
			)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("app.New panicked: %v", p)
					}
				}()
				a, err = app.New(context.Background(), cfg, testLogger(t))
			}()
			if err == nil {
				a.Close()
				t.Fatal("app.New succeeded on a database it cannot open")
			}
			if a != nil {
				t.Errorf("app.New returned an App with its error %v", err)
			}
		})
	}
}
