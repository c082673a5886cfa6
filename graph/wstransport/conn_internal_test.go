package wstransport

import (
	"bytes"
	"encoding/json"
	"testing"
)

// protocolMessage has the shape of gqlgen's protocol messages.
type protocolMessage struct {
	Payload json.RawMessage `json:"payload,omitempty"`
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	//lint:ignore U1000 gqlgen's messages have this field; the fast path must accept that shape
	noOp bool
}

// TestProtocolMessagesWrittenAsJSONWould: the fast path writes exactly
// what encoding/json writes for every shape of message (empty payload or
// id, ids needing escapes), and declines other values.
func TestProtocolMessagesWrittenAsJSONWould(t *testing.T) {
	for _, m := range []*protocolMessage{
		{Payload: json.RawMessage(`{"data":{"tableEvents":{"seq":1}}}`), ID: "1", Type: "next"},
		{ID: "7", Type: "complete"},
		{Type: "connection_ack"},
		{Payload: json.RawMessage(`[{"message":"x"}]`), ID: "a\"b\\c<é>", Type: "error"},
		{Payload: json.RawMessage(`{}`), Type: "ping"},
	} {
		want, _ := json.Marshal(m)
		var buf bytes.Buffer
		if !appendProtocolMessage(&buf, m) {
			t.Fatalf("%+v not taken by the fast path", m)
		}
		if buf.String() != string(want) {
			t.Errorf("fast path wrote %s, encoding/json %s", buf.String(), want)
		}
	}
	var buf bytes.Buffer
	for _, v := range []any{map[string]any{"type": "x"}, &struct{ A int }{1}, protocolMessage{Type: "x"}} {
		if appendProtocolMessage(&buf, v) {
			t.Errorf("fast path took %#v", v)
		}
	}
}
