package trusteddocs_test

import (
	"crypto/md5"
	"crypto/sha1"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

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

// ParseManifest reads the three formats and checks every id against its
// document: Apollo's and this package's by SHA-256, Relay's by the hash
// its length names.
func TestParseManifest(t *testing.T) {
	const q = "query A {\n  tables {\n    id\n    __typename\n  }\n}"
	sha := strings.TrimPrefix(trusteddocs.ID(q), "sha256:")
	md5hex := fmt.Sprintf("%x", md5.Sum([]byte(q)))
	sha1hex := fmt.Sprintf("%x", sha1.Sum([]byte(q)))
	apollo := `{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id":"` + sha + `","name":"A","type":"query","body":` + strconv.Quote(q) + `}]}`
	for _, c := range []struct {
		name, manifest, format, id string
	}{
		{"apollo", apollo, trusteddocs.FormatApollo, sha},
		{"pokertote", `{"` + trusteddocs.ID(q) + `":` + strconv.Quote(q) + `}`, trusteddocs.FormatPokertote, trusteddocs.ID(q)},
		{"relay md5", `{"` + md5hex + `":` + strconv.Quote(q) + `}`, trusteddocs.FormatRelay, md5hex},
		{"relay sha1", `{"` + sha1hex + `":` + strconv.Quote(q) + `}`, trusteddocs.FormatRelay, sha1hex},
		{"relay sha256", `{"` + sha + `":` + strconv.Quote(q) + `}`, trusteddocs.FormatRelay, sha},
	} {
		docs, format, err := trusteddocs.ParseManifest([]byte(c.manifest))
		if err != nil || format != c.format || docs[c.id] != q || len(docs) != 1 {
			t.Errorf("%s: %v %s %v", c.name, err, format, docs)
		}
	}
	for name, bad := range map[string]string{
		"apollo id of another text": strings.Replace(apollo, sha, strings.Repeat("0", 64), 1),
		"apollo version 2":          strings.Replace(apollo, `"version":1`, `"version":2`, 1),
		"another format":            `{"format":"persisted-queries","version":1,"operations":[]}`,
		"relay id of another text":  `{"` + md5hex + `":"query B { me { id } }"}`,
		"an empty text":             `{"` + md5hex + `":""}`,
		"not an object":             `[1]`,
		"not JSON":                  `{"a":`,
		"a value not a string":      `{"a":1}`,
	} {
		_, _, err := trusteddocs.ParseManifest([]byte(bad))
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
		// An id of another text is a mismatch of its own, told apart
		// from a manifest that cannot be read.
		if mismatch := strings.Contains(name, "of another text"); errors.Is(err, trusteddocs.ErrHashMismatch) != mismatch {
			t.Errorf("%s: %v; errors.Is ErrHashMismatch should be %v", name, err, mismatch)
		}
	}
}

// A registration is served beside the embedded documents, by its
// manifest's ids and by the canonical one; a revoked one is not; the set
// is replaced whole.
func TestSetRegistered(t *testing.T) {
	m, err := trusteddocs.Load(fstest.MapFS{})
	if err != nil {
		t.Fatal(err)
	}
	const q = "query A { tables { id } }"
	md5hex := fmt.Sprintf("%x", md5.Sum([]byte(q)))
	m.SetRegistered([]trusteddocs.Registration{{Client: "ios", Version: "1", Documents: map[string]string{md5hex: q}}})
	if text, ok := m.Lookup(md5hex); !ok || text != q || !m.Has(q) || m.Registered() != 1 {
		t.Fatalf("registered document not served: %q %v", text, ok)
	}
	if _, ok := m.Lookup(trusteddocs.ID(q)); !ok {
		t.Fatal("a registered document is not found by its canonical id (APQ)")
	}
	m.SetRegistered([]trusteddocs.Registration{{Client: "ios", Version: "1", Documents: map[string]string{md5hex: q}, RevokedAt: time.Now()}})
	if m.Has(q) || m.Registered() != 0 {
		t.Fatal("a revoked registration is still served")
	}
}

// FuzzParseManifest: any bytes give documents whose ids are their texts'
// hashes, or an error; never a panic.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"format":"apollo-persisted-query-manifest","version":1,"operations":[{"id":"x","body":"q"}]}`))
	f.Add([]byte(`{"sha256:00":"q"}`))
	f.Add([]byte(`{"d41d8cd98f00b204e9800998ecf8427e":""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		docs, _, err := trusteddocs.ParseManifest(b)
		if err != nil {
			return
		}
		for id, text := range docs {
			if text == "" || id == "" {
				t.Fatalf("accepted an empty id or text: %q", b)
			}
		}
	})
}
