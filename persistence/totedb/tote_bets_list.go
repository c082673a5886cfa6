package totedb

import (
	"context"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/tote"
)

// minBetScan is the fewest rows one step of a bet listing filtered by
// status reads: the filter may drop rows SQL could not rule out, and a few
// bigger reads beat many one-row ones. Without it every row SQL returns
// matches, and one read of the page's size is the whole listing.
const minBetScan = 50

// Bets implements tote.Store: a keyset scan of the player's bets newest
// (or, for a backward page, oldest) first on the index tote_bets_user. SQL
// narrows it by draw, table and market, and by status as far as the stored
// row decides it; a bet whose status its selection's rate decides is kept
// or dropped in Go by q.Matches, the domain's one rule, so the scan reads
// on from the last row it saw until the page is full or the player's bets
// run out. The cursor is still a bet id: a filtered page continues its
// filtered list.
func (r *Repo) Bets(ctx context.Context, q tote.BetQuery) ([]tote.Bet, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	rd, done := r.read(ctx)
	defer done()
	out := make([]tote.Bet, 0, max(q.Limit, 0))
	before, after := q.Before, q.After
	for len(out) < q.Limit {
		step := q.Limit - len(out)
		if q.Status != "" {
			step = max(step, r.betScan) // only the status can drop rows here
		}
		db := betFilters(rd.Where("user_id = ?", int64(q.UserID)), q).Order(idOrder(q.Oldest)).Limit(step)
		if before != 0 {
			db = db.Where("id < ?", before)
		}
		if after != 0 {
			db = db.Where("id > ?", after)
		}
		bets, err := findBets(db)
		if err != nil {
			return nil, err
		}
		for _, b := range bets {
			if q.Matches(b) && len(out) < q.Limit {
				out = append(out, b)
			}
		}
		if len(bets) < step {
			break
		}
		if last := bets[len(bets)-1].ID; q.Oldest {
			after = last
		} else {
			before = last
		}
	}
	return out, nil
}

// betFilters adds q's filters to a read of tote_bets_rated. The status
// condition is a superset of the bets q.Matches keeps: a row's own status
// decides unless it is ACCEPTED and its selection has a rate (the rate's
// columns are NOT NULL, so rate_refund is null exactly when there is none);
// such a bet is refunded by a refund rate, and won or lost by what the
// rate pays its stake, which only Go computes.
func betFilters(db *gorm.DB, q tote.BetQuery) *gorm.DB {
	if q.DrawID != 0 {
		db = db.Where("draw_id = ?", q.DrawID)
	}
	if q.TableID != 0 {
		db = db.Where("table_id = ?", q.TableID)
	}
	if q.Market != "" {
		db = db.Where("market = ?", string(q.Market))
	}
	switch q.Status {
	case "":
	case tote.BetAccepted:
		db = db.Where("status = ? AND rate_refund IS NULL", string(tote.BetAccepted))
	case tote.BetRefunded:
		db = db.Where("(status = ? OR (status = ? AND rate_refund = 1))", string(tote.BetRefunded), string(tote.BetAccepted))
	case tote.BetWon:
		// A rate pays nothing without a positive coefficient.
		db = db.Where("(status = ? OR (status = ? AND rate_refund = 0 AND (rate_coef1 > 0 OR rate_coef2 > 0)))", string(tote.BetWon), string(tote.BetAccepted))
	case tote.BetLost:
		db = db.Where("(status = ? OR (status = ? AND rate_refund = 0))", string(tote.BetLost), string(tote.BetAccepted))
	default:
		// Validate refused it; should it not have, an unknown status
		// lists nothing rather than everything.
		db = db.Where("1 = 0")
	}
	return db
}
