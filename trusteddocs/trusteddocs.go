// Package trusteddocs holds the trusted documents: the GraphQL operations
// the server runs for players and anonymous clients in production
// (TRUSTED_DOCUMENTS=enforce), registered by hash at build time.
//
// Each *.json file of this folder is a manifest mapping a document id,
// "sha256:" and the hex SHA-256 of the document's exact text (the
// GraphQL-over-HTTP persisted-documents appendix's form), to that text.
// web.json is generated from the web client's operations (`npm run
// trusted-documents` in web/; .ci/run fails when it is stale); a mobile or
// partner team adds its own file (ios.json, android.json, ...) in the same
// form, made by its build. These manifests are embedded in the binary.
//
// A client released after the server does not wait for a server release:
// an admin registers its manifest at runtime per client and version
// (registration.go), in this package's form, Apollo's persisted-query
// manifest or Relay's, and every replica serves it within a refresh.
package trusteddocs

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync/atomic"
)

//go:embed *.json
var files embed.FS

// Prefix starts every document id.
const Prefix = "sha256:"

// ID is the document id of text: "sha256:" and its hex SHA-256.
func ID(text string) string {
	sum := sha256.Sum256([]byte(text))
	return Prefix + hex.EncodeToString(sum[:])
}

// Manifest is the set of trusted documents, by id: the embedded ones and,
// beside them, the ones registered at runtime (SetRegistered).
type Manifest struct {
	docs    map[string]string
	sources map[string]string
	// registered is the runtime set, replaced whole.
	registered atomic.Pointer[registeredSet]
}

// Embedded loads the manifests built into the binary.
func Embedded() (*Manifest, error) { return Load(files) }

// Load reads every *.json manifest at the root of fsys. It refuses an id
// that is not its text's SHA-256, and one id claimed with two texts.
func Load(fsys fs.FS) (*Manifest, error) {
	m := &Manifest{docs: map[string]string{}, sources: map[string]string{}}
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var docs map[string]string
		if err := json.Unmarshal(b, &docs); err != nil {
			return nil, fmt.Errorf("trusted documents %s: %w", name, err)
		}
		for id, text := range docs {
			if !strings.HasPrefix(id, Prefix) || ID(text) != id {
				return nil, fmt.Errorf("trusted documents %s: %s is not the SHA-256 of its document (%s)", name, id, ID(text))
			}
			m.docs[id] = text
			m.sources[id] = path.Base(name)
		}
	}
	return m, nil
}

// Lookup returns the text of document id: an embedded one's, or a
// registered one's by its canonical id or the id its manifest gave it.
func (m *Manifest) Lookup(id string) (string, bool) {
	if text, ok := m.docs[id]; ok {
		return text, true
	}
	if r := m.registered.Load(); r != nil {
		text, ok := r.byID[id]
		return text, ok
	}
	return "", false
}

// Has reports whether text is a trusted document, byte for byte.
func (m *Manifest) Has(text string) bool {
	id := ID(text)
	if _, ok := m.docs[id]; ok {
		return true
	}
	r := m.registered.Load()
	if r == nil {
		return false
	}
	_, ok := r.byID[id]
	return ok
}

// Len is the number of embedded documents.
func (m *Manifest) Len() int { return len(m.docs) }

// Documents returns every document by id, and which manifest it came from.
func (m *Manifest) Documents() (docs, sources map[string]string) { return m.docs, m.sources }
