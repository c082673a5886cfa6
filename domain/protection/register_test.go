package protection_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/protection"
)

func TestNameKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Ivanov  IVAN ", "ivanov ivan"},
		{"O'Brien-Smith, Anne", "o'brien-smith anne"},
		{"Ａｉｇｅｒｉｍ", "aigerim"},                  // full-width forms fold under NFKC
		{"Jose\u0301", norm("José")},            // decomposed equals composed
		{"Әлия\tНұрланқызы", "әлия нұрланқызы"}, // Kazakh letters kept
		{"\u202eevil", "evil"},                  // a bidi override is dropped
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := protection.NameKey(tc.in); got != tc.want {
				t.Fatalf("NameKey(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func norm(s string) string { return protection.NameKey(s) }

func TestParseRegisterCSV(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	tests := []struct {
		name, in string
		want     []protection.RegisterEntry
		bad      string // part of the error message; "" when the file is good
	}{
		{name: "documents", in: "document_hash\n" + hash + "\n" + strings.ToUpper(hash) + "\n",
			want: []protection.RegisterEntry{{DocumentHash: hash}, {DocumentHash: hash}}},
		{name: "names with BOM and note", in: "\ufeffname,date_of_birth,note\r\n\"Ivanov, Ivan\",1980-02-29,court\r\n\r\n",
			want: []protection.RegisterEntry{{NameKey: "ivanov ivan", DateOfBirth: account.MustParseDate("1980-02-29"), Note: "court"}}},
		{name: "mixed rows", in: "document_hash,name,date_of_birth\n" + hash + ",,\n,Anna,2000-01-01\n",
			want: []protection.RegisterEntry{{DocumentHash: hash}, {NameKey: "anna", DateOfBirth: account.MustParseDate("2000-01-01")}}},
		{name: "empty", in: "", bad: "header"},
		{name: "unknown column", in: "iin\n123\n", bad: "unknown column"},
		{name: "duplicate column", in: "name,name,date_of_birth\n", bad: "twice"},
		{name: "name without birth date column", in: "name\nAnna\n", bad: "header needs"},
		{name: "short hash", in: "document_hash\nabc\n", bad: "line 2"},
		{name: "both keys", in: "document_hash,name,date_of_birth\n" + hash + ",Anna,2000-01-01\n", bad: "not both"},
		{name: "bad date", in: "name,date_of_birth\nAnna,2001-02-29\n", bad: "line 2"},
		{name: "name without date", in: "name,date_of_birth\nAnna,\n", bad: "date of birth"},
		{name: "ragged row", in: "name,date_of_birth\nAnna\n", bad: "line 2"},
		{name: "bad quoting", in: "name,date_of_birth\n\"Anna,2000-01-01\n", bad: "not valid CSV"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := protection.ParseRegisterCSV(strings.NewReader(tc.in))
			if tc.bad != "" {
				if errs.ReasonOf(err) != protection.ReasonInvalidRegister || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("error = %v, want INVALID_REGISTER_ENTRY mentioning %q", err, tc.bad)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseRegisterCSV: %v", err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d entries %+v, want %+v", len(got), got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("entry %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// FuzzParseRegisterCSV: any input either parses into valid, normalized
// entries (each by exactly one key, re-parsable as an entry) or fails with
// the stable reason; it never panics.
func FuzzParseRegisterCSV(f *testing.F) {
	f.Add([]byte("document_hash\n" + strings.Repeat("0f", 32) + "\n"))
	f.Add([]byte("name,date_of_birth,note\nIvanov Ivan,1990-05-17,x\n"))
	f.Add([]byte("name,date_of_birth\n\"a\"\"b\",1990-05-17\n"))
	f.Add([]byte("\ufeffnote,date_of_birth,name,document_hash\n,,,\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		entries, err := protection.ParseRegisterCSV(bytes.NewReader(in))
		if err != nil {
			if errs.ReasonOf(err) != protection.ReasonInvalidRegister {
				t.Fatalf("error without the stable reason: %v", err)
			}
			return
		}
		for _, e := range entries {
			if (e.DocumentHash == "") == (e.NameKey == "") {
				t.Fatalf("entry %+v has not exactly one key", e)
			}
			if e.NameKey != "" && (!e.DateOfBirth.Valid() || protection.NameKey(e.NameKey) != e.NameKey) {
				t.Fatalf("entry %+v: name key not normalized or date invalid", e)
			}
			again, err := protection.NewRegisterEntry(e.DocumentHash, e.NameKey, e.DateOfBirth, e.Note)
			if err != nil || again != e {
				t.Fatalf("entry %+v does not survive re-entry: %+v, %v", e, again, err)
			}
		}
	})
}
