package holdem

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
)

// TestBoardKernelAgainstSettlement checks the counting kernel behind
// EvaluateFlop against the state machine itself: for a few complete boards
// and pockets, the kernel's net of a called box (in antes) must equal the sum
// of the settled nets over all 990 dealer hands, played with a one-tiyn Ante.
func TestBoardKernelAgainstSettlement(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MinAnte = 1
	boards := []string{
		"2c 7d 9h Js Kc", // nothing on board
		"4c 4d 9h Js Kc", // board pair of fours: the dealer always qualifies
		"3c 3d 9h Js Kc", // board pair of threes: the qualifier is a dealer pair
		"Ah Kh Qh Jh Th", // royal flush on board: every called hand stays
		"5s 6s 7s 2d 2c", // flushes, straights, full houses
	}
	oddsOf := oddsTable(cfg.Ante)
	for _, bs := range boards {
		t.Run(bs, func(t *testing.T) {
			var b [5]cards.Card
			copy(b[:], cards.MustParseList(bs))
			used := cards.SetOf(b[:3]...)
			var rest []cards.Card
			for c := cards.Card(0); c < cards.NumCards; c++ {
				if !used.Has(c) {
					rest = append(rest, c)
				}
			}
			var k flopKernel
			if n := k.deal(b, rest, &oddsOf); n != 1081 {
				t.Fatalf("%d hands, want 1081", n)
			}
			k.board()
			for j := 0; j < 1081; j += 97 {
				p := [2]cards.Card{cards.Card(k.cx[j]), cards.Card(k.cy[j])}
				if got, want := k.net[j], bruteForce(t, cfg, b, p); got != want {
					t.Errorf("pocket %s %s: kernel %d antes, settlement %d", p[0], p[1], got, want)
				}
			}
		})
	}
}

func bruteForce(t *testing.T, cfg Config, b [5]cards.Card, p [2]cards.Card) int64 {
	t.Helper()
	used := cards.SetOf(b[:]...) | cards.SetOf(p[:]...)
	var sum int64
	dealers := 0
	for x := cards.Card(0); x < cards.NumCards; x++ {
		for y := x + 1; y < cards.NumCards; y++ {
			if used.Has(x) || used.Has(y) {
				continue
			}
			d := Deal{Pockets: [][2]cards.Card{p}, Dealer: [2]cards.Card{x, y}, Board: b}
			now := time.Unix(0, 0)
			h, err := Start(cfg, []Stake{{Ante: 1}}, d, now)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Decide(0, Call, now); err != nil {
				t.Fatal(err)
			}
			s, _ := h.Settlement()
			sum += int64(s.PlayerNet)
			dealers++
		}
	}
	if dealers != 990 {
		t.Fatalf("%d dealer hands", dealers)
	}
	return sum
}
