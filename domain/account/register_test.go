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
		{"a@b.kz", "a@b.kz"},
		{"a@b", ""},
		{"a@b.k", ""},
		{"a@b.123", ""},
		{"a@xn--80ao21a.xn--p1ai", "a@xn--80ao21a.xn--p1ai"},
		{"a@[127.0.0.1]", ""},
		{"a@-b.kz", ""},
		{"a@b-.kz", ""},
		{"a@b..kz", ""},
		{".a@b.kz", ""},
		{"a.@b.kz", ""},
		{"a..b@b.kz", ""},
		{`"a b"@b.kz`, ""},
		{"айгерим@mail.kz", ""},
		{"a@mаil.kz", ""}, // Cyrillic а
		{strings.Repeat("a", 65) + "@b.kz", ""},
		{"a\u200b@b.kz", ""},
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
		{"Jose\u0301", "Jos\u00e9", true}, // NFC
		{"Bob\u202eevil", "", false},      // right-to-left override
		{"Bo\u2066b\u2069", "", false},    // isolate
		{"Bo\u200bb", "", false},          // zero-width space
		{"Bo\u200db", "", false},          // zero-width joiner
		{"\ufeffBob", "", false},          // BOM
		{"\u3164", "", false},             // Hangul filler
		{"Әлия Нұрланқызы", "Әлия Нұрланқызы", true}, // Kazakh letters
	}
	for _, tc := range tests {
		got, err := account.NormalizeName(tc.in)
		if tc.ok != (err == nil) || got != tc.want {
			t.Errorf("NormalizeName(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestEmailSkeleton(t *testing.T) {
	same := [][2]string{
		{"admin@pokertote.kz", "adrnin@pokertote.kz"},
		{"admin@pokertote.kz", "admln@pokertote.kz"},
		{"admin@pokertote.kz", "adm1n@pokertote.kz"},
		{"admin@pokertote.kz", "ad.min@pokertote.kz"},
		{"boss@pokertote.kz", "b0ss@pokertote.kz"},
		{"admin@pokertote.kz", "admin@pokert0te.kz"},
		{"wall@x.kz", "vvall@x.kz"},
	}
	for _, p := range same {
		if account.EmailSkeleton(p[0]) != account.EmailSkeleton(p[1]) {
			t.Errorf("%s and %s should look alike", p[0], p[1])
		}
	}
	if account.EmailSkeleton("admin@pokertote.kz") == account.EmailSkeleton("adman@pokertote.kz") {
		t.Error("admin and adman are not look-alikes")
	}
}
