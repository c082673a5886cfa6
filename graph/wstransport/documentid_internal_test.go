package wstransport

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestMoveDocumentID: a subscribe or start payload's documentId moves into
// its extensions (beside the ones it had); payloads without one, and ones
// that are not objects, are left as they are for the reader to judge.
func TestMoveDocumentID(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"documentId":"sha256:ab","variables":{"n":1.50}}`, `{"extensions":{"documentId":"sha256:ab"},"variables":{"n":1.50}}`},
		{`{"documentId":"x","extensions":{"persistedQuery":{"version":1}}}`, `{"extensions":{"documentId":"x","persistedQuery":{"version":1}}}`},
		{`{"documentId":"x","extensions":null}`, `{"extensions":{"documentId":"x"}}`},
		{`{"query":"{ a }"}`, `{"query":"{ a }"}`},
		{`{"query":"documentId"}`, `{"query":"documentId"}`},
		{`["documentId"]`, `["documentId"]`},
		{`{"documentId":"x","extensions":[1]}`, `{"documentId":"x","extensions":[1]}`},
	} {
		got := moveDocumentID(json.RawMessage(c.in))
		if !sameJSON(t, got, []byte(c.want)) {
			t.Errorf("moveDocumentID(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	got := moveStartDocumentID([]byte(`{"id":"1","type":"start","payload":{"documentId":"sha256:ab"}}`))
	if !sameJSON(t, got, []byte(`{"id":"1","type":"start","payload":{"extensions":{"documentId":"sha256:ab"}}}`)) {
		t.Errorf("moveStartDocumentID: %s", got)
	}
}

// sameJSON compares two JSON values, numbers as written (1.50 is not 1.5).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	decode := func(p []byte) (any, error) {
		dec := json.NewDecoder(bytes.NewReader(p))
		dec.UseNumber()
		var v any
		return v, dec.Decode(&v)
	}
	x, errA := decode(a)
	y, errB := decode(b)
	if errA != nil || errB != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}
