package app

import (
	"context"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
)

// batchRecorder is a broker that records how messages reached it.
type batchRecorder struct {
	singles int
	batches [][]event.Message
}

func (r *batchRecorder) Publish(context.Context, string, []byte) error { r.singles++; return nil }
func (r *batchRecorder) PublishBatch(_ context.Context, msgs []event.Message) error {
	r.batches = append(r.batches, msgs)
	return nil
}

// The observer in front of the broker hands a batch on as one batch (the
// bet intake's and the settlement's events: one Redis round trip, not one
// per message) and still observes the table events in it.
func TestTableObserverPassesBatchesOn(t *testing.T) {
	next := &batchRecorder{}
	o := newTableObserver(next)
	pool := tote.TableEvent{Type: tote.EventPoolUpdated, TableID: 7, At: time.Unix(1000, 0),
		Pool: &tote.PoolView{Round: 1, Market: parimutuel.MarketWin, Gross: 250 * money.KZT}}
	msgs := []event.Message{
		{Topic: event.UserTopic(3), Data: event.UserEvent{Type: event.BetAccepted, BetID: 1}.Encode()},
		{Topic: event.TableTopic(7), Data: pool.Encode()},
		{Topic: event.UserTopic(3), Data: event.UserEvent{Type: event.BalanceChanged, Balance: 5}.Encode()},
	}
	if err := event.PublishAll(context.Background(), o, msgs); err != nil {
		t.Fatal(err)
	}
	if next.singles != 0 || len(next.batches) != 1 || len(next.batches[0]) != len(msgs) {
		t.Fatalf("the broker got %d single messages and batches %v, want one batch of %d", next.singles, next.batches, len(msgs))
	}
	var m dto.Metric
	if err := o.poolGross.WithLabelValues("7", "1", "WIN").Write(&m); err != nil {
		t.Fatal(err)
	}
	if got := m.GetGauge().GetValue(); got != 250 {
		t.Fatalf("pool gauge %v, want 250", got)
	}
}
