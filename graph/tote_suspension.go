package graph

import (
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// toModelRoundChances renders what a round opened with (SPEC 1.9), each
// selection flagged suspended at the draw's SUSPEND_AT.
func toModelRoundChances(rc tote.RoundChances, at money.BasisPoints) model.RoundChances {
	out := model.RoundChances{Round: model.BettingRound(rc.Round.String()), SuspendAt: model.Percent(at), Chances: make([]model.SelectionChance, len(rc.Chances))}
	for i, c := range rc.Chances {
		out.Chances[i] = model.SelectionChance{Market: model.Market(c.Market), Selection: c.Selection, Paid: c.Paid, Of: c.Of,
			Probability: c.Probability(), Suspended: c.SuspendedAt(at)}
	}
	return out
}

// toModelChances renders every round's chances; never nil.
func toModelChances(rcs []tote.RoundChances, at money.BasisPoints) []model.RoundChances {
	if at == 0 {
		at = tote.SuspendAtMax
	}
	out := make([]model.RoundChances, len(rcs))
	for i, rc := range rcs {
		out[i] = toModelRoundChances(rc, at)
	}
	return out
}

// toModelOpenChances renders the chances of one round, or nil.
func toModelOpenChances(rc *tote.RoundChances, at money.BasisPoints) *model.RoundChances {
	if rc == nil || rc.Round == 0 || rc.Round > parimutuel.RoundTurn {
		return nil
	}
	if at == 0 {
		at = tote.SuspendAtMax
	}
	return ptrTo(toModelRoundChances(*rc, at))
}
