package holdem_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
)

// TestSettleOneBox covers every way a box can end, with an Ante of 100 KZT
// (10 000 tiyn) and, where placed, a Bonus of 50 KZT (5 000 tiyn).
func TestSettleOneBox(t *testing.T) {
	tests := []struct {
		name                           string
		pocket, dealer, board          string
		bonus                          money.Amount
		decision                       holdem.Decision
		qualifies                      bool
		outcome                        holdem.Outcome
		category, bonusCategory        hand.Category
		anteRet, betRet, bonusRet, net money.Amount
	}{
		{
			name:   "fold loses the ante",
			pocket: "7c2d", dealer: "AsKs", board: "3h 8d Jc 5s Qh",
			decision: holdem.Fold, qualifies: false, outcome: holdem.OutcomeFold,
			category: hand.HighCard, bonusCategory: hand.HighCard,
			net: -ante,
		},
		{
			name:   "dealer without a hand pays the ante 1:1 and returns the bet",
			pocket: "AhKh", dealer: "7c2d", board: "3h 8d Jc 5s Qs",
			decision: holdem.Call, outcome: holdem.OutcomeDealerNotQualified,
			category: hand.HighCard, bonusCategory: hand.HighCard,
			anteRet: 2 * ante, betRet: 2 * ante, net: ante,
		},
		{
			name:   "a pair of threes does not qualify even when it beats the player",
			pocket: "AhKh", dealer: "3c9d", board: "3h 8d Jc 5s Qs",
			decision: holdem.Call, outcome: holdem.OutcomeDealerNotQualified,
			category: hand.HighCard, bonusCategory: hand.HighCard,
			anteRet: 2 * ante, betRet: 2 * ante, net: ante,
		},
		{
			name:   "dealer not qualified, player's full house paid 3:1",
			pocket: "8c8s", dealer: "Kc2d", board: "8h 3d Jc 3c Qh",
			decision: holdem.Call, outcome: holdem.OutcomeDealerNotQualified,
			category: hand.FullHouse, bonusCategory: hand.ThreeOfAKind,
			anteRet: 4 * ante, betRet: 2 * ante, net: 3 * ante,
		},
		{
			name:   "the least qualifying pair of fours loses to aces",
			pocket: "AhAd", dealer: "4c9d", board: "4h 8d Jc 2s Qs",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeWin,
			category: hand.Pair, bonusCategory: hand.Pair,
			anteRet: 2 * ante, betRet: 4 * ante, net: 3 * ante,
		},
		{
			name:   "a winning flush is paid 2:1 on the ante, 1:1 on the bet",
			pocket: "Ah9h", dealer: "KcKd", board: "3h 8h Jh 5s Qc",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeWin,
			category: hand.Flush, bonusCategory: hand.Flush,
			anteRet: 3 * ante, betRet: 4 * ante, net: 4 * ante,
		},
		{
			name:   "a winning royal flush is paid 100:1 on the ante",
			pocket: "AhKh", dealer: "QcQd", board: "Qh Jh Th 5s 2c",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeWin,
			category: hand.RoyalFlush, bonusCategory: hand.RoyalFlush,
			anteRet: 101 * ante, betRet: 4 * ante, net: 102 * ante,
		},
		{
			name:   "dealer higher takes ante and bet",
			pocket: "QcJd", dealer: "KcKd", board: "3h 8d 2c 5s 9h",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeLose,
			category: hand.HighCard, bonusCategory: hand.HighCard,
			net: -3 * ante,
		},
		{
			name:   "same kicker decides: dealer's ace beats the player's king",
			pocket: "Kh2c", dealer: "Ad3c", board: "9h 9d Tc 6s 7h",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeLose,
			category: hand.Pair, bonusCategory: hand.Pair,
			net: -3 * ante,
		},
		{
			name:   "identical best fives stay: ante and bet returned",
			pocket: "Qc2d", dealer: "Qh3d", board: "5c 5d 9h 9s Kc",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeStay,
			category: hand.TwoPair, bonusCategory: hand.Pair,
			anteRet: ante, betRet: 2 * ante, net: 0,
		},
		{
			name:   "the board plays for both: stay",
			pocket: "2c3d", dealer: "2h3s", board: "Ah Kh Qh Jh Th",
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeStay,
			category: hand.RoyalFlush, bonusCategory: hand.HighCard,
			anteRet: ante, betRet: 2 * ante, net: 0,
		},
		{
			name:   "bonus paid after a fold: three aces on the first five, 7:1",
			pocket: "AhAd", dealer: "KcKd", board: "Ac 7d 2s 9h Jc", bonus: bonus,
			decision: holdem.Fold, qualifies: true, outcome: holdem.OutcomeFold,
			category: hand.ThreeOfAKind, bonusCategory: hand.ThreeOfAKind,
			bonusRet: 8 * bonus, net: -ante + 7*bonus,
		},
		{
			name:   "bonus on the least pair of aces A-A-4-3-2",
			pocket: "Ah2d", dealer: "9c9d", board: "Ac 3s 4h 9h Jc", bonus: bonus,
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeLose,
			category: hand.Pair, bonusCategory: hand.Pair,
			bonusRet: 8 * bonus, net: -3*ante + 7*bonus,
		},
		{
			name:   "bonus not paid on a pair of kings",
			pocket: "KhKs", dealer: "7c2d", board: "Kc 7d 2s 9h Jc", bonus: bonus,
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeWin,
			category: hand.ThreeOfAKind, bonusCategory: hand.ThreeOfAKind,
			anteRet: 2 * ante, betRet: 4 * ante, bonusRet: 8 * bonus, net: 3*ante + 7*bonus,
		},
		{
			name:   "bonus not paid below aces: pair of kings, later trips do not count",
			pocket: "KhQd", dealer: "7c2d", board: "Kc 8d 3s Ks Jc", bonus: bonus,
			decision: holdem.Call, qualifies: true, outcome: holdem.OutcomeWin,
			category: hand.ThreeOfAKind, bonusCategory: hand.Pair,
			anteRet: 2 * ante, betRet: 4 * ante, net: 3*ante - bonus,
		},
		{
			name:   "bonus not paid when the second ace comes on the turn",
			pocket: "Ah7d", dealer: "KcKd", board: "2c 3s 9h Ad Jc", bonus: bonus,
			decision: holdem.Fold, qualifies: true, outcome: holdem.OutcomeFold,
			category: hand.Pair, bonusCategory: hand.HighCard,
			net: -ante - bonus,
		},
		{
			name:   "bonus royal flush 100:1",
			pocket: "AhKh", dealer: "2c2d", board: "Qh Jh Th 5s 3c", bonus: bonus,
			decision: holdem.Call, qualifies: false, outcome: holdem.OutcomeDealerNotQualified,
			category: hand.RoyalFlush, bonusCategory: hand.RoyalFlush,
			anteRet: 101 * ante, betRet: 2 * ante, bonusRet: 101 * bonus, net: 100*ante + 100*bonus,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, []holdem.Stake{{Ante: ante, Bonus: tc.bonus}}, dealOf(t, []string{tc.pocket}, tc.dealer, tc.board))
			if err := h.Decide(0, tc.decision, t0.Add(5e9)); err != nil {
				t.Fatalf("Decide: %v", err)
			}
			s := settlement(t, h)
			b := s.Boxes[0]
			if s.DealerQualifies != tc.qualifies && tc.outcome != holdem.OutcomeFold {
				t.Errorf("dealer qualifies = %v (%s), want %v", s.DealerQualifies, s.Dealer.Description, tc.qualifies)
			}
			if b.Outcome != tc.outcome {
				t.Errorf("outcome = %s, want %s", b.Outcome, tc.outcome)
			}
			if b.Hand.Category != tc.category || b.BonusHand.Category != tc.bonusCategory {
				t.Errorf("categories = %v / %v (%s / %s), want %v / %v", b.Hand.Category, b.BonusHand.Category,
					b.Hand.Description, b.BonusHand.Description, tc.category, tc.bonusCategory)
			}
			if b.AnteReturn != tc.anteRet || b.BetReturn != tc.betRet || b.BonusReturn != tc.bonusRet {
				t.Errorf("returns ante/bet/bonus = %s/%s/%s, want %s/%s/%s",
					b.AnteReturn, b.BetReturn, b.BonusReturn, tc.anteRet, tc.betRet, tc.bonusRet)
			}
			wantBet := money.Amount(0)
			if tc.decision == holdem.Call {
				wantBet = 2 * ante
			}
			if b.Bet != wantBet {
				t.Errorf("bet = %s, want %s", b.Bet, wantBet)
			}
			if b.Net() != tc.net || s.PlayerNet != tc.net || s.HouseNet != -tc.net {
				t.Errorf("net = %s, player %s, house %s; want %s", b.Net(), s.PlayerNet, s.HouseNet, tc.net)
			}
			if b.Hand.Description == "" || s.Dealer.Description == "" {
				t.Errorf("missing hand descriptions: %+v", b.Hand)
			}
		})
	}
}
