package testenv

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestIsStale(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	old := now.Add(-staleAfter - time.Minute).Unix()
	recent := now.Add(-time.Minute).Unix()
	for name, want := range map[string]bool{
		templatePrefix + itoa(old) + "_ab12":    true,
		testDBPrefix + itoa(old) + "_ab12":      true,
		templatePrefix + itoa(recent) + "_ab12": false,
		testDBPrefix + itoa(recent) + "_ab12":   false,
		testDBPrefix + "0a1b2c3d4e5f":           false, // an older helper's name, no time
		"pokertote_other_" + itoa(old) + "_x":   false,
		"test":                                  false,
	} {
		if got := isStale(name, now); got != want {
			t.Errorf("isStale(%q) = %v, want %v", name, got, want)
		}
	}
	if n := newDBName(testDBPrefix); !strings.HasPrefix(n, testDBPrefix) || isStale(n, time.Now()) || !isStale(n, time.Now().Add(staleAfter+time.Minute)) {
		t.Errorf("a new name %q is not dated now", n)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
