package verify

import (
	"fmt"
	"github.com/pokertote/pokertote/domain/tote"
	"time"
)

// RecordedRound is one street's beacon round as a player recorded it from
// DRAW_OPENED (or the join snapshot) while the draw ran, with its close
// time when they noted it.
type RecordedRound struct {
	Round    uint64     `json:"round"`
	ClosesAt *time.Time `json:"closesAt,omitempty"`
}

// CheckRecordedRounds compares a result's beacon rounds (and close times)
// with the ones a player recorded, street by street: a river re-dealt on
// a later round, its close moved to fit, then fails even if everything
// else was recomputed to match (docs/fairness.md, section 7).
func CheckRecordedRounds(res tote.DrawResult, recorded []RecordedRound) []string {
	b := res.Beacons
	if b == nil {
		return []string{"beacon rounds: recorded, but the result publishes no beacons"}
	}
	var out []string
	for i, want := range recorded {
		if i >= 4 {
			break
		}
		if b.Rounds[i] != want.Round {
			out = append(out, fmt.Sprintf("beacon round of the %s: published %d, recorded %d", tote.StreetNames[i], b.Rounds[i], want.Round))
		}
		if want.ClosesAt != nil && !b.ClosesAt[i].Equal(*want.ClosesAt) {
			out = append(out, fmt.Sprintf("close of betting round %d: published %s, recorded %s", i+1, b.ClosesAt[i].Format(tote.TimeLayout), want.ClosesAt.UTC().Format(tote.TimeLayout)))
		}
	}
	return out
}
