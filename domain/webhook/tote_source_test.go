package webhook_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/domain/webhook"
)

func TestMessageOfTableEvents(t *testing.T) {
	at := time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC)
	void := tote.TableEvent{Seq: 9, TableID: 2, DrawID: 41, Type: tote.EventDrawVoided, At: at, Result: &tote.DrawResult{
		DrawID: 41, TableID: 2, Number: 7, Void: true, VoidReason: "an operator's note", VoidDetail: &tote.VoidDetail{Kind: tote.VoidBeaconMissing},
	}}
	settled := tote.TableEvent{Seq: 10, TableID: 2, DrawID: 42, Type: tote.EventDrawSettled, At: at, Result: &tote.DrawResult{
		DrawID: 42, TableID: 2, Number: 8, Winners: []int{3},
		Pools: []tote.PoolResult{{PoolID: "42:1:WIN", Round: 1, Market: "WIN", Winning: []string{"3"},
			Categories: []tote.ResultCategory{{Category: 0, Coef: money.Coef(235)}}}},
	}}
	for _, c := range []struct {
		ev   tote.TableEvent
		typ  webhook.Type
		want func(t *testing.T, d webhook.DrawData)
	}{
		{void, webhook.DrawVoided, func(t *testing.T, d webhook.DrawData) {
			if d.VoidKind == nil || *d.VoidKind != tote.VoidBeaconMissing || d.Number != 7 || len(d.Winners) != 0 {
				t.Errorf("voided: %+v", d)
			}
		}},
		{settled, webhook.DrawSettled, func(t *testing.T, d webhook.DrawData) {
			if d.VoidKind != nil || d.Winners[0] != 3 || len(d.Pools) != 1 || d.Pools[0].Coefficients[0].Coefficient != "2.35" {
				t.Errorf("settled: %+v", d)
			}
		}},
	} {
		m := webhook.MessageOf(c.ev)
		if m.Type != c.typ || m.ID != webhook.EventID(2, c.ev.Seq) || m.Seq != c.ev.Seq || m.TableID != 2 {
			t.Fatalf("message %+v", m)
		}
		var d webhook.DrawData
		if err := json.Unmarshal(m.Data, &d); err != nil {
			t.Fatal(err)
		}
		c.want(t, d)
	}
	for _, typ := range []tote.EventType{tote.EventTablePaused, tote.EventTableResumed} {
		m := webhook.MessageOf(tote.TableEvent{Seq: 3, TableID: 5, Type: typ, At: at})
		var d webhook.TableData
		if m.Type != webhook.TableChanged || json.Unmarshal(m.Data, &d) != nil || d.TableID != 5 || d.Status == "" {
			t.Errorf("%s: %+v", typ, m)
		}
	}
	if m := webhook.MessageOf(tote.TableEvent{Seq: 4, TableID: 5, Type: tote.EventOddsUpdated, At: at}); m.Type != "" || m.Data != nil {
		t.Errorf("odds became %+v", m)
	}
}
