package graph

import (
	"encoding/base64"
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
)

// TestNodeIDsReadBack: a global id reads back as the type and ids it was
// made of, and only the one spelling nodeID gives is a global id.
func TestNodeIDsReadBack(t *testing.T) {
	for _, c := range []struct {
		id   string
		typ  string
		want []int64
	}{
		{nodeID(nodeDraw, "17"), nodeDraw, []int64{17}},
		{nodeID(nodeBet, "9223372036854775807"), nodeBet, []int64{1<<63 - 1}},
		{ledgerEntryNodeID(5, 812), nodeLedgerEntry, []int64{5, 812}},
	} {
		typ, ns, err := parseNodeID(c.id)
		if err != nil || typ != c.typ || !slices.Equal(ns, c.want) {
			t.Errorf("parseNodeID(%s) = %s %v %v, want %s %v", c.id, typ, ns, err, c.typ, c.want)
		}
	}
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, bad := range []string{
		"", "17", "!!", enc("Draw"), enc("Draw:"), enc("Draw:017"), enc("Draw:+17"), enc("Draw:-1"), enc("Draw:0"),
		enc("Draw:1:2"), enc("LedgerEntry:5"), enc("LedgerEntry:5:0"), base64.URLEncoding.EncodeToString([]byte("Draw:17")),
		base64.StdEncoding.EncodeToString([]byte("Table:1?")),
	} {
		if _, _, err := parseNodeID(bad); !errs.Is(err, errs.Invalid) || errs.ReasonOf(err) != ReasonInvalidID {
			t.Errorf("parseNodeID(%q) = %v, want BAD_USER_INPUT / INVALID_ID", bad, err)
		}
	}
}
