package graph

import (
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// beaconStreetNames name the streets of a draw's beacon commitment.
var beaconStreetNames = [4]string{"pockets", "flop", "turn", "river"}

// toModelBeacons converts a draw's beacon commitment (nil for a version-1
// draw).
func toModelBeacons(b *tote.DrawBeacons) *model.Beacons {
	if b == nil {
		return nil
	}
	c := b.Chain
	out := &model.Beacons{
		Version: b.Version,
		Chain: &model.BeaconChain{Name: c.Name, Hash: c.Hash, Scheme: c.Scheme, PublicKey: c.PublicKey,
			Genesis: c.RoundTime(1), PeriodMs: int(c.PeriodMs)},
		Streets: make([]model.BeaconStreet, 4),
	}
	for i := range 4 {
		s := model.BeaconStreet{Name: beaconStreetNames[i], ClosesAt: b.ClosesAt[i], Round: int64(b.Rounds[i]),
			PublishedAt: c.RoundTime(b.Rounds[i]), Deadline: b.Deadlines[i]}
		if b.Signatures[i] != "" {
			s.Signature = ptrTo(b.Signatures[i])
		}
		out.Streets[i] = s
	}
	if b.Version >= tote.FairnessTerms {
		out.GapMs = ptrTo(int(b.GapMs))
	}
	if t := b.Terms; t != nil {
		out.Terms = &model.DrawTerms{
			Commission: model.Percent(t.Commission), ExpressShares: []model.Percent{model.Percent(t.ExpressShares[0]), model.Percent(t.ExpressShares[1])},
			JackpotRate: model.Percent(t.JackpotRate), JackpotEnabled: t.JackpotEnabled,
			MinStake: model.Money(t.MinStake), MaxStake: model.Money(t.MaxStake), SuspendAt: model.Percent(t.SuspendAt),
		}
	}
	return out
}
