package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/internal/marketschema"
)

var webSrc = filepath.Join("..", "..", "web", "src")

// TestGeneratedIsCurrent: web/src/markets.gen.ts is what the registry
// generates today.
func TestGeneratedIsCurrent(t *testing.T) {
	got, err := os.ReadFile(filepath.Join(webSrc, "markets.gen.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if want := Generate(parimutuel.Production()); !bytes.Equal(got, want) {
		t.Fatalf("web/src/markets.gen.ts is stale: run go generate ./cmd/gen-markets\nwant:\n%s", want)
	}
}

// TestGenerateFollowsRegistry: a market added to a registry is a line of
// the generated module.
func TestGenerateFollowsRegistry(t *testing.T) {
	win, _ := parimutuel.Production().Lookup(parimutuel.MarketWin)
	place := win
	place.Name, place.Input, place.About, place.Rounds = "PLACE", "place", "it's placed", parimutuel.RoundsOf(parimutuel.RoundFlop, parimutuel.RoundTurn)
	reg, err := parimutuel.NewRegistry(append(parimutuel.Production().Specs(), place)...)
	if err != nil {
		t.Fatal(err)
	}
	want := `  { name: 'PLACE', about: 'it\'s placed', rounds: [3, 4], shape: 'POSITION', listed: true, scheme: 'SINGLE', reads: ['WINNERS'] },` + "\n] as const"
	if got := string(Generate(reg)); !strings.Contains(got, want) {
		t.Fatalf("generated:\n%s\nwant a line\n%s", got, want)
	}
	if want, got := "  PLACE: 'place',\n} as const", string(Generate(reg)); !strings.Contains(got, want) {
		t.Fatalf("generated:\n%s\nwant its input field\n%s", got, want)
	}
}

// TestMarketsHaveTexts: every market of the registry has its name and its
// rule (r.name, what wins) in Russian, Kazakh and English in
// web/src/i18n.ts.
func TestMarketsHaveTexts(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(webSrc, "i18n.ts"))
	if err != nil {
		t.Fatal(err)
	}
	texts := i18nTexts(t, string(src))
	if len(texts) < 100 || !slices.Equal(texts["WIN"], []string{"Winner", "Победитель", "Жеңімпаз"}) || len(texts["r.express"]) != 3 {
		t.Fatalf("read %d texts of web/src/i18n.ts, WIN %q, r.express %q", len(texts), texts["WIN"], texts["r.express"])
	}
	for _, m := range parimutuel.Production().Markets() {
		for _, key := range []string{string(m), "r." + strings.ToLower(string(m))} {
			tr, ok := texts[key]
			if !ok {
				t.Errorf("market %s: web/src/i18n.ts has no %q", m, key)
				continue
			}
			for i, lang := range []string{"en", "ru", "kk"} {
				if i >= len(tr) || strings.TrimSpace(tr[i]) == "" {
					t.Errorf("market %s: %q has no %s text", m, key, lang)
				}
			}
		}
	}
}

// entryStart finds an entry of i18n.ts's table: `KEY: [` or `'key.x': [`.
var entryStart = regexp.MustCompile(`(?m)^\s*(?:'([^']+)'|([A-Za-z_][A-Za-z0-9_]*)):\s*\[`)

// i18nTexts reads every entry of i18n.ts's table: its key and its string
// literals ([English, Russian, Kazakh]).
func i18nTexts(t *testing.T, src string) map[string][]string {
	out := map[string][]string{}
	for _, m := range entryStart.FindAllStringSubmatchIndex(src, -1) {
		var key string
		if m[2] >= 0 {
			key = src[m[2]:m[3]]
		} else {
			key = src[m[4]:m[5]]
		}
		var lits []string
		i := m[1]
	scan:
		for i < len(src) {
			switch c := src[i]; c {
			case ' ', '\t', '\n', '\r', ',':
				i++
			case '\'', '"', '`':
				s, n, ok := literal(src[i:])
				if !ok {
					t.Fatalf("i18n.ts: entry %s: an unterminated string", key)
				}
				lits, i = append(lits, s), i+n
			default:
				break scan // "]", or an expression: not a text entry
			}
		}
		if src[i] == ']' && len(lits) > 0 {
			out[key] = lits
		}
	}
	return out
}

// literal reads the quoted string s starts with: its value and length.
func literal(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == q:
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// TestGeneratedGraphQLIsCurrent: graph/schema/markets.gen.graphqls is
// what the registry generates today.
func TestGeneratedGraphQLIsCurrent(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "..", "graph", "schema", "markets.gen.graphqls"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := marketschema.GraphQL(parimutuel.Production())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("graph/schema/markets.gen.graphqls is stale: run go generate ./cmd/gen-markets ./graph\nwant:\n%s", want)
	}
}
