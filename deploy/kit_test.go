package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/internal/testenv"
)

// TestReplicaUnitIsHardened scores the replica's unit with systemd's own
// offline security analysis (exposure 0 = locked down, 10 = none) and
// checks the promises docs/operations.md makes of it.
func TestReplicaUnitIsHardened(t *testing.T) {
	bin, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if testenv.Required() {
			t.Fatalf("systemd-analyze is not installed (%v): `sudo apt-get install -y systemd`, or set %s=1 to skip", err, testenv.SkipEnv)
		}
		t.Skipf("systemd-analyze is not installed (%v); skipping (%s=1)", err, testenv.SkipEnv)
	}
	unit, err := os.ReadFile("systemd/pokertote@.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"User=pokertote", "NoNewPrivileges=yes", "ProtectSystem=strict", "StateDirectory=pokertote",
		"CapabilityBoundingSet=\n", "PrivateTmp=yes", "ProtectHome=yes", "KillSignal=SIGTERM",
	} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("pokertote@.service lacks %q", strings.TrimSpace(want))
		}
	}
	path := filepath.Join(t.TempDir(), "pokertote@8081.service")
	if err := os.WriteFile(path, unit, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "security", "--offline=yes", "--no-pager", path).CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze security: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`Overall exposure level for pokertote@8081\.service: ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no exposure level in:\n%s", out)
	}
	level, _ := strconv.ParseFloat(string(m[1]), 64)
	if level > 2.0 {
		t.Errorf("exposure level %.1f, want 2.0 or less (OK):\n%s", level, out)
	}
	if strings.Contains(string(out), "Unknown key") || strings.Contains(string(out), "Unknown section") {
		t.Errorf("systemd does not know a setting of the unit:\n%s", out)
	}
	t.Logf("exposure level %.1f", level)
}
