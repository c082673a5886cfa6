package sqldb_test

import (
	"bytes"
	"context"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

func TestSettingRisks(t *testing.T) {
	safe := map[string]string{"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on", "autovacuum": "on"}
	if got := sqldb.SettingRisks(safe); len(got) != 0 {
		t.Fatalf("safe settings judged risky: %v", got)
	}
	// synchronous_commit's other values (local, remote_write...) keep a
	// commit durable on the primary; only off does not.
	local := map[string]string{"synchronous_commit": "local", "autovacuum": "off", "fsync": "off"}
	var names []string
	for _, r := range sqldb.SettingRisks(local) {
		if r.Risk == "" {
			t.Errorf("%s: no risk told", r.Name)
		}
		names = append(names, r.Name+"="+r.Value)
	}
	if want := []string{"fsync=off", "autovacuum=off"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("risks %v, want %v", names, want)
	}
}

// On the real server, Open reads every setting it judges and warns about
// exactly the risky ones it has.
func TestServerSettingsWarned(t *testing.T) {
	ctx := context.Background()
	var logged bytes.Buffer
	db, err := sqldb.Open(ctx, sqldb.Options{DatabaseURL: testenv.Postgres(t), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	settings, err := db.ServerSettings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fsync", "synchronous_commit", "full_page_writes", "autovacuum"} {
		if settings[name] == "" {
			t.Errorf("setting %s not read: %v", name, settings)
		}
	}
	risks := sqldb.SettingRisks(settings)
	if got := strings.Count(logged.String(), "risky setting"); got != len(risks) {
		t.Fatalf("%d warnings logged for %d risky settings %v:\n%s", got, len(risks), risks, logged.String())
	}
	for _, r := range risks {
		if !strings.Contains(logged.String(), "setting="+r.Name) {
			t.Errorf("no warning for %s:\n%s", r.Name, logged.String())
		}
	}
}
