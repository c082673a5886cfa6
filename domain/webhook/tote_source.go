package webhook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pokertote/pokertote/domain/tote"
)

// ToteReader is what ToteSource reads of the totalizator's store.
type ToteReader interface {
	Tables(ctx context.Context) ([]tote.Table, error)
	Table(ctx context.Context, id int64) (tote.Table, error)
	EventsAfter(ctx context.Context, tableID, after int64, limit int) ([]tote.TableEvent, error)
}

// ToteSource is the Source over the totalizator's per-table outbox.
type ToteSource struct {
	Store ToteReader
}

var _ Source = ToteSource{}

// Tables implements Source.
func (s ToteSource) Tables(ctx context.Context) ([]TableHead, error) {
	ts, err := s.Store.Tables(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]TableHead, len(ts))
	for i, t := range ts {
		out[i] = TableHead{TableID: t.ID, LastSeq: t.LastSeq}
	}
	return out, nil
}

// After implements Source.
func (s ToteSource) After(ctx context.Context, tableID, after int64, limit int) ([]Message, error) {
	evs, err := s.Store.EventsAfter(ctx, tableID, after, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(evs))
	for i, e := range evs {
		out[i] = MessageOf(e)
	}
	return out, nil
}

// Created implements Source.
func (s ToteSource) Created(ctx context.Context, tableID int64) (Message, error) {
	t, err := s.Store.Table(ctx, tableID)
	if err != nil {
		return Message{}, err
	}
	data := TableData{TableID: t.ID, Name: t.Name, Positions: t.Positions, Status: string(tote.TableRunning), CreatedAt: t.CreatedAt.UTC()}
	return Message{ID: EventID(t.ID, createdEventSeq), Type: TableCreated, Timestamp: t.CreatedAt.UTC(), Data: mustJSON(data), TableID: t.ID, Seq: createdEventSeq}, nil
}

// DrawData is the data of draw.settled and draw.voided: the draw, the typed
// void kind (null when settled), the winners and the published result as
// docs/fairness.md describes it (amounts in tiyn, rates in basis points).
type DrawData struct {
	TableID  int64              `json:"tableId"`
	DrawID   int64              `json:"drawId"`
	Number   int64              `json:"number"`
	At       time.Time          `json:"at"`
	VoidKind *tote.VoidKind     `json:"voidKind"`
	Winners  []int              `json:"winners"`
	Category string             `json:"category,omitempty"`
	Pools    []PoolCoefficients `json:"pools"`
	Result   *tote.DrawResult   `json:"result"`
}

// PoolCoefficients is one pool's outcome: the coefficient paid per winning
// hand category (WIN and EXPRESS pools have one), or refunded.
type PoolCoefficients struct {
	PoolID       string                `json:"poolId"`
	Round        int                   `json:"round"`
	Market       string                `json:"market"`
	Winning      []string              `json:"winning"`
	Refunded     bool                  `json:"refunded"`
	Coefficients []CategoryCoefficient `json:"coefficients"`
}

// CategoryCoefficient is a coefficient paid in a pool, by hand category
// index (0 where the pool has a single category), as a decimal string.
type CategoryCoefficient struct {
	Category    int    `json:"category"`
	Coefficient string `json:"coefficient"`
}

// TableData is the data of table.created and table.changed.
type TableData struct {
	TableID   int64     `json:"tableId"`
	Name      string    `json:"name,omitempty"`
	Positions int       `json:"positions,omitempty"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt,omitzero"`
	At        time.Time `json:"at,omitzero"`
}

// MessageOf turns a table event into its message; an event no endpoint can
// subscribe to becomes a message without a Type, which only moves cursors.
func MessageOf(e tote.TableEvent) Message {
	m := Message{ID: EventID(e.TableID, e.Seq), Timestamp: e.At.UTC(), TableID: e.TableID, Seq: e.Seq}
	switch e.Type {
	case tote.EventDrawSettled, tote.EventDrawVoided:
		m.Type = DrawSettled
		if e.Type == tote.EventDrawVoided {
			m.Type = DrawVoided
		}
		m.Data = mustJSON(drawData(e))
	case tote.EventTablePaused, tote.EventTableResumed:
		status := tote.TablePaused
		if e.Type == tote.EventTableResumed {
			status = tote.TableRunning
		}
		m.Type = TableChanged
		m.Data = mustJSON(TableData{TableID: e.TableID, Status: string(status), At: e.At.UTC()})
	}
	return m
}

func drawData(e tote.TableEvent) DrawData {
	d := DrawData{TableID: e.TableID, DrawID: e.DrawID, At: e.At.UTC(), Result: e.Result, Winners: []int{}, Pools: []PoolCoefficients{}}
	r := e.Result
	if r == nil {
		return d
	}
	d.Number = r.Number
	if r.Void {
		kind := tote.VoidLegacy
		if r.VoidDetail != nil {
			kind = r.VoidDetail.Kind
		}
		d.VoidKind = &kind
	} else {
		d.Category = r.Category.String()
	}
	if r.Winners != nil {
		d.Winners = r.Winners
	}
	for _, p := range r.Pools {
		pc := PoolCoefficients{PoolID: p.PoolID, Round: int(p.Round), Market: string(p.Market), Winning: p.Winning, Refunded: p.Refunded, Coefficients: []CategoryCoefficient{}}
		for _, c := range p.Categories {
			if c.Coef > 0 {
				pc.Coefficients = append(pc.Coefficients, CategoryCoefficient{Category: c.Category, Coefficient: c.Coef.String()})
			}
		}
		d.Pools = append(d.Pools, pc)
	}
	return d
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil { // plain structs of plain fields: cannot happen
		panic("webhook: encode data: " + err.Error())
	}
	return b
}
