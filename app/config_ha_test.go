package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/app"
)

// TestConfigHA reads the high-availability settings and refuses the bad
// ones with a message naming the variable.
func TestConfigHA(t *testing.T) {
	env := map[string]string{
		"DATABASE_URL":            "postgres://u@10.0.0.1:5432,10.0.0.2:5432/pt?target_session_attrs=read-write",
		"DATABASE_READ_URL":       "postgres://u@10.0.0.2:5432,10.0.0.1:5432/pt?target_session_attrs=prefer-standby",
		"READ_YOUR_WRITES_WINDOW": "3s",
		"REDIS_SENTINELS":         "10.0.0.1:26379, 10.0.0.2:26379,10.0.0.3:26379",
		"REDIS_MASTER_NAME":       "pt",
	}
	cfg, err := app.LoadConfig(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ReadYourWrites != 3*time.Second || cfg.RedisMasterName != "pt" || len(cfg.RedisSentinels) != 3 || cfg.RedisSentinels[1] != "10.0.0.2:26379" {
		t.Fatalf("read %+v", cfg)
	}
	for name, bad := range map[string]map[string]string{
		"DATABASE_READ_URL":       {"DATABASE_READ_URL": "mysql://x", "DATABASE_URL": "postgres://u@h/db"},
		"needs DATABASE_URL":      {"DATABASE_READ_URL": "postgres://u@h/db"},
		"REDIS_SENTINELS":         {"REDIS_SENTINELS": "10.0.0.1"},
		"READ_YOUR_WRITES_WINDOW": {"READ_YOUR_WRITES_WINDOW": "soon"},
	} {
		_, err := app.LoadConfig(func(k string) string { return bad[k] })
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v: error %v, want one naming %s", bad, err, name)
		}
	}
}
