package account_test

import (
	"bytes"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

func TestNormalizeDocumentNumber(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"N12345678", "N12345678"},
		{"n 1234-5678", "N12345678"},
		{" ab-12 34\t5 ", "AB12345"},
		{"123456789012", "123456789012"},
		{"1234", ""},
		{"", ""},
		{"--  --", ""},
		{"N1234567_8", ""},
		{"Н12345678", ""}, // Cyrillic Н
		{"N１２３４５", ""},
		{"123456789012345678901234567890123", ""},
	}
	for _, tc := range tests {
		got, err := account.NormalizeDocumentNumber(tc.in)
		if tc.want == "" {
			if errs.ReasonOf(err) != "INVALID_DOCUMENT_NUMBER" {
				t.Errorf("NormalizeDocumentNumber(%q) = %q, %v; want INVALID_DOCUMENT_NUMBER", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("NormalizeDocumentNumber(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestHashDocumentNumber(t *testing.T) {
	pepper := bytes.Repeat([]byte{7}, 32)
	a, err := account.HashDocumentNumber(pepper, "n 1234-5678")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := account.HashDocumentNumber(pepper, "N12345678")
	if a != b || len(a) != 64 {
		t.Fatalf("hashes of one document differ or are not hex SHA-256: %q %q", a, b)
	}
	if bytes.Contains([]byte(a), []byte("12345678")) {
		t.Fatal("hash contains the number")
	}
	other, _ := account.HashDocumentNumber(bytes.Repeat([]byte{8}, 32), "N12345678")
	if other == a {
		t.Fatal("hash does not depend on the pepper")
	}
	if _, err := account.HashDocumentNumber(pepper[:31], "N12345678"); err == nil {
		t.Fatal("short pepper accepted")
	}
}

func TestRejectionOfReadsCodesAndFreeText(t *testing.T) {
	for _, c := range account.RejectionCodes {
		if got := account.RejectionOf(account.Verification{Status: account.Rejected, Reason: string(c)}); got != c {
			t.Fatalf("reason %q read as %q", c, got)
		}
	}
	if got := account.RejectionOf(account.Verification{Status: account.Rejected, Reason: "blurred photo, please retake"}); got != account.RejectOther {
		t.Fatalf("free text read as %q", got)
	}
	if got := account.RejectionOf(account.Verification{Status: account.Approved, Reason: string(account.RejectExpired)}); got != "" {
		t.Fatalf("an approved verification read as rejected for %q", got)
	}
}
