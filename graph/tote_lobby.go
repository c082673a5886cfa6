package graph

import (
	"context"
	"sync"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/tote/readmodel"
	"github.com/pokertote/pokertote/graph/model"
)

// The table queries read the read model (ToteAPI.Live) instead of the
// database: the lobby is asked for far more often than it changes. The
// converted current draw is cached per LiveTable (which the read model
// replaces on every event), so a query evaluates no hand and marshals no
// result that did not change.

// lobbyCache holds the converted current draw of each table.
type lobbyCache struct {
	mu     sync.Mutex
	draws  map[int64]cachedDraw
	tables map[int64]cachedTable
}

type cachedDraw struct {
	lt   *readmodel.LiveTable
	draw *model.Draw
}

type cachedTable struct {
	lt    *readmodel.LiveTable
	table *model.Table
}

func (c *lobbyCache) table(lt *readmodel.LiveTable) *model.Table {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables == nil {
		c.tables = map[int64]cachedTable{}
	}
	if e, ok := c.tables[lt.Table.ID]; ok && e.lt == lt {
		return e.table
	}
	m := toModelTable(lt.Table)
	c.tables[lt.Table.ID] = cachedTable{lt: lt, table: m}
	return m
}

func (c *lobbyCache) draw(lt *readmodel.LiveTable) *model.Draw {
	if lt.Draw == nil {
		return nil
	}
	c.mu.Lock()
	if e, ok := c.draws[lt.Table.ID]; ok && e.lt == lt {
		c.mu.Unlock()
		return e.draw
	}
	c.mu.Unlock()
	d := toModelDraw(*lt.Draw, lt.Table)
	if v := lt.View.Draw; v != nil && v.ID == lt.Draw.ID && v.BeaconDelay != nil {
		w := v.BeaconDelay
		d.BeaconDelay = &model.BeaconDelay{Street: model.Street(w.Street), Round: int64(w.Round), Since: w.Since, Deadline: w.Deadline}
	}
	c.mu.Lock()
	if c.draws == nil {
		c.draws = map[int64]cachedDraw{}
	}
	c.draws[lt.Table.ID] = cachedDraw{lt: lt, draw: d}
	c.mu.Unlock()
	return d
}

// liveTables lists the tables from the read model.
func (a *ToteAPI) liveTables() []model.Table {
	lts := a.live.Tables()
	out := make([]model.Table, len(lts))
	for i, lt := range lts {
		out[i] = *a.lobby.table(lt)
	}
	return out
}

// liveTable is one table from the read model; nil when there is none.
func (a *ToteAPI) liveTable(ctx context.Context, id int64) (*model.Table, error) {
	lt, err := a.live.Lookup(ctx, id)
	return nullIfNotFound(lt, err, func(lt *readmodel.LiveTable) (*model.Table, error) { return a.lobby.table(lt), nil })
}

// liveCurrentDraw is a table's current draw from the read model.
func (a *ToteAPI) liveCurrentDraw(ctx context.Context, id int64) (*model.Draw, error) {
	lt, err := a.live.Lookup(ctx, id)
	if errs.Is(err, errs.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return a.lobby.draw(lt), nil
}

// syncLive makes the read model reflect a change made through this replica
// before the mutation answers.
func (a *ToteAPI) syncLive(ctx context.Context, t tote.Table) {
	a.live.Sync(ctx, t)
}
