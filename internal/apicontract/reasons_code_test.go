package apicontract

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

var (
	// A reason constant with its name: ReasonX = "X".
	namedReason = regexp.MustCompile(`\b(Reason[A-Za-z0-9]*)\s*(?:string\s*)?=\s*"([A-Z][A-Z0-9_]+)"`)
	// An error built with a code and a reason: errs.R(errs.Code, <reason>,
	// where <reason> is a literal or a (qualified) Reason constant.
	builtError = regexp.MustCompile(`errs\.R\(errs\.([A-Za-z]+),\s*(?:"([A-Z][A-Z0-9_]+)"|(?:[a-z]+\.)?(Reason[A-Za-z0-9]*))`)
	// A row of the error table: | CODE | `R1`, `R2` | ...
	docRow = regexp.MustCompile("(?m)^\\| ([A-Z_]+) \\| ((?:`[A-Z][A-Z0-9_]+`(?:, )?)+) \\|")
	codeOf = map[string]errs.Code{
		"Invalid": errs.Invalid, "NotFound": errs.NotFound, "Conflict": errs.Conflict, "Unauthenticated": errs.Unauthenticated,
		"Forbidden": errs.Forbidden, "Internal": errs.Internal, "Unavailable": errs.Unavailable,
	}
)

// serverCodes reads, for every reason the Go code gives an error through
// errs.R with a literal or a named constant, the codes it is given with.
func serverCodes(t *testing.T) map[string]map[errs.Code]bool {
	t.Helper()
	var sources [][]byte
	values := map[string][]string{} // constant name -> its values (names repeat across packages)
	err := walkGoSources(func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sources = append(sources, b)
		for _, m := range namedReason.FindAllSubmatch(b, -1) {
			values[string(m[1])] = append(values[string(m[1])], string(m[2]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[errs.Code]bool{}
	add := func(reason string, c errs.Code) {
		if out[reason] == nil {
			out[reason] = map[errs.Code]bool{}
		}
		out[reason][c] = true
	}
	for _, b := range sources {
		for _, m := range builtError.FindAllSubmatch(b, -1) {
			c, ok := codeOf[string(m[1])]
			if !ok {
				continue
			}
			if len(m[2]) > 0 {
				add(string(m[2]), c)
				continue
			}
			// A name may mean different values in different packages: an
			// ambiguous one is left out rather than guessed.
			if vs := values[string(m[3])]; len(vs) == 1 {
				add(vs[0], c)
			}
		}
	}
	// Reasons built from a value rather than a constant.
	for _, k := range protection.LimitKinds {
		add(errs.ReasonOf(protection.LimitError(k, protection.Day, money.KZT, 0)), errs.CodeOf(protection.LimitError(k, protection.Day, money.KZT, 0)))
	}
	return out
}

// TestReasonRowsNameTheirCode: every row of docs/frontend.md's error table
// gives, for each of its reasons, a code the server really gives that
// reason with (not only a reason's name somewhere on the page): a client
// that switches on the code as documented meets the errors the server
// sends. Reasons the scan cannot tie to a code (built by other means) are
// counted and must stay few.
func TestReasonRowsNameTheirCode(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs/frontend.md"))
	if err != nil {
		t.Fatal(err)
	}
	codes := serverCodes(t)
	checked, unknown := 0, 0
	var wrong []string
	for _, m := range docRow.FindAllStringSubmatch(string(doc), -1) {
		code := errs.Code(m[1])
		for _, r := range strings.Split(m[2], ", ") {
			r = strings.Trim(r, "`")
			got, ok := codes[r]
			if !ok {
				unknown++
				continue
			}
			checked++
			if !got[code] {
				var gave []string
				for c := range got {
					gave = append(gave, string(c))
				}
				sort.Strings(gave)
				wrong = append(wrong, r+": the docs say "+string(code)+", the server gives "+strings.Join(gave, " or "))
			}
		}
	}
	if len(wrong) > 0 {
		t.Errorf("docs/frontend.md's error table names the wrong code for %d reasons:\n  %s", len(wrong), strings.Join(wrong, "\n  "))
	}
	if checked < 100 {
		t.Errorf("only %d documented reasons were tied to a code (%d were not): the scan is broken", checked, unknown)
	}
	t.Logf("%d documented reasons checked against the code, %d built by other means", checked, unknown)
}
