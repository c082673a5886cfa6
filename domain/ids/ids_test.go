package ids_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/pokertote/pokertote/domain/ids"
)

func TestParseUserID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ids.UserID
		ok   bool
	}{
		{"7", 7, true},
		{"9223372036854775807", 9223372036854775807, true},
		{"0", 0, false},
		{"-3", 0, false},
		{"", 0, false},
		{"+7", 7, true}, // strconv.ParseInt's syntax, as before
		{" 7", 0, false},
		{"7x", 0, false},
		{"9223372036854775808", 0, false},
	} {
		got, ok := ids.ParseUserID(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseUserID(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// Every positive id survives String and ParseUserID.
func TestUserIDRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := ids.UserID(rapid.Int64Range(1, 1<<63-1).Draw(t, "id"))
		got, ok := ids.ParseUserID(u.String())
		if !ok || got != u {
			t.Fatalf("ParseUserID(%q) = %d, %v", u.String(), got, ok)
		}
	})
}
