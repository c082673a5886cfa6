package account_test

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

func TestNormalizeEmail(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"player@example.kz", "player@example.kz"},
		{"  Player.One+tote@Example.KZ ", "player.one+tote@example.kz"},
		{"a@b", "a@b"},
		{"", ""},
		{"   ", ""},
		{"no-at-sign", ""},
		{"@example.kz", ""},
		{"player@", ""},
		{"Player <player@example.kz>", ""},
		{"<player@example.kz>", ""},
		{"two@@example.kz", ""},
		{"a b@example.kz", ""},
		{"player@example.kz, other@example.kz", ""},
		{strings.Repeat("a", 250) + "@b.kz", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := account.NormalizeEmail(tc.in)
			if tc.want == "" {
				if err == nil || errs.ReasonOf(err) != "INVALID_EMAIL" {
					t.Fatalf("NormalizeEmail(%q) = %q, %v; want INVALID_EMAIL", tc.in, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("NormalizeEmail(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestValidatePassword(t *testing.T) {
	tests := []struct {
		name string
		pw   string
		ok   bool
	}{
		{"empty", "", false},
		{"nine", "123456789", false},
		{"ten", "1234567890", true},
		{"ten multibyte runes", "пароль1234", true},
		{"nine multibyte runes", "парольабв", false},
		{"max", strings.Repeat("x", 256), true},
		{"too long", strings.Repeat("x", 257), false},
		{"invalid utf8", "abcdefghij\xff", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := account.ValidatePassword(tc.pw)
			if tc.ok != (err == nil) {
				t.Fatalf("ValidatePassword = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && errs.ReasonOf(err) != "INVALID_PASSWORD" {
				t.Fatalf("reason %q", errs.ReasonOf(err))
			}
		})
	}
}

func TestNormalizeName(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Айгерим", "Айгерим", true},
		{"  Bob  ", "Bob", true},
		{"", "", false},
		{"   ", "", false},
		{strings.Repeat("я", 100), strings.Repeat("я", 100), true},
		{strings.Repeat("я", 101), "", false},
		{"Bob\x00", "", false},
		{"Bo\nb", "", false},
		{"\xff", "", false},
	}
	for _, tc := range tests {
		got, err := account.NormalizeName(tc.in)
		if tc.ok != (err == nil) || got != tc.want {
			t.Errorf("NormalizeName(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
