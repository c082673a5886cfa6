package holdem_test

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/domain/money"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

const (
	ante  = 100 * money.KZT
	bonus = 50 * money.KZT
)

// dealOf builds a deal from card strings: one pocket per box ("AhKd"), the
// dealer's two cards and the five board cards.
func dealOf(t *testing.T, pockets []string, dealer, board string) holdem.Deal {
	t.Helper()
	var d holdem.Deal
	for _, p := range pockets {
		cs := mustCards(t, p, 2)
		d.Pockets = append(d.Pockets, [2]cards.Card{cs[0], cs[1]})
	}
	copy(d.Dealer[:], mustCards(t, dealer, 2))
	copy(d.Board[:], mustCards(t, board, 5))
	return d
}

func mustCards(t *testing.T, s string, n int) []cards.Card {
	t.Helper()
	cs, err := cards.ParseList(s)
	if err != nil || len(cs) != n {
		t.Fatalf("cards %q: want %d cards, got %v (%v)", s, n, cs, err)
	}
	return cs
}

func start(t *testing.T, stakes []holdem.Stake, d holdem.Deal) *holdem.Hand {
	t.Helper()
	h, err := holdem.Start(holdem.DefaultConfig(), stakes, d, t0)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return h
}

func settlement(t *testing.T, h *holdem.Hand) holdem.Settlement {
	t.Helper()
	s, ok := h.Settlement()
	if !ok {
		t.Fatalf("hand not settled (phase %s)", h.Phase())
	}
	return s
}
