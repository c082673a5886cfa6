package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/trusteddocs"
)

// The reasons of trusted documents.
const (
	// ReasonDocumentNotTrusted: in production, a player or anonymous client
	// sent an operation that is not a registered document.
	ReasonDocumentNotTrusted = "DOCUMENT_NOT_TRUSTED"
	// ReasonDocumentNotFound: a documentId names no registered document.
	ReasonDocumentNotFound = "DOCUMENT_NOT_FOUND"
)

// TrustedDocuments is the persisted-operations allowlist: with Enforce, an
// operation runs only when its text is one of Manifest's documents (sent
// as text, byte for byte, as the web client does; by documentId; or by its
// APQ hash), unless Exempt says the caller may send any document (admins,
// API keys: TRUSTED_DOCUMENTS_EXEMPT).
type TrustedDocuments struct {
	Manifest *trusteddocs.Manifest
	Enforce  bool
	// Exempt reports whether the caller of ctx may run unregistered
	// documents.
	Exempt func(ctx context.Context) bool
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = TrustedDocuments{}

func (TrustedDocuments) ExtensionName() string { return "TrustedDocuments" }

func (TrustedDocuments) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters refuses an unregistered document before it is
// parsed or validated: a validation error ("Cannot query field ...") would
// tell an anonymous client what the schema holds.
func (t TrustedDocuments) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if !t.Enforce || (t.Manifest != nil && t.Manifest.Has(p.Query)) || (t.Exempt != nil && t.Exempt(ctx)) {
		return nil
	}
	return &gqlerror.Error{
		Message:    "this server runs only registered documents (trusted documents): send one of the client's registered operations, by text or documentId",
		Extensions: map[string]any{"code": string(errs.Forbidden), "reason": ReasonDocumentNotTrusted},
	}
}

// ExemptFrom returns the Exempt function of the setting
// TRUSTED_DOCUMENTS_EXEMPT: "ADMIN" lets admins run any document,
// "API_KEY" affiliates' servers with an API key.
func ExemptFrom(who []string) func(context.Context) bool {
	var admins, keys bool
	for _, w := range who {
		switch strings.ToUpper(strings.TrimSpace(w)) {
		case "ADMIN":
			admins = true
		case "API_KEY":
			keys = true
		}
	}
	return func(ctx context.Context) bool {
		if _, ok := APIKeyFrom(ctx); ok && keys {
			return true
		}
		v, ok := ViewerFrom(ctx)
		return ok && admins && v.Role == account.Admin
	}
}

// manifestAPQ answers automatic persisted queries from the trusted
// documents first (an APQ hash is the hex SHA-256 of the text, as a
// document id is), then from the development cache next.
type manifestAPQ struct {
	m    *trusteddocs.Manifest
	next graphql.Cache[string]
}

func (c manifestAPQ) Get(ctx context.Context, hash string) (string, bool) {
	if text, ok := c.m.Lookup(trusteddocs.Prefix + hash); ok {
		return text, true
	}
	return c.next.Get(ctx, hash)
}

func (c manifestAPQ) Add(ctx context.Context, hash, query string) { c.next.Add(ctx, hash, query) }

// DocumentIDMiddleware serves the GraphQL-over-HTTP persisted-documents
// form: a POST body {"documentId": "sha256:<hex>", "variables", ...} or a
// GET ?documentId=, which it turns into the registered document's text
// before the handler reads the request. An unknown id is BAD_USER_INPUT /
// DOCUMENT_NOT_FOUND. Requests with a query pass through untouched. The
// body is already bounded by LimitBody.
func DocumentIDMiddleware(m *trusteddocs.Manifest, next http.Handler) http.Handler {
	notFound := func(w http.ResponseWriter, id string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{
			"message":    "no registered document has the id " + shorten(id),
			"extensions": map[string]any{"code": string(errs.Invalid), "reason": ReasonDocumentNotFound},
		}}})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Query().Has("documentId") && !r.URL.Query().Has("query"):
			q := r.URL.Query()
			text, ok := m.Lookup(q.Get("documentId"))
			if !ok {
				notFound(w, q.Get("documentId"))
				return
			}
			q.Del("documentId")
			q.Set("query", text)
			r.URL.RawQuery = q.Encode()
		case r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") && r.Body != nil:
			b, err := io.ReadAll(r.Body)
			if err != nil {
				// LimitBody answers too-large bodies itself; pass the rest on.
				r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
				break
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
			if !bytes.Contains(b, []byte(`"documentId"`)) {
				break
			}
			var body map[string]json.RawMessage
			if json.Unmarshal(b, &body) != nil {
				break // the handler reports the malformed body
			}
			var id string
			if json.Unmarshal(body["documentId"], &id) != nil || body["query"] != nil {
				break
			}
			text, ok := m.Lookup(id)
			if !ok {
				notFound(w, id)
				return
			}
			delete(body, "documentId")
			body["query"], _ = json.Marshal(text)
			b, _ = json.Marshal(body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			r.ContentLength = int64(len(b))
		}
		next.ServeHTTP(w, r)
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
