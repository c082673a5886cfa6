package protection

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
)

// RegisterEntry is one person in the exclusion register: known by the keyed
// hash of a document number (the same peppered hash the age verification
// keeps, account.HashDocumentNumber), or by name and date of birth.
type RegisterEntry struct {
	ID int64
	// DocumentHash is the hex HMAC of the normalized document number, or "".
	DocumentHash string
	// NameKey is NameKey(name), or "" when the entry is by document.
	NameKey     string
	DateOfBirth account.Date
	Note        string
	AddedBy     int64
	AddedAt     time.Time
	// RemovedAt is zero while the entry is in force.
	RemovedAt time.Time
	RemovedBy int64
}

// Active reports whether the entry is in force.
func (e RegisterEntry) Active() bool { return e.RemovedAt.IsZero() }

// RegisterNames reports whether one of entries names the person with the
// document hashes docs, name key nameKey (NameKey of their name) and date
// of birth dob: the one definition of the register's match.
// A store reads the entries that may name the person (its candidates: the
// active entries by one of docs or with dob, or simply all of them) and
// calls it; an entry that does not name the person changes nothing, so a
// store may read more than it needs, never less.
func RegisterNames(entries []RegisterEntry, docs []string, nameKey string, dob account.Date) bool {
	for _, e := range entries {
		if e.Matches(docs, nameKey, dob) {
			return true
		}
	}
	return false
}

// Matches reports whether the entry names the person with one of the
// document hashes docs, or name key and date of birth (an entry in force
// only; RegisterNames applies it to a register).
func (e RegisterEntry) Matches(docs []string, nameKey string, dob account.Date) bool {
	if !e.Active() {
		return false
	}
	if e.DocumentHash != "" {
		for _, d := range docs {
			if d == e.DocumentHash {
				return true
			}
		}
		return false
	}
	if e.NameKey == "" || nameKey == "" || e.DateOfBirth != dob {
		return false
	}
	return e.NameKey == nameKey || looseKey(e.NameKey) == looseKey(nameKey)
}

// Limits of the register's input.
const (
	MaxRegisterRows = 100_000
	maxNoteLen      = 500
)

// NameKey is the form names are compared in, made so that a look-alike of
// a registered name has its key: NFKC (compatibility forms,
// composed and decomposed letters agree) and lower case; words split at
// spaces and dashes; in each word the Unicode TR 39 confusable skeleton
// (confusables.Skeleton: Cyrillic "А" and "і", dotless "ı", Greek "ο" read
// as their Latin twins), lower-cased and skeletonised again until stable,
// keeping only letters, digits and marks (punctuation, apostrophes,
// control, bidi and zero-width characters dropped); then the words sorted
// and joined with nothing between them, so that word order, a hyphen and a
// missing space do not matter. "Ivanov Ivan", "ivan-IVANOV" and
// "IvanIvanov" share a key ("IvanovIvan", run together in the other
// order, does not: one word is not split). NameKey(NameKey(x)) ==
// NameKey(x).
func NameKey(name string) string {
	k := nameKeyPass(name)
	for range 4 { // a skeleton may hold compatibility forms ("º"), which fold again
		next := nameKeyPass(k)
		if next == k {
			break
		}
		k = next
	}
	return k
}

func nameKeyPass(name string) string {
	s := strings.ToLower(norm.NFKC.String(name))
	words := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Pd, r) })
	keys := make([]string, 0, len(words))
	for _, w := range words {
		if k := wordSkeleton(w); k != "" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, "")
}

// wordSkeleton is one word's skeleton, lower case, letters, digits and
// marks only, in NFC. Case is folded first, as TR 39 says for
// case-insensitive comparison (so a capital drawn like a Latin capital
// whose lower case is not, as Greek "Ε" and "ε", is not caught).
func wordSkeleton(w string) string {
	for range 4 { // a skeleton's lower case may map again ("0" -> "O" -> "o")
		next := confusables.Skeleton(strings.ToLower(w))
		if next == w {
			break
		}
		w = next
	}
	var b strings.Builder
	for _, r := range w {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// NewRegisterEntry checks and normalizes an entry an admin enters: either a
// 64-hex-digit document hash, or a name and a valid date of birth.
func NewRegisterEntry(docHash, name string, dob account.Date, note string) (RegisterEntry, error) {
	bad := func(format string, a ...any) (RegisterEntry, error) {
		return RegisterEntry{}, errs.R(errs.Invalid, ReasonInvalidRegister, format, a...)
	}
	note = strings.TrimSpace(note)
	if len(note) > maxNoteLen || !utf8.ValidString(note) {
		return bad("a note has at most %d bytes", maxNoteLen)
	}
	docHash = strings.ToLower(strings.TrimSpace(docHash))
	name = strings.TrimSpace(name)
	switch {
	case docHash != "" && (name != "" || !dob.IsZero()):
		return bad("an entry names a document hash or a name with a date of birth, not both")
	case docHash != "":
		if !isHex64(docHash) {
			return bad("a document hash is 64 hexadecimal digits")
		}
		return RegisterEntry{DocumentHash: docHash, Note: note}, nil
	}
	key := NameKey(name)
	if key == "" || len(key) > 4*account.MaxNameLen {
		return bad("an entry needs a document hash, or a name and a date of birth")
	}
	if !dob.Valid() {
		return bad("an entry by name needs a valid date of birth")
	}
	return RegisterEntry{NameKey: key, DateOfBirth: dob, Note: note}, nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ParseRegisterCSV reads a register file: RFC 4180 CSV in UTF-8 with a
// header naming its columns among document_hash, name, date_of_birth
// (YYYY-MM-DD) and note, in any order; each row is one entry by document
// hash or by name and date of birth (see NewRegisterEntry). Blank rows are
// skipped; at most MaxRegisterRows entries. An error names the line.
func ParseRegisterCSV(r io.Reader) ([]RegisterEntry, error) {
	bad := func(format string, a ...any) ([]RegisterEntry, error) {
		return nil, errs.R(errs.Invalid, ReasonInvalidRegister, format, a...)
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return bad("the file needs a header line (document_hash, name, date_of_birth, note)")
	}
	col, err := registerColumns(header)
	if err != nil {
		return nil, err
	}
	var out []RegisterEntry
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return bad("%s", csvProblem(err))
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue
			}
			return bad("line %d: %d fields where the header has %d", line, len(rec), len(header))
		}
		field := func(name string) string {
			if i, ok := col[name]; ok {
				return rec[i]
			}
			return ""
		}
		var dob account.Date
		if s := strings.TrimSpace(field("date_of_birth")); s != "" {
			if dob, err = account.ParseDate(s); err != nil {
				return bad("line %d: %s", line, messageOf(err))
			}
		}
		e, err := NewRegisterEntry(field("document_hash"), field("name"), dob, field("note"))
		if err != nil {
			return bad("line %d: %s", line, messageOf(err))
		}
		if len(out) == MaxRegisterRows {
			return bad("the file has more than %d entries", MaxRegisterRows)
		}
		out = append(out, e)
	}
}

// registerColumns maps the columns a register file's header names onto
// their places, refusing an unknown or repeated column and a header that
// identifies no one (no document_hash, nor name and date_of_birth).
func registerColumns(header []string) (map[string]int, error) {
	bad := func(format string, a ...any) (map[string]int, error) {
		return nil, errs.R(errs.Invalid, ReasonInvalidRegister, format, a...)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		switch h {
		case "document_hash", "name", "date_of_birth", "note":
		default:
			return bad("unknown column %q in the header", truncate(h, 40))
		}
		if _, dup := col[h]; dup {
			return bad("column %q appears twice in the header", h)
		}
		col[h] = i
	}
	_, hasDoc := col["document_hash"]
	_, hasName := col["name"]
	_, hasDOB := col["date_of_birth"]
	if !hasDoc && !(hasName && hasDOB) {
		return bad("the header needs document_hash, or name and date_of_birth")
	}
	return col, nil
}

func csvProblem(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: not valid CSV (%v)", pe.Line, pe.Err)
	}
	return "the file could not be read"
}

// RegisterDetail is the audit detail of an added or removed register entry:
// its id, what it matches on (a document hash's first 12 characters, or the
// name key and birth date) and how, cut to a note's length.
func RegisterDetail(e RegisterEntry, how string) string {
	what := "document " + e.DocumentHash[:min(12, len(e.DocumentHash))]
	if e.DocumentHash == "" {
		what = "name " + e.NameKey + " born " + e.DateOfBirth.String()
	}
	return truncate("entry "+strconv.FormatInt(e.ID, 10)+" ("+what+"): "+how, maxNoteLen)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func messageOf(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "invalid"
}
