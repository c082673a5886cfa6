package app

import (
	"bytes"
	"math"
	"testing"
)

// FuzzPoolSignal: whatever the broker delivers on the pools topic, the
// reader accepts exactly what the writer writes: an accepted message reads
// back to ids that write the same bytes, and any two positive ids make a
// message that reads back to them.
func FuzzPoolSignal(f *testing.F) {
	for _, s := range []string{"1:2", "12:345", "0:1", "1:0", "-1:2", "+1:2", "01:2", "1:2 ", " 1:2", "1:2:3", ":", "", "1:",
		"9223372036854775807:1", "9223372036854775808:1", "1:2junk"} {
		f.Add([]byte(s), int64(7), int64(9))
	}
	f.Fuzz(func(t *testing.T, msg []byte, table, draw int64) {
		if tb, dr, err := parsePoolSignal(msg); err == nil {
			if tb <= 0 || dr <= 0 {
				t.Fatalf("%q read as %d:%d, ids are positive", msg, tb, dr)
			}
			if back := appendPoolSignal(nil, tb, dr); !bytes.Equal(back, msg) {
				t.Fatalf("%q read as %d:%d, which writes %q", msg, tb, dr, back)
			}
		}
		table, draw = max(1, table&math.MaxInt64), max(1, draw&math.MaxInt64)
		msg = appendPoolSignal(nil, table, draw)
		tb, dr, err := parsePoolSignal(msg)
		if err != nil || tb != table || dr != draw {
			t.Fatalf("%d:%d written as %q read back as %d:%d (%v)", table, draw, msg, tb, dr, err)
		}
	})
}

// The reader refuses what Sscanf("%d:%d") used to let through.
func TestPoolSignalRefusesNonCanonical(t *testing.T) {
	for _, s := range []string{"0:1", "1:0", "-1:2", "+1:2", "01:2", "1:2 ", " 1:2", "1:2:3", "1:2junk", "9223372036854775808:1", ""} {
		if tb, dr, err := parsePoolSignal([]byte(s)); err == nil {
			t.Errorf("%q read as %d:%d", s, tb, dr)
		}
	}
	if tb, dr, err := parsePoolSignal([]byte("12:345")); err != nil || tb != 12 || dr != 345 {
		t.Errorf("12:345 read as %d:%d (%v)", tb, dr, err)
	}
}
