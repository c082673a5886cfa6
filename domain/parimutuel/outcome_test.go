package parimutuel_test

import (
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// pockets parses each "Xx Yy" into a pocket.
func pockets(t testing.TB, ps ...string) [][2]cards.Card {
	t.Helper()
	out := make([][2]cards.Card, len(ps))
	for i, p := range ps {
		cs := cards.MustParseList(p)
		if len(cs) != 2 {
			t.Fatalf("pocket %q", p)
		}
		out[i] = [2]cards.Card{cs[0], cs[1]}
	}
	return out
}

// TestLeaders: the positions (1-based, ascending) holding the best hand
// with the board so far: the EXPRESS leaders after the flop and the turn,
// the winners on the river (every position when the board plays).
func TestLeaders(t *testing.T) {
	tests := []struct {
		name, board string
		pockets     []string
		want        []int
	}{
		{"flop pair leads", "Qd 7h 2s", []string{"Ah Kd", "Qs Jh", "7c 6d"}, []int{2}},
		{"flop kicker decides", "Qd 7h 2s", []string{"Qs Jh", "Qc Th"}, []int{1}},
		{"flop tie", "Qd 7h 2s", []string{"Ah Kd", "As Kc", "3c 4d"}, []int{1, 2}},
		{"turn changes the leader", "Qd 7h 2s 6c", []string{"Ah Kd", "Qs Jh", "7c 6d"}, []int{3}},
		{"turn board plays", "Ah Kh Qh Jh", []string{"2c 3d", "4c 5d", "Th 2h"}, []int{3}},
		{"river one winner", "Qd 7h 2s 6c Kc", []string{"Ah Kd", "Qs Jh", "7c 6d"}, []int{3}},
		{"river full house", "Qd 7h 2s 6c 7d", []string{"Ah Kd", "Qs Jh", "7c 6d"}, []int{3}},
		{"river board plays: everyone wins", "Ts Js Qs Ks As", []string{"2c 3c", "4d 5d", "6h 7h"}, []int{1, 2, 3}},
		{"river pair beats ace high", "2c 5d 9h Jc Kd", []string{"Ah Qd", "As Qc", "Kh 3c"}, []int{3}},
		{"river split on kickers", "2c 5d 9h Jc 8d", []string{"Ah Qd", "As Qc", "Kh 3c"}, []int{1, 2}},
		{"river chopped straight", "9c Td Jh Qs 2d", []string{"Kh 3c", "Kc 4d", "Ah Ad"}, []int{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parimutuel.Leaders(pockets(t, tt.pockets...), cards.MustParseList(tt.board))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Leaders = %v, want %v", got, tt.want)
			}
		})
	}
}

// BenchmarkLeaders is the EXPRESS leader of ten positions after the flop.
func BenchmarkLeaders(b *testing.B) {
	ps := pockets(b, "Ah Kd", "Qs Qh", "7c 2d", "Jc Td", "9s 9d", "5h 4h", "Ac 8c", "Kh Ks", "3d 3s", "6c 7d")
	bd := cards.MustParseList("2s 8d Qc")
	b.ReportAllocs()
	for b.Loop() {
		_ = parimutuel.Leaders(ps, bd)
	}
}
