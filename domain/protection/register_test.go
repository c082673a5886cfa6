package protection_test

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/protection"
)

func TestNameKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Ivanov  IVAN ", norm("ivan ivanov")},
		{"O'Brien-Smith, Anne", norm("anne obrien smith")},
		{"Ａｉｇｅｒｉｍ", norm("aigerim")},                  // full-width forms fold under NFKC
		{"Jose\u0301", norm("José")},                  // decomposed equals composed
		{"Әлия\tНұрланқызы", norm("нұрланқызы әлия")}, // Kazakh letters, word order
		{"\u202eevil", norm("evil")},                  // a bidi override is dropped
		{"e\u200bvil", norm("evil")},                  // so is a zero-width space
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := protection.NameKey(tc.in); got != tc.want {
				t.Fatalf("NameKey(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	if protection.NameKey("Anna Ivanova") == protection.NameKey("Anna Ivanov") {
		t.Fatal("different names share a key")
	}
}

// TestNameKeyLookAlikes: the register entry "Aigerim Nurlanqyzy" catches the
// look-alikes the issue registered anyway (issue 22).
func TestNameKeyLookAlikes(t *testing.T) {
	want := protection.NameKey("Aigerim Nurlanqyzy")
	for _, alike := range []string{
		"\u0410igerim Nurlanqyzy", // Cyrillic А
		"A\u0456gerim Nurlanqyzy", // Cyrillic і
		"A\u0131gerim Nurlanqyzy", // dotless ı
		"Aigerim-Nurlanqyzy", "Aigerim\u2010Nurlanqyzy", "AigerimNurlanqyzy", "Nurlanqyzy Aigerim",
		"AIGERIM NURLANQYZY", "  aigerim   nurlanqyzy ", "Aigerim Nurlanqyzy.",
		"\u0391igerim Nurlanqyzy",      // Greek Α
		"Nurlanqyz\u04AF A\u0456gerim", // Kazakh ү, Cyrillic і, surname first
		"Aigerim Nur\u217Canqyzy",      // Roman numeral Ⅼ (NFKC)
		"Aiger\u0456m Nurlanq\u0443zy",
	} {
		if got := protection.NameKey(alike); got != want {
			t.Errorf("NameKey(%q) = %q, want %q (the registered name's)", alike, got, want)
		}
	}
}

// lookAlikes are, per Latin letter, characters of other scripts drawn like
// it (test data, written independently of the skeleton's table).
var lookAlikes = map[rune][]rune{
	'a': {'\u0430', '\u0410', '\u03b1', '\u0391', '\uff41'},
	'e': {'\u0435', '\u0415', '\uff45'},
	'i': {'\u0456', '\u0406', '\u0131', '\u03b9', '\uff49'},
	'o': {'\u043e', '\u041e', '\u03bf', '\u039f', '\uff4f'},
	'r': {'\uff52'},
	'g': {'\uff47'},
	'n': {'\uff4e'},
	'u': {'\uff55'},
	'l': {'\uff4c'},
	'q': {'\u051b', '\uff51'},
	'y': {'\u0443', '\uff59'},
	'z': {'\uff5a'},
	'm': {'\uff4d'},
}

// FuzzNameKeyConfusables: any mix of look-alike letters, word order,
// hyphens and spaces in "Aigerim Nurlanqyzy" has its key; and NameKey is
// idempotent on anything.
func FuzzNameKeyConfusables(f *testing.F) {
	f.Add(uint64(0), uint8(0), "")
	f.Add(uint64(0xdeadbeef), uint8(3), "Иван")
	f.Add(uint64(1<<63|12345), uint8(6), "Ａ-b c\u200b")
	want := protection.NameKey("Aigerim Nurlanqyzy")
	f.Fuzz(func(t *testing.T, picks uint64, layout uint8, free string) {
		if k := protection.NameKey(free); protection.NameKey(k) != k {
			t.Fatalf("NameKey(%q) = %q, whose key is %q", free, k, protection.NameKey(k))
		}
		words := [2][]rune{[]rune("Aigerim"), []rune("Nurlanqyzy")}
		bits := picks
		for w := range words {
			for i, r := range words[w] {
				subs := lookAlikes[unicode.ToLower(r)]
				if len(subs) > 0 && bits&1 == 1 {
					words[w][i] = subs[int(bits>>1)%len(subs)]
				}
				bits = bits>>1 | bits<<63
			}
		}
		first, second := string(words[0]), string(words[1])
		sep := [...]string{" ", "-", "", "  ", " - "}[int(layout>>1)%5]
		if layout&1 == 1 && sep != "" { // run together, only in the key's order (see NameKey)
			first, second = second, first
		}
		name := first + sep + second
		if got := protection.NameKey(name); got != want {
			t.Fatalf("NameKey(%q) = %q, want %q", name, got, want)
		}
	})
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
			want: []protection.RegisterEntry{{NameKey: protection.NameKey("Ivan Ivanov"), DateOfBirth: account.MustParseDate("1980-02-29"), Note: "court"}}},
		{name: "mixed rows", in: "document_hash,name,date_of_birth\n" + hash + ",,\n,Anna,2000-01-01\n",
			want: []protection.RegisterEntry{{DocumentHash: hash}, {NameKey: protection.NameKey("Anna"), DateOfBirth: account.MustParseDate("2000-01-01")}}},
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

// TestRegisterNames is the register's match, the one definition every
// store calls on the entries it read: an entry by document names whoever
// holds the document, whatever their name; one by name needs the name key
// and the date of birth; a removed entry names nobody.
func TestRegisterNames(t *testing.T) {
	doc := strings.Repeat("ab", 32)
	dob := account.MustParseDate("1990-05-17")
	key := protection.NameKey("Ivanov Ivan")
	byDoc := protection.RegisterEntry{DocumentHash: doc}
	byName := protection.RegisterEntry{NameKey: key, DateOfBirth: dob}
	removed := byName
	removed.RemovedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	other := protection.RegisterEntry{NameKey: protection.NameKey("Petrov Pyotr"), DateOfBirth: dob}
	tests := []struct {
		name    string
		entries []protection.RegisterEntry
		docs    []string
		nameKey string
		dob     account.Date
		want    bool
	}{
		{"no entries", nil, []string{doc}, key, dob, false},
		{"by document, another name", []protection.RegisterEntry{byDoc}, []string{"x", doc}, protection.NameKey("Someone Else"), account.Date{}, true},
		{"by document, not theirs", []protection.RegisterEntry{byDoc}, []string{"x"}, key, dob, false},
		{"by name and birthday", []protection.RegisterEntry{other, byName}, nil, key, dob, true},
		{"by name, another birthday", []protection.RegisterEntry{byName}, nil, key, account.MustParseDate("1990-05-18"), false},
		{"by name, no birthday", []protection.RegisterEntry{byName}, nil, key, account.Date{}, false},
		{"same birthday, another name", []protection.RegisterEntry{other}, nil, key, dob, false},
		{"an empty name key", []protection.RegisterEntry{byDoc, other}, nil, "", dob, false},
		{"removed", []protection.RegisterEntry{removed}, []string{doc}, key, dob, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := protection.RegisterNames(tc.entries, tc.docs, tc.nameKey, tc.dob); got != tc.want {
				t.Fatalf("RegisterNames = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRegisterCatchesSpellingsOfOneName: an entry "Aigerim Nurlanqyzy"
// names the person who registers as a look-alike (a capital I for the l, a
// combining dot), or in Cyrillic (with Kazakh letters or Russian ones), or
// in another Latin transliteration, or with the words swapped; not a
// different person born the same day.
func TestRegisterCatchesSpellingsOfOneName(t *testing.T) {
	dob := account.MustParseDate("1995-03-08")
	entry := protection.RegisterEntry{NameKey: protection.NameKey("Aigerim Nurlanqyzy"), DateOfBirth: dob}
	for _, name := range []string{
		"Aigerim NurIanqyzy", "Aigerim Nurl\u0307anqyzy", "Ai\u0307gerim Nurlanqyzy",
		"Айгерим Нұрланқызы", "Айгерим Нурланкызы", "Нурланкызы Айгерим", "Aygerim Nurlankyzy", "AIGERIM NURLANQYZY",
	} {
		if !protection.RegisterNames([]protection.RegisterEntry{entry}, nil, protection.NameKey(name), dob) {
			t.Errorf("%q passed the entry %q", name, "Aigerim Nurlanqyzy")
		}
	}
	for _, pair := range [][2]string{
		{"Иван Иванов", "Ivan Ivanov"}, {"Жанна Шаймерденова", "Zhanna Shaimerdenova"}, {"Хан Ким", "Kim Khan"}, {"Әлия Өмірбек", "Aliya Omirbek"},
	} {
		e := protection.RegisterEntry{NameKey: protection.NameKey(pair[0]), DateOfBirth: dob}
		if !protection.RegisterNames([]protection.RegisterEntry{e}, nil, protection.NameKey(pair[1]), dob) {
			t.Errorf("%q and %q are one person", pair[0], pair[1])
		}
	}
	for _, name := range []string{"Dana Bekova", "Aigerim Serikqyzy", "Айгерим Сериккызы", "Nurlan Aigerimov"} {
		if protection.RegisterNames([]protection.RegisterEntry{entry}, nil, protection.NameKey(name), dob) {
			t.Errorf("%q, another person born the same day, matched %q", name, "Aigerim Nurlanqyzy")
		}
	}
}
