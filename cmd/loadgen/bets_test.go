package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pokertote/pokertote/domain/parimutuel"
)

// TestBetSelectionFollowsRegistry: pool i bets on the registry's i-th
// market, in its input field, selections the registry takes for the table.
func TestBetSelectionFollowsRegistry(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i, spec := range parimutuel.Production().Specs() {
		for range 50 {
			in := betSelection(i, 6, r)
			v, ok := in[spec.Input]
			if len(in) != 1 || !ok {
				t.Fatalf("%s: %v", spec.Name, in)
			}
			var text string
			switch x := v.(type) {
			case int:
				text = fmt.Sprint(x)
			case string:
				text = x
			case map[string]any:
				text = fmt.Sprintf("%d-%d-%d", x["flop"], x["turn"], x["river"])
			}
			sel, err := parimutuel.ParseSelection(spec.Name, text)
			if err == nil {
				err = parimutuel.Production().ValidateSelection(sel, 6)
			}
			if err != nil {
				b, _ := json.Marshal(in)
				t.Fatalf("%s: %s: %v", spec.Name, b, err)
			}
		}
	}
}
