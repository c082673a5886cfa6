package tote

import (
	"strings"
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// TestBetKeyFollowsTheOneRule checks that a bet's idempotency key is judged
// by ledger.CheckClientKey, the rule the cashier and Casino Hold'em use.
func TestBetKeyFollowsTheOneRule(t *testing.T) {
	tests := []struct {
		name string
		key  string
		ok   bool
	}{
		{"short", "k", true},
		{"longest", strings.Repeat("k", MaxIdempotencyKey), true},
		{"inner spaces", "slip 7", true},
		{"empty", "", false},
		{"only spaces", "   ", false},
		{"too long", strings.Repeat("k", MaxIdempotencyKey+1), false},
		{"not ASCII", "ставка-1", false},
		{"control byte", "a\tb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := PlaceBetRequest{Market: parimutuel.MarketWin, Selection: "3", Stake: 10000, IdempotencyKey: tt.key}
			_, err := req.Parse()
			if tt.ok {
				if err != nil {
					t.Fatalf("key %q refused: %v", tt.key, err)
				}
				return
			}
			if errs.ReasonOf(err) != ReasonInvalidIdempotencyKey {
				t.Fatalf("key %q: got %v, want reason %s", tt.key, err, ReasonInvalidIdempotencyKey)
			}
		})
	}
}
