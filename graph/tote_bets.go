package graph

import (
	"context"
	"slices"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// BetFilter is the filter arguments myBets and playerBets share, as the
// schema has them; nil is no filter.
type BetFilter struct {
	DrawID, TableID *string
	Market          *model.Market
	Status          *model.BetStatus
}

// apply sets the filter on q; a malformed id is refused with INVALID_ID.
// The enums map by name onto the domain's, which refuses a value it does
// not know (tote.BetQuery.Validate).
func (f BetFilter) apply(q *tote.BetQuery) error {
	var err error
	if f.DrawID != nil {
		if q.DrawID, err = parseID(*f.DrawID, "draw"); err != nil {
			return err
		}
	}
	if f.TableID != nil {
		if q.TableID, err = parseID(*f.TableID, "table"); err != nil {
			return err
		}
	}
	if f.Market != nil {
		q.Market = parimutuel.Market(*f.Market)
	}
	if f.Status != nil {
		q.Status = tote.BetStatus(*f.Status)
	}
	return nil
}

// MyBets resolves Query.myBets: the viewer's bets, newest first, filtered.
func (a *ToteAPI) MyBets(ctx context.Context, first *int, after *string, last *int, before *string, f BetFilter) (*model.BetConnection, error) {
	v, err := RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	return a.betsOf(ctx, v.UserID, first, after, last, before, f)
}

// PlayerBets resolves Query.playerBets (admins): the player's bets as
// myBets lists them, with the same filters.
func (a *ToteAPI) PlayerBets(ctx context.Context, userID string, first *int, after *string, last *int, before *string, f BetFilter) (*model.BetConnection, error) {
	uid, err := parseID(userID, "user")
	if err != nil {
		return nil, err
	}
	return a.betsOf(ctx, uid, first, after, last, before, f)
}

// betsOf reads one page of a player's filtered bets. The store filters
// before it pages, so the cursors (bet ids) continue the filtered list.
func (a *ToteAPI) betsOf(ctx context.Context, userID int64, first *int, after *string, last *int, before *string, f BetFilter) (*model.BetConnection, error) {
	pr, cur, err := pageArgs(first, after, last, before)
	if err != nil {
		return nil, err
	}
	limit := pr.size
	q := tote.BetQuery{UserID: ids.UserID(userID), Before: cur, Limit: limit + 1} // one more tells whether a next page exists
	if pr.backward {
		q.Before, q.After, q.Oldest = 0, cur, true
	}
	if err := f.apply(&q); err != nil {
		return nil, err
	}
	bets, err := a.svc.Bets(ctx, q)
	if err != nil {
		return nil, err
	}
	more := len(bets) > limit
	bets = bets[:min(len(bets), limit)]
	if pr.backward {
		slices.Reverse(bets) // read oldest first, listed newest first
	}
	if selects(ctx, "edges", "node", "draw") {
		ids := make([]int64, len(bets))
		for i, b := range bets {
			ids[i] = b.DrawID
		}
		prefetchDraws(ctx, ids)
	}
	out := &model.BetConnection{Edges: make([]model.BetEdge, len(bets))}
	for i, b := range bets {
		out.Edges[i] = model.BetEdge{Cursor: idCursor(b.ID), Node: toModelBet(b)}
	}
	out.PageInfo = edgesInfo(pr, out.Edges, func(e model.BetEdge) string { return e.Cursor }, more)
	return out, nil
}
