package holdem

import (
	"time"

	"github.com/pokertote/pokertote/domain/cards"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
)

// ShuffledDeal is the deal of a hand of boxes (1 or 2) from the provably fair
// shuffle of server and public seeds: cards.DealHoldem of cards.Shuffle. It
// is how every hand is dealt, and how a player checks a settled hand from
// its revealed seed and their cut.
func ShuffledDeal(server cards.Seed, public []byte, boxes int) Deal {
	d := cards.DealHoldem(cards.Shuffle(server, public), boxes)
	return Deal{Pockets: d.Boxes, Dealer: d.Dealer, Board: d.Board()}
}

// Replay rebuilds the Hand of a Record: it deals from the record's seed and
// cut, starts the hand at CreatedAt under the record's Config, and applies
// every recorded decision and the expiry at the times they happened. The
// Hand is a pure function of those inputs, so a replay always reaches the
// state the hand was stored in. A record that does not replay is Internal.
func Replay(r Record) (*Hand, error) {
	bad := func(err error) error {
		return &errs.Error{Code: errs.Internal, Reason: ReasonHandReplayFailed, Message: "a stored hand could not be rebuilt", Err: err}
	}
	if len(r.Stakes) < 1 || len(r.Stakes) > MaxBoxes {
		return nil, bad(errs.E(errs.Internal, "hand %d has %d boxes", r.ID, len(r.Stakes)))
	}
	h, err := Start(r.Config, r.Stakes, ShuffledDeal(r.ServerSeed, []byte(r.Cut), len(r.Stakes)), r.CreatedAt)
	if err != nil {
		return nil, bad(err)
	}
	for _, d := range r.Decisions {
		if err := h.Decide(d.Box, d.Decision, d.At); err != nil {
			return nil, bad(err)
		}
	}
	if !r.ExpiredAt.IsZero() && !h.Expire(r.ExpiredAt) {
		return nil, bad(errs.E(errs.Internal, "hand %d does not expire at %s", r.ID, r.ExpiredAt))
	}
	return h, nil
}

// record copies the state of h into the derived fields of r at now.
func (r *Record) record(h *Hand, now time.Time) {
	r.Phase = h.Phase()
	r.Deadline = h.Deadline()
	r.Staked, r.Returned = 0, 0
	for _, l := range h.Legs() {
		if l.To == HouseBank {
			r.Staked += l.Amount
		} else {
			r.Returned += l.Amount
		}
	}
	r.Settlement = nil
	if s, ok := h.Settlement(); ok {
		r.Settlement = &s
		if r.SettledAt.IsZero() {
			r.SettledAt = now
		}
	}
	r.UpdatedAt = now
}

// legsTotal sums the legs of the given kinds for one box (box < 0: all).
func legsTotal(legs []Leg, box int, kinds ...LegKind) money.Amount {
	var sum money.Amount
	for _, l := range legs {
		if box >= 0 && l.Box != box {
			continue
		}
		for _, k := range kinds {
			if l.Kind == k {
				sum += l.Amount
			}
		}
	}
	return sum
}
