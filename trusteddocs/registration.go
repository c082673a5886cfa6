package trusteddocs

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// The manifest formats ParseManifest reads.
const (
	// FormatPokertote is this package's form: {"sha256:<hex>": "<text>"}.
	FormatPokertote = "POKERTOTE"
	// FormatApollo is Apollo's persisted-query manifest
	// (@apollo/generate-persisted-query-manifest): {"format":
	// "apollo-persisted-query-manifest", "version": 1, "operations":
	// [{"id": "<sha256 hex>", "name", "type", "body"}]}.
	FormatApollo = "APOLLO"
	// FormatRelay is relay-compiler's persisted queries file:
	// {"<id>": "<text>"}, the id the hex MD5, SHA-1 or SHA-256 of the text.
	FormatRelay = "RELAY"
)

// MaxDocuments bounds one manifest.
const MaxDocuments = 5000

// Registration is one client version's manifest registered at runtime.
type Registration struct {
	Client, Version string
	Format          string
	// Documents maps each id the manifest gave to its text.
	Documents    map[string]string
	RegisteredAt time.Time
	RegisteredBy int64
	// RevokedAt is zero while the registration is served.
	RevokedAt time.Time
}

// registeredSet is the runtime documents by canonical id and by the ids
// their manifests gave.
type registeredSet struct{ byID map[string]string }

// SetRegistered replaces the runtime documents with those of regs (revoked
// ones skipped). Requests see either the old set or the new, whole.
func (m *Manifest) SetRegistered(regs []Registration) {
	set := &registeredSet{byID: map[string]string{}}
	for _, r := range regs {
		if !r.RevokedAt.IsZero() {
			continue
		}
		for id, text := range r.Documents {
			set.byID[id] = text
			set.byID[ID(text)] = text
		}
	}
	m.registered.Store(set)
}

// Registered is the number of runtime documents (by canonical id).
func (m *Manifest) Registered() int {
	r := m.registered.Load()
	if r == nil {
		return 0
	}
	n := 0
	for id, text := range r.byID {
		if id == ID(text) {
			n++
		}
	}
	return n
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)

// ValidName reports whether s may name a client or a version: 1 to 64
// letters, digits and . _ + -, starting with a letter or digit.
func ValidName(s string) bool { return namePattern.MatchString(s) }

// ParseManifest reads a manifest in any of the three formats and checks
// every id against its text: an Apollo id and a Pokertote id are the
// text's SHA-256; a Relay id its MD5, SHA-1 or SHA-256 (whichever length
// it has). It returns the documents by the ids the manifest gave and its
// format.
func ParseManifest(b []byte) (docs map[string]string, format string, err error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, "", fmt.Errorf("a manifest is a JSON object")
	}
	var probe struct {
		Format     string          `json:"format"`
		Version    json.RawMessage `json:"version"`
		Operations json.RawMessage `json:"operations"`
	}
	if err := json.Unmarshal(b, &probe); err == nil && probe.Format != "" {
		return parseApollo(b, probe.Format)
	}
	var flat map[string]string
	if err := json.Unmarshal(b, &flat); err != nil {
		return nil, "", fmt.Errorf("a manifest is Apollo's persisted-query manifest or a JSON object of id to document text: %v", err)
	}
	if len(flat) > MaxDocuments {
		return nil, "", fmt.Errorf("a manifest holds at most %d documents; this one has %d", MaxDocuments, len(flat))
	}
	format = FormatRelay
	for id := range flat {
		if strings.HasPrefix(id, Prefix) {
			format = FormatPokertote
			break
		}
	}
	for _, id := range sortedKeys(flat) {
		if err := checkID(id, flat[id], format); err != nil {
			return nil, "", err
		}
	}
	return flat, format, nil
}

func parseApollo(b []byte, name string) (map[string]string, string, error) {
	var m struct {
		Format     string `json:"format"`
		Version    int    `json:"version"`
		Operations []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
			Type string `json:"type"`
			Body string `json:"body"`
		} `json:"operations"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, "", fmt.Errorf("an Apollo manifest: %v", err)
	}
	if name != "apollo-persisted-query-manifest" || m.Version != 1 {
		return nil, "", fmt.Errorf("format %q version %d is not one this server reads (apollo-persisted-query-manifest, version 1)", name, m.Version)
	}
	if len(m.Operations) > MaxDocuments {
		return nil, "", fmt.Errorf("a manifest holds at most %d documents; this one has %d", MaxDocuments, len(m.Operations))
	}
	docs := make(map[string]string, len(m.Operations))
	for i, op := range m.Operations {
		if op.Body == "" {
			return nil, "", fmt.Errorf("operation %d (%s) has no body", i, op.Name)
		}
		if err := checkID(op.ID, op.Body, FormatApollo); err != nil {
			return nil, "", err
		}
		docs[op.ID] = op.Body
	}
	return docs, FormatApollo, nil
}

// ErrHashMismatch is (wrapped in) ParseManifest's error for a manifest
// with an id that is not its document's hash: forged, or the text was
// changed after it was hashed.
var ErrHashMismatch = errors.New("an id is not the hash of its document")

// checkID refuses an id that is not its text's hash in format's rule
// (ErrHashMismatch), and an empty text.
func checkID(id, text, format string) error {
	if text == "" {
		return fmt.Errorf("document %s has no text", shortID(id))
	}
	hexOf := func(sum []byte) string { return hex.EncodeToString(sum) }
	var want string
	switch {
	case format == FormatPokertote:
		want = ID(text)
	case format == FormatApollo:
		s := sha256.Sum256([]byte(text))
		want = hexOf(s[:])
	case len(id) == 32:
		s := md5.Sum([]byte(text))
		want = hexOf(s[:])
	case len(id) == 40:
		s := sha1.Sum([]byte(text))
		want = hexOf(s[:])
	default:
		s := sha256.Sum256([]byte(text))
		want = hexOf(s[:])
	}
	if !strings.EqualFold(id, want) {
		return fmt.Errorf("%w: document %s is not the hash of its text (%s)", ErrHashMismatch, shortID(id), shortID(want))
	}
	return nil
}

func shortID(id string) string {
	if len(id) > 80 {
		return id[:80] + "…"
	}
	return id
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
