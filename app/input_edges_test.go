package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pokertote/pokertote/internal/gqltest"
)

// TestVariablesFollowTheLiteralsRules (issue 22): through variables, over
// HTTP and a socket, a @oneOf input with a second field set to null, an enum
// value in the wrong case and a string for an Int are BAD_USER_INPUT naming
// the field (they were accepted as WIN, INTERNAL, and coerced).
func TestVariablesFollowTheLiteralsRules(t *testing.T) {
	t.Parallel()
	_, c := startServer(t, backend{name: "sqlite"}, nil)
	p := newPlayer(t, c, "")
	const q = `mutation($in: PlaceBetInput!) { placeBet(input: $in) { id } }`
	in := func(sel map[string]any) map[string]any {
		return map[string]any{"in": map[string]any{"drawId": "1", "selection": sel, "stake": "100.00", "idempotencyKey": unique("k")}}
	}
	cases := []struct {
		name  string
		sel   map[string]any
		field string
	}{
		{"oneOf with a null second field", map[string]any{"position": 1, "combination": nil}, "combination"},
		{"oneOf with two fields", map[string]any{"position": 1, "combination": "FLUSH"}, "selection"},
		{"oneOf with none", map[string]any{}, "selection"},
		{"enum in lower case", map[string]any{"combination": "flush"}, "combination"},
		{"string for an Int", map[string]any{"position": "1"}, "position"},
		{"fraction for an Int", map[string]any{"position": 1.5}, "position"},
		{"string in a nested Int", map[string]any{"express": map[string]any{"flop": "1", "turn": 2, "river": 3}}, "flop"},
	}
	s := openSocket(t, p.Client, gqltest.SocketOptions{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := p.Client.MustFail(t, "BAD_USER_INPUT", "", q, in(tc.sel))
			if !strings.Contains(e.Message, tc.field) {
				t.Fatalf("HTTP: message %q does not name %s", e.Message, tc.field)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := s.Do(ctx, q, in(tc.sel))
			if err != nil || len(res.Errors) == 0 || res.Errors[0].Code() != "BAD_USER_INPUT" || !strings.Contains(res.Errors[0].Message, tc.field) {
				t.Fatalf("socket: %v %+v, want BAD_USER_INPUT naming %s", err, res.Errors, tc.field)
			}
		})
	}
}
