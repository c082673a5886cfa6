package odds_test

import (
	"slices"
	"testing"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/odds"
)

func TestLeaders(t *testing.T) {
	tests := []struct {
		name, board string
		pockets     [][2]cards.Card
		want        []int
	}{
		{"flop pair leads", "Qd 7h 2s", pockets("Ah Kd", "Qs Jh", "7c 6d"), []int{1}},
		{"flop kicker decides", "Qd 7h 2s", pockets("Qs Jh", "Qc Th"), []int{0}},
		{"flop tie", "Qd 7h 2s", pockets("Ah Kd", "As Kc", "3c 4d"), []int{0, 1}},
		{"turn changes the leader", "Qd 7h 2s 6c", pockets("Ah Kd", "Qs Jh", "7c 6d"), []int{2}},
		{"turn board plays", "Ah Kh Qh Jh", pockets("2c 3d", "4c 5d", "Th 2h"), []int{2}},
		{"river equals winners", "Qd 7h 2s 6c 7d", pockets("Ah Kd", "Qs Jh", "7c 6d"), []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := odds.Leaders(tt.pockets, cards.MustParseList(tt.board))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Leaders = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestWinners(t *testing.T) {
	tests := []struct {
		name, board string
		pockets     [][2]cards.Card
		want        []int
	}{
		{"one winner", "Qd 7h 2s 6c Kc", pockets("Ah Kd", "Qs Jh", "7c 6d"), []int{2}},
		{"board plays: everyone wins", "Ts Js Qs Ks As", pockets("2c 3c", "4d 5d", "6h 7h"), []int{0, 1, 2}},
		{"pair beats ace high", "2c 5d 9h Jc Kd", pockets("Ah Qd", "As Qc", "Kh 3c"), []int{2}},
		{"split pot on kickers", "2c 5d 9h Jc 8d", pockets("Ah Qd", "As Qc", "Kh 3c"), []int{0, 1}},
		{"chopped straight", "9c Td Jh Qs 2d", pockets("Kh 3c", "Kc 4d", "Ah Ad"), []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := odds.Winners(tt.pockets, cards.MustParseList(tt.board))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Winners = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLeadersInvalid(t *testing.T) {
	ps := pockets("Ah Kd", "Qs Qh")
	for _, board := range []string{"", "2c 3c", "2c 3c 4c 5c 6c 7c"} {
		if _, err := odds.Leaders(ps, cards.MustParseList(board)); errs.ReasonOf(err) != "WRONG_BOARD_SIZE" {
			t.Errorf("Leaders with board %q: error %v", board, err)
		}
	}
	if _, err := odds.Winners(ps, cards.MustParseList("2c 3c 4c 5c")); errs.ReasonOf(err) != "WRONG_BOARD_SIZE" {
		t.Errorf("Winners on a turn board: error %v", err)
	}
	if _, err := odds.Leaders(ps, cards.MustParseList("Ah 3c 4c")); errs.ReasonOf(err) != "DUPLICATE_CARD" {
		t.Errorf("Leaders with a duplicate: error %v", err)
	}
}

func TestValues(t *testing.T) {
	vals, err := odds.Values(pockets("Ah Kd", "Qs Qh"), cards.MustParseList("Qd 7h 2s"))
	if err != nil {
		t.Fatal(err)
	}
	if vals[0].Category() != hand.HighCard || vals[1].Category() != hand.ThreeOfAKind {
		t.Errorf("Values = %s, %s", vals[0].Describe(), vals[1].Describe())
	}
}
