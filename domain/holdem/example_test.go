package holdem_test

import (
	"fmt"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
)

// A player puts an Ante of 100 KZT and a Bonus of 25 KZT on one box. The
// first five cards (Ah Kh + Ac 7h 2h) hold a pair of aces: the Bonus wins
// 7:1 whatever happens next. The player calls (Bet 200 KZT); the river makes
// a heart flush, which beats the dealer's qualifying pair of kings: the Ante
// is paid 2:1 for the flush and the Bet 1:1.
func Example() {
	c := cards.MustParseList
	deal := holdem.Deal{
		Pockets: [][2]cards.Card{[2]cards.Card(c("Ah Kh"))},
		Dealer:  [2]cards.Card(c("Kc Kd")),
		Board:   [5]cards.Card(c("Ac 7h 2h 9s Qh")),
	}
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	h, err := holdem.Start(holdem.DefaultConfig(), []holdem.Stake{{Ante: 100 * money.KZT, Bonus: 25 * money.KZT}}, deal, start)
	if err != nil {
		panic(err)
	}
	v := h.View()
	fmt.Printf("box 1 sees %s on %s; box 1 decides by %s\n", cards.Format(v.Boxes[0].Pocket), cards.Format(v.Board), v.Deadline.Format(time.TimeOnly))
	if err := h.Decide(0, holdem.Call, start.Add(12*time.Second)); err != nil {
		panic(err)
	}
	s, _ := h.Settlement()
	b := s.Boxes[0]
	fmt.Printf("dealer %s: %s, qualifies %v\n", cards.Format(h.View().Dealer), s.Dealer.Description, s.DealerQualifies)
	fmt.Printf("box 1 %s: %s -> %s\n", b.Decision, b.Hand.Description, b.Outcome)
	fmt.Printf("ante  %7s returns %7s\n", b.Stake.Ante, b.AnteReturn)
	fmt.Printf("bet   %7s returns %7s\n", b.Bet, b.BetReturn)
	fmt.Printf("bonus %7s returns %7s (%s)\n", b.Stake.Bonus, b.BonusReturn, b.BonusHand.Description)
	fmt.Printf("player %s, house %s\n", s.PlayerNet, s.HouseNet)
	for _, l := range h.Legs() {
		fmt.Printf("%-6s %s -> %s %s\n", l.Kind, l.From, l.To, l.Amount)
	}
	// Output:
	// box 1 sees Ah Kh on Ac 7h 2h; box 1 decides by 12:00:30
	// dealer Kc Kd: Pair, kings, qualifies true
	// box 1 CALL: Flush, ace high -> WIN
	// ante   100.00 returns  300.00
	// bet    200.00 returns  400.00
	// bonus   25.00 returns  200.00 (Pair, aces)
	// player 575.00, house -575.00
	// ANTE   PLAYER_WALLET -> HOUSE_BANK 100.00
	// BONUS  PLAYER_WALLET -> HOUSE_BANK 25.00
	// BET    PLAYER_WALLET -> HOUSE_BANK 200.00
	// PAYOUT HOUSE_BANK -> PLAYER_WALLET 900.00
}
