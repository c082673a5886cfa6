package wstransport

import (
	"bytes"
	"encoding/json"
)

// DocumentIDExtension is the request extension an operation's documentId
// (the persisted-documents form, {"documentId": "sha256:<hex>",
// "variables", ...}) is moved into: gqlgen's RawParams, which the payload
// is read into, has no field for it, and the handler's trusted-documents
// extension resolves it from there, as the HTTP middleware does a body's.
const DocumentIDExtension = "documentId"

// moveDocumentID returns payload (a subscribe or start payload) with its
// documentId, when it has one, moved into its extensions; any other
// payload as it is (one that is not a JSON object is the reader's to
// refuse).
func moveDocumentID(payload json.RawMessage) json.RawMessage {
	if !bytes.Contains(payload, []byte(`"documentId"`)) {
		return payload
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(payload, &p) != nil {
		return payload
	}
	id, ok := p["documentId"]
	if !ok {
		return payload
	}
	ext := map[string]json.RawMessage{}
	if raw, has := p["extensions"]; has && string(raw) != "null" && json.Unmarshal(raw, &ext) != nil {
		return payload // extensions that are no object: refused as they are
	}
	ext[DocumentIDExtension] = id
	delete(p, "documentId")
	p["extensions"], _ = json.Marshal(ext)
	out, err := json.Marshal(p)
	if err != nil {
		return payload
	}
	return out
}

// moveStartDocumentID is moveDocumentID for a whole legacy graphql-ws
// message, whose payload is a start's.
func moveStartDocumentID(data []byte) []byte {
	if !bytes.Contains(data, []byte(`"documentId"`)) {
		return data
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m["payload"] == nil {
		return data
	}
	m["payload"] = moveDocumentID(m["payload"])
	out, err := json.Marshal(m)
	if err != nil {
		return data
	}
	return out
}
