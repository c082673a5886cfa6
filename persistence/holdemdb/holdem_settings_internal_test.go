package holdemdb

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// TestHoldemSettingsOverlay checks that settings an operator writes by hand
// keep the defaults of every field they leave out, and that bad ones are
// refused.
func TestHoldemSettingsOverlay(t *testing.T) {
	ctx := context.Background()
	db, err := sqldb.Open(ctx, sqldb.Options{SQLitePath: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	repo := New(db, ledgerdb.New(db))
	put := func(v string) {
		t.Helper()
		if err := db.Gorm().Save(&settingRow{Key: HoldemSettingsKey, Value: v, UpdatedAt: time.Now()}).Error; err != nil {
			t.Fatal(err)
		}
	}
	put(`{"minAnte": 50000, "decisionTimeoutNs": 45000000000, "bonus": {"PAIR": 8}}`)
	got, err := repo.HoldemSettings(ctx, holdem.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := holdem.DefaultConfig()
	want.MinAnte, want.DecisionTimeout, want.Bonus.Pair = 500*money.KZT, 45*time.Second, 8
	if got != want {
		t.Fatalf("settings = %+v, want %+v", got, want)
	}
	for _, bad := range []string{`{"bonus": {"PAIRS": 8}}`, `{"minAnte": -1}`, `not json`} {
		put(bad)
		if _, err := repo.HoldemSettings(ctx, holdem.DefaultConfig()); errs.CodeOf(err) != errs.Invalid {
			t.Errorf("settings %s: error %v, want Invalid", bad, err)
		}
	}
}
