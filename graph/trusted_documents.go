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
	"github.com/pokertote/pokertote/graph/wstransport"
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
// tell an anonymous client what the schema holds. It runs after the APQ
// extension has turned a hash into its text (a hash the shared cache gave
// an exempt caller is refused here to anyone else).
func (t TrustedDocuments) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if t.allows(ctx, p.Query) {
		return nil
	}
	return notTrusted()
}

// allows reports whether the caller of ctx may run text.
func (t TrustedDocuments) allows(ctx context.Context, text string) bool {
	return !t.Enforce || (t.Manifest != nil && t.Manifest.Has(text)) || t.exempt(ctx)
}

func (t TrustedDocuments) exempt(ctx context.Context) bool { return t.Exempt != nil && t.Exempt(ctx) }

// closedCache reports whether the caller of ctx is kept off the shared APQ
// cache: with Enforce, everyone but the exempt (who alone may run what is
// not in the manifests, so alone have a use for it).
func (t TrustedDocuments) closedCache(ctx context.Context) bool { return t.Enforce && !t.exempt(ctx) }

func notTrusted() *gqlerror.Error {
	return &gqlerror.Error{
		Message:    "this server runs only registered documents (trusted documents): send one of the client's registered operations, by text or documentId",
		Extensions: map[string]any{"code": string(errs.Forbidden), "reason": ReasonDocumentNotTrusted},
	}
}

// DocumentIDExtension is the request extension a WebSocket transport puts
// a subscribe (or start) payload's documentId in, for trustedIntake to
// resolve: gqlgen's RawParams has no field of its own for it.
const DocumentIDExtension = wstransport.DocumentIDExtension

// trustedIntake runs before the APQ extension, on what the client sent:
//
//   - a documentId carried in DocumentIDExtension (the WebSocket
//     transports) becomes its registered text (DOCUMENT_NOT_FOUND when
//     none is registered);
//   - an id or APQ hash sent with a text that is not that text's is
//     DOCUMENT_HASH_MISMATCH;
//   - with Enforce, a text not registered is refused (DOCUMENT_NOT_TRUSTED)
//     here already, so that an APQ registration of it (hash and text)
//     never reaches the shared APQ cache.
type trustedIntake struct{ t TrustedDocuments }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = trustedIntake{}

func (trustedIntake) ExtensionName() string { return "TrustedDocumentsIntake" }

func (trustedIntake) Validate(graphql.ExecutableSchema) error { return nil }

func (in trustedIntake) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if raw, has := p.Extensions[DocumentIDExtension]; has {
		delete(p.Extensions, DocumentIDExtension)
		id, _ := raw.(string)
		text, reason := resolveDocument(in.t.Manifest, id, p.Query)
		if reason != "" {
			return documentError(reason, id)
		}
		p.Query = text
	}
	if p.Query == "" {
		return nil // a hash alone: the APQ extension reads it, MutateOperationParameters checks it
	}
	if pq, ok := p.Extensions["persistedQuery"].(map[string]any); ok {
		if hash, ok := pq["sha256Hash"].(string); ok && trusteddocs.ID(p.Query) != trusteddocs.Prefix+hash {
			return documentError(ReasonDocumentHashMismatch, trusteddocs.Prefix+hash)
		}
	}
	if !in.t.allows(ctx, p.Query) {
		return notTrusted()
	}
	return nil
}

// resolveDocument is the text a request that named document id (and sent
// query, maybe empty) runs, or the reason it is refused: DOCUMENT_NOT_FOUND
// for an id no manifest registers (sent alone, or not a SHA-256 one, which
// cannot be checked against the text), DOCUMENT_HASH_MISMATCH when the id
// is not the text's.
func resolveDocument(m *trusteddocs.Manifest, id, query string) (text, reason string) {
	var registered string
	var ok bool
	if m != nil && id != "" {
		registered, ok = m.Lookup(id)
	}
	switch {
	case query == "" && ok:
		return registered, ""
	case query == "":
		return "", ReasonDocumentNotFound
	case ok && registered != query:
		return "", ReasonDocumentHashMismatch
	case ok:
		return query, ""
	case !strings.HasPrefix(id, trusteddocs.Prefix):
		return "", ReasonDocumentNotFound
	case trusteddocs.ID(query) != id:
		return "", ReasonDocumentHashMismatch
	}
	return query, "" // an unregistered id of this text: trust decides
}

// documentError is the refusal of reason (DOCUMENT_NOT_FOUND or
// DOCUMENT_HASH_MISMATCH) for document id.
func documentError(reason, id string) *gqlerror.Error {
	msg := "no registered document has the id " + shorten(id)
	if reason == ReasonDocumentHashMismatch {
		msg = "the document's text is not the one its id " + shorten(id) + " names: send the id alone, or the text with its own hash"
	}
	return &gqlerror.Error{Message: msg, Extensions: map[string]any{"code": string(errs.Invalid), "reason": reason}}
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
// document id is), then from the shared cache next. With Enforce only
// exempt callers read and write next: nobody else may run what it holds,
// and nobody else may fill a cache every replica and client shares
// (trustedIntake has refused an unregistered text before Add is reached;
// a registered one is served from the manifests and needs no entry).
type manifestAPQ struct {
	m    *trusteddocs.Manifest
	t    TrustedDocuments
	next graphql.Cache[string]
}

func (c manifestAPQ) Get(ctx context.Context, hash string) (string, bool) {
	if text, ok := c.m.Lookup(trusteddocs.Prefix + hash); ok {
		return text, true
	}
	if c.t.closedCache(ctx) {
		return "", false
	}
	return c.next.Get(ctx, hash)
}

func (c manifestAPQ) Add(ctx context.Context, hash, query string) {
	if c.m.Has(query) || c.t.closedCache(ctx) {
		return
	}
	c.next.Add(ctx, hash, query)
}

// DocumentIDMiddleware serves the GraphQL-over-HTTP persisted-documents
// form: a POST body {"documentId": "sha256:<hex>", "variables", ...} or a
// GET ?documentId=, which it turns into the registered document's text
// before the handler reads the request. An unknown id is BAD_USER_INPUT /
// DOCUMENT_NOT_FOUND; a documentId sent with a query that is not its text
// is BAD_USER_INPUT / DOCUMENT_HASH_MISMATCH (a matching one runs the
// query, which trust then decides on). Requests without a documentId pass
// through untouched. The body is already bounded by LimitBody.
func DocumentIDMiddleware(m *trusteddocs.Manifest, next http.Handler) http.Handler {
	refuse := func(w http.ResponseWriter, reason, id string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		e := documentError(reason, id)
		_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{
			"message": e.Message, "extensions": e.Extensions,
		}}})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Query().Has("documentId"):
			q := r.URL.Query()
			id := q.Get("documentId")
			text, reason := resolveDocument(m, id, q.Get("query"))
			if reason != "" {
				refuse(w, reason, id)
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
			var id, query string
			if json.Unmarshal(body["documentId"], &id) != nil {
				break
			}
			if body["query"] != nil && json.Unmarshal(body["query"], &query) != nil {
				break // the handler reports the query that is no string
			}
			text, reason := resolveDocument(m, id, query)
			if reason != "" {
				refuse(w, reason, id)
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
