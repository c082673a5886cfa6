package graph

import (
	"testing"
	"time"

	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

// TestDrawVoidedCarriesItsKind: a DRAW_VOIDED event says why as a typed
// field, LEGACY for a result from before kinds were recorded.
func TestDrawVoidedCarriesItsKind(t *testing.T) {
	for _, c := range []struct {
		result *tote.DrawResult
		want   model.VoidKind
	}{
		{&tote.DrawResult{Void: true, VoidDetail: &tote.VoidDetail{Kind: tote.VoidBeaconMissing}}, model.VoidKindBeaconMissing},
		{&tote.DrawResult{Void: true, VoidDetail: &tote.VoidDetail{Kind: tote.VoidAdminBeforeDeal}}, model.VoidKindAdminBeforeDeal},
		{&tote.DrawResult{Void: true}, model.VoidKindLegacy},
	} {
		ev := toModelTableEvent(tote.TableEvent{Seq: 4, TableID: 1, DrawID: 2, Type: tote.EventDrawVoided, At: time.Now(), Result: c.result})
		v, ok := ev.(*model.DrawVoided)
		if !ok || v.VoidKind != c.want || !v.VoidKind.IsValid() {
			t.Errorf("%+v: got %+v, want kind %s", c.result, ev, c.want)
		}
	}
}
