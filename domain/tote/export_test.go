package tote

import (
	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// ChanceSourceOf is the enumeration round r opens with, as
// ChancesAtOpeningIn hands it to the markets' Chances.
func ChanceSourceOf(pockets [][2]cards.Card, board []cards.Card, r parimutuel.Round) parimutuel.ChanceSource {
	return &oddsSource{pockets: pockets, board: board, round: r}
}
