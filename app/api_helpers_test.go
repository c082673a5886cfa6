package app_test

import (
	"strconv"
	"strings"
)

// nodes unwraps the nodes of a Relay connection's edges.
func nodes[N any](edges []struct{ Node N }) []N {
	out := make([]N, len(edges))
	for i, e := range edges {
		out[i] = e.Node
	}
	return out
}

// selectionInput turns a selection in its display form ("3", "FLUSH",
// "2-5-5") into PlaceBetInput's typed selection for the market.
func selectionInput(market, text string) map[string]any {
	switch market {
	case "WIN":
		n, _ := strconv.Atoi(text)
		return map[string]any{"position": n}
	case "COMBINATION":
		return map[string]any{"combination": text}
	default:
		p := strings.Split(text, "-")
		n := make([]int, len(p))
		for i, s := range p {
			n[i], _ = strconv.Atoi(s)
		}
		for len(n) < 3 {
			n = append(n, 0)
		}
		return map[string]any{"express": map[string]any{"flop": n[0], "turn": n[1], "river": n[2]}}
	}
}
