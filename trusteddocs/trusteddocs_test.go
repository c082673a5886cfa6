package trusteddocs_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pokertote/pokertote/trusteddocs"
)

func TestLoad(t *testing.T) {
	const q = "query A { tables { id } }"
	id := trusteddocs.ID(q)
	if !strings.HasPrefix(id, "sha256:") || len(id) != len("sha256:")+64 {
		t.Fatalf("ID = %q", id)
	}
	m, err := trusteddocs.Load(fstest.MapFS{
		"web.json": {Data: []byte(`{"` + id + `": "query A { tables { id } }"}`)},
		"ios.json": {Data: []byte(`{}`)},
	})
	if err != nil || m.Len() != 1 || !m.Has(q) || m.Has(q+" ") {
		t.Fatalf("Load: %v, %d documents", err, m.Len())
	}
	if text, ok := m.Lookup(id); !ok || text != q {
		t.Fatalf("Lookup = %q, %v", text, ok)
	}
	// An id that is not its text's hash is refused: a manifest cannot
	// register one text under another's id.
	if _, err := trusteddocs.Load(fstest.MapFS{"bad.json": {Data: []byte(`{"` + id + `": "query B { me { id } }"}`)}}); err == nil {
		t.Fatal("a wrong id was accepted")
	}
	if _, err := trusteddocs.Load(fstest.MapFS{"bad.json": {Data: []byte(`[1]`)}}); err == nil {
		t.Fatal("a manifest that is not an object was accepted")
	}
}

func TestEmbedded(t *testing.T) {
	m, err := trusteddocs.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() < 20 {
		t.Fatalf("only %d embedded documents: web.json missing?", m.Len())
	}
}
