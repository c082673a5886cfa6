package graph

import (
	"encoding/hex"
	"math"
	"strconv"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/hand"
	"github.com/pokertote/pokertote/domain/holdem"
	"github.com/pokertote/pokertote/graph/model"
)

func cardStrings(cs []cards.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func toModelRanked(r holdem.Ranked) *model.HandInfo {
	return &model.HandInfo{Category: model.HandCategory(r.Category.String()), Description: r.Description, Cards: cardStrings(r.Best[:])}
}

// toModelHoldemHand converts a hand as its player may see it. Everything the
// View hides stays hidden: a box's cards before its turn, the dealer's cards,
// the turn and river, the result and the server seed until settled.
func toModelHoldemHand(sn holdem.Snapshot) *model.HoldemHand {
	v := sn.View
	publicSeed := hex.EncodeToString(sn.PublicSeed())
	out := &model.HoldemHand{
		ID:          strconv.FormatInt(sn.ID, 10),
		Phase:       model.HoldemPhase(v.Phase),
		Board:       cardStrings(v.Board),
		DealerCards: cardStrings(v.Dealer),
		Shuffle:     &model.Shuffle{Commitment: cards.FormatCommitment(sn.Commitment), PublicSeed: &publicSeed},
		TotalStake:  model.Money(sn.Staked),
		CreatedAt:   sn.CreatedAt,
		Boxes:       make([]model.HoldemBox, len(v.Boxes)),
	}
	if sn.Cut != "" {
		cut := sn.Cut
		out.Cut = &cut
	}
	if v.Phase == holdem.Deciding {
		turn, deadline := v.Turn+1, v.Deadline
		out.Turn, out.DecisionDeadline = &turn, &deadline
	}
	for i, b := range v.Boxes {
		mb := model.HoldemBox{
			Index: i + 1, Ante: model.Money(b.Stake.Ante), Bonus: model.Money(b.Stake.Bonus), Bet: model.Money(b.Bet),
			TimedOut: b.TimedOut, Cards: cardStrings(b.Pocket),
		}
		if b.Decision != holdem.Undecided {
			d := model.HoldemDecision(b.Decision)
			mb.Decision = &d
		}
		out.Boxes[i] = mb
	}
	if s := v.Settlement; s != nil {
		for _, b := range s.Boxes {
			mb := &out.Boxes[b.Box]
			o := model.HoldemOutcome(b.Outcome)
			mb.Outcome = &o
			mb.Hand, mb.BonusHand = toModelRanked(b.Hand), toModelRanked(b.BonusHand)
			mb.AnteReturn, mb.BetReturn, mb.BonusReturn = moneyPtr(b.AnteReturn), moneyPtr(b.BetReturn), moneyPtr(b.BonusReturn)
		}
		q := s.DealerQualifies
		out.DealerHand, out.DealerQualifies = toModelRanked(s.Dealer), &q
		out.TotalReturn, out.Net = moneyPtr(sn.Returned), moneyPtr(sn.Returned-sn.Staked)
		settled := sn.SettledAt
		out.SettledAt = &settled
	}
	if sn.ServerSeed != nil {
		seed := sn.ServerSeed.Hex()
		out.Shuffle.ServerSeed = &seed
	}
	return out
}

func toModelPaytable(p holdem.Paytable) []model.PaytableLine {
	var out []model.PaytableLine
	for c := hand.RoyalFlush; ; c-- {
		if odds := p.Odds(c); odds > 0 {
			out = append(out, model.PaytableLine{Category: model.HandCategory(c.String()), Odds: int(odds)})
		}
		if c == hand.HighCard {
			return out
		}
	}
}

func toModelHoldemSettings(c holdem.Config) *model.HoldemSettings {
	return &model.HoldemSettings{
		MinAnte: model.Money(c.MinAnte), MaxAnte: model.Money(c.MaxAnte), MaxBonus: model.Money(c.MaxBonus),
		DecisionSeconds: int(math.Ceil(c.DecisionTimeout.Seconds())),
		AntePaytable:    toModelPaytable(c.Ante), BonusPaytable: toModelPaytable(c.Bonus),
	}
}
