package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/pokertote/pokertote/domain/errs"
)

// The reasons of a request the HTTP transport refuses before any GraphQL is
// read (GraphQL over HTTP's 405, 406 and 415).
const (
	// ReasonMethodNotAllowed: a mutation sent by GET, or a method other
	// than GET and POST (HTTP 405, with Allow).
	ReasonMethodNotAllowed = "METHOD_NOT_ALLOWED"
	// ReasonUnsupportedMediaType: a POST body that is not application/json
	// (HTTP 415).
	ReasonUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	// ReasonNotAcceptable: an Accept header that takes neither
	// application/graphql-response+json nor application/json (HTTP 406).
	ReasonNotAcceptable = "NOT_ACCEPTABLE"
)

// The two response media types of GraphQL over HTTP.
const (
	mediaJSON            = "application/json"
	mediaGraphQLResponse = "application/graphql-response+json"
)

// httpTransport serves queries and mutations over plain HTTP as the
// GraphQL-over-HTTP specification has it, in place of gqlgen's GET and POST
// transports, whose status codes differ from it (422 for an invalid
// document, 200 with "data": null for a refused one, 406 for a GET
// mutation) and some of whose refusals carry no extensions.code:
//
//   - the response's media type follows Accept: application/graphql-response+json
//     when the client takes it, else application/json (also when Accept is
//     absent or */*); an Accept that takes neither is 406;
//   - a request error (the document is unreadable, invalid, too costly, too
//     deep, not trusted; a variable cannot be coerced) has no "data" entry
//     and is 400 under application/graphql-response+json, 200 under
//     application/json; once execution starts the answer is 200 whatever
//     the field errors;
//   - a body that is not a JSON object of a string query is 400 under
//     both; a POST that is not application/json is 415; a mutation by GET,
//     or another method, is 405 with Allow;
//   - every error carries extensions.code (and extensions.reason where there
//     is a finer one).
//
// Subscriptions are served by the WebSocket and SSE transports, which come
// before this one.
type httpTransport struct{}

var _ graphql.Transport = httpTransport{}

// Supports takes every request the transports before it did not: WebSocket
// upgrades, SSE and OPTIONS are theirs.
func (httpTransport) Supports(r *http.Request) bool {
	return r.Header.Get("Upgrade") == "" && r.Method != http.MethodOptions
}

// Do answers one HTTP request.
func (httpTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	media, ok := responseMedia(r.Header.Values("Accept"))
	if !ok {
		refuse(w, mediaJSON, http.StatusNotAcceptable, errs.Invalid, ReasonNotAcceptable,
			"this endpoint answers application/graphql-response+json or application/json: accept one of them")
		return
	}
	w.Header().Set("Content-Type", media)
	w.Header().Add("Vary", "Accept")
	start := graphql.Now()
	params, refusal := readParams(r)
	if refusal != nil {
		refusal.write(w, media)
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	ctx := r.Context()
	oc, gerrs := exec.CreateOperationContext(ctx, params)
	if gerrs != nil {
		status := http.StatusOK
		if media == mediaGraphQLResponse {
			status = http.StatusBadRequest
		}
		resp := exec.DispatchError(graphql.WithOperationContext(ctx, oc), gerrs)
		writeResponse(w, status, requestError(resp))
		return
	}
	if r.Method == http.MethodGet {
		if op := oc.Doc.Operations.ForName(oc.OperationName); op != nil && op.Operation != ast.Query {
			w.Header().Set("Allow", "POST")
			refuse(w, media, http.StatusMethodNotAllowed, errs.Invalid, ReasonMethodNotAllowed,
				"a GET request may only run a query: send a "+string(op.Operation)+" by POST")
			return
		}
	}
	responses, ctx := exec.DispatchOperation(ctx, oc)
	writeResponse(w, http.StatusOK, responses(ctx))
}

// httpRefusal is a request refused before it reaches GraphQL.
type httpRefusal struct {
	status  int
	reason  string
	message string
	allow   string
}

func (h *httpRefusal) write(w http.ResponseWriter, media string) {
	if h.allow != "" {
		w.Header().Set("Allow", h.allow)
	}
	refuse(w, media, h.status, errs.Invalid, h.reason, h.message)
}

// readParams reads a GET's query string or a POST's JSON body.
func readParams(r *http.Request) (*graphql.RawParams, *httpRefusal) {
	switch r.Method {
	case http.MethodGet:
		return paramsFromQuery(r)
	case http.MethodPost:
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != mediaJSON {
			return nil, &httpRefusal{status: http.StatusUnsupportedMediaType, reason: ReasonUnsupportedMediaType,
				message: "a POST body must be application/json: {\"query\", \"variables\", \"operationName\", \"extensions\"}"}
		}
		return paramsFromBody(r.Body)
	default:
		return nil, &httpRefusal{status: http.StatusMethodNotAllowed, reason: ReasonMethodNotAllowed, allow: "GET, POST",
			message: "this endpoint takes GET (queries) and POST; subscriptions go over WebSocket or SSE"}
	}
}

func paramsFromQuery(r *http.Request) (*graphql.RawParams, *httpRefusal) {
	q := r.URL.Query()
	p := &graphql.RawParams{Query: q.Get("query"), OperationName: q.Get("operationName")}
	for name, into := range map[string]*map[string]any{"variables": &p.Variables, "extensions": &p.Extensions} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		if err := decodeJSON(strings.NewReader(v), into); err != nil {
			return nil, malformed("the " + name + " parameter is not a JSON object")
		}
	}
	return p, nil
}

func paramsFromBody(body io.Reader) (*graphql.RawParams, *httpRefusal) {
	b, err := io.ReadAll(body)
	if err != nil {
		if msg, reason, ok := transportError("could not read request body: " + err.Error()); ok && reason == ReasonRequestTooLarge {
			return nil, &httpRefusal{status: http.StatusRequestEntityTooLarge, reason: reason, message: msg}
		}
		return nil, malformed("the request body could not be read")
	}
	trimmed := bytes.TrimLeft(b, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return nil, &httpRefusal{status: http.StatusBadRequest, reason: ReasonBatchNotSupported,
			message: "batched operations (a JSON array) are not supported: send one operation per request"}
	}
	var p graphql.RawParams
	if err := decodeJSON(bytes.NewReader(b), &p); err != nil {
		return nil, malformed("the request body is not a JSON object of query, variables, operationName and extensions")
	}
	return &p, nil
}

func malformed(msg string) *httpRefusal {
	return &httpRefusal{status: http.StatusBadRequest, reason: ReasonMalformedRequest, message: msg}
}

// decodeJSON decodes one JSON value into v, numbers kept exact (as
// json.Number, for Int64 and money variables), and nothing after it.
func decodeJSON(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// responseMedia picks the response's media type from the Accept headers:
// the most preferred (by q, then by order) of the two this endpoint
// writes; application/json when there is no Accept or it says */* or
// application/*. ok is false when Accept rules out both.
func responseMedia(accept []string) (media string, ok bool) {
	if len(accept) == 0 {
		return mediaJSON, true
	}
	best, bestQ := "", 0.0
	for _, header := range accept {
		for part := range strings.SplitSeq(header, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			q := 1.0
			if s, has := params["q"]; has {
				if q, err = strconv.ParseFloat(s, 64); err != nil || q < 0 || q > 1 {
					continue
				}
			}
			var m string
			switch mt {
			case mediaGraphQLResponse, mediaJSON:
				m = mt
			case "*/*", "application/*":
				m = mediaJSON
			default:
				continue
			}
			if q > bestQ {
				best, bestQ = m, q
			}
		}
	}
	if best == "" {
		if strings.TrimSpace(strings.Join(accept, "")) == "" {
			return mediaJSON, true
		}
		return "", false
	}
	return best, true
}

// requestError is resp without "data": a request error ends before
// execution, and GraphQL's response format then has no data entry. Every
// error keeps a code (gqlgen's own, such as an APQ hash mismatch, come
// with none).
func requestError(resp *graphql.Response) any {
	for _, e := range resp.Errors {
		if e.Extensions == nil {
			e.Extensions = map[string]any{}
		}
		if _, ok := e.Extensions["code"]; !ok {
			e.Extensions["code"] = string(errs.Invalid)
		}
	}
	return struct {
		Errors     gqlerror.List  `json:"errors"`
		Extensions map[string]any `json:"extensions,omitempty"`
	}{resp.Errors, resp.Extensions}
}

// refuse writes a request error of one error with code and reason.
func refuse(w http.ResponseWriter, media string, status int, code errs.Code, reason, msg string) {
	w.Header().Set("Content-Type", media)
	writeResponse(w, status, requestError(&graphql.Response{Errors: gqlerror.List{{
		Message: msg, Extensions: map[string]any{"code": string(code), "reason": reason},
	}}}))
}

func writeResponse(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"errors":[{"message":"internal error","extensions":{"code":"INTERNAL"}}]}`)
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
