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
// form, made by its build. The manifests are embedded in the binary.
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

// Manifest is the set of trusted documents, by id.
type Manifest struct {
	docs    map[string]string
	sources map[string]string
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

// Lookup returns the text of document id.
func (m *Manifest) Lookup(id string) (string, bool) {
	text, ok := m.docs[id]
	return text, ok
}

// Has reports whether text is a trusted document, byte for byte.
func (m *Manifest) Has(text string) bool {
	_, ok := m.docs[ID(text)]
	return ok
}

// Len is the number of documents.
func (m *Manifest) Len() int { return len(m.docs) }

// Documents returns every document by id, and which manifest it came from.
func (m *Manifest) Documents() (docs, sources map[string]string) { return m.docs, m.sources }
