package holdem_test

import (
	"testing"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/errs/errstest"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
)

func TestDefaultConfigIsValidAndStandard(t *testing.T) {
	c := holdem.DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	ante := map[hand.Category]int64{hand.RoyalFlush: 100, hand.StraightFlush: 20, hand.FourOfAKind: 10,
		hand.FullHouse: 3, hand.Flush: 2, hand.Straight: 1, hand.ThreeOfAKind: 1, hand.TwoPair: 1, hand.Pair: 1, hand.HighCard: 1}
	bonus := map[hand.Category]int64{hand.RoyalFlush: 100, hand.StraightFlush: 50, hand.FourOfAKind: 40,
		hand.FullHouse: 30, hand.Flush: 20, hand.Straight: 7, hand.ThreeOfAKind: 7, hand.TwoPair: 7, hand.Pair: 7, hand.HighCard: 0}
	for cat, want := range ante {
		if got := c.Ante.Odds(cat); got != want {
			t.Errorf("ante odds for %v = %d, want %d", cat, got, want)
		}
		if got := c.Bonus.Odds(cat); got != bonus[cat] {
			t.Errorf("bonus odds for %v = %d, want %d", cat, got, bonus[cat])
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*holdem.Config)
	}{
		{"ante entry zero", func(c *holdem.Config) { c.Ante.HighCard = 0 }},
		{"ante entry too large", func(c *holdem.Config) { c.Ante.RoyalFlush = holdem.MaxOdds + 1 }},
		{"negative bonus entry", func(c *holdem.Config) { c.Bonus.Flush = -1 }},
		{"bonus paying high card", func(c *holdem.Config) { c.Bonus.HighCard = 1 }},
		{"zero minimum ante", func(c *holdem.Config) { c.MinAnte = 0 }},
		{"maximum below minimum", func(c *holdem.Config) { c.MaxAnte = c.MinAnte - 1 }},
		{"maximum ante too large", func(c *holdem.Config) { c.MaxAnte = holdem.MaxStake + 1 }},
		{"negative maximum bonus", func(c *holdem.Config) { c.MaxBonus = -1 }},
		{"maximum bonus too large", func(c *holdem.Config) { c.MaxBonus = holdem.MaxStake + 1 }},
		{"no decision timeout", func(c *holdem.Config) { c.DecisionTimeout = 0 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := holdem.DefaultConfig()
			tc.change(&c)
			errstest.Is(t, c.Validate(), errs.Invalid, "INVALID_CONFIG")
		})
	}
}
