package graph

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/graph/model"
)

const (
	// resultsPage is how many outbox events a results stream reads at once.
	resultsPage = 200
	// resultsRecheck bounds how long a results stream goes without
	// reading the outbox when it hears nothing (a missed wake-up).
	resultsRecheck = 10 * time.Second
)

// ResultEvents resolves Subscription.results: the table's DRAW_SETTLED and
// DRAW_VOIDED events read from the outbox after afterSeq (the table's last
// event when absent), woken by the table's live events.
func (a *ToteAPI) ResultEvents(ctx context.Context, tableID string, afterSeq *int64) (<-chan model.TableEvent, error) {
	n, err := parseID(tableID, "table")
	if err != nil {
		return nil, err
	}
	t, err := a.svc.Table(ctx, n)
	if err != nil {
		return nil, err
	}
	last := t.LastSeq
	if afterSeq != nil {
		if *afterSeq < 0 || *afterSeq > t.LastSeq {
			return nil, errs.R(errs.Invalid, ReasonInvalidSeq, "afterSeq %d is not in the table's stream (its last event is %d)", *afterSeq, t.LastSeq)
		}
		if err := a.svc.ResumeFrom(ctx, n, *afterSeq); err != nil {
			return nil, err
		}
		last = *afterSeq
	}
	out := make(chan model.TableEvent, 1)
	go a.streamResults(ctx, n, last, out)
	return out, nil
}

func (a *ToteAPI) streamResults(ctx context.Context, table, last int64, out chan<- model.TableEvent) {
	defer close(out)
	sub := a.live.Subscribe(table, 16)
	defer func() { sub.Close() }()
	recheck := time.NewTimer(0)
	defer recheck.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-sub.C:
			if e == nil || (e.Type != tote.EventDrawSettled && e.Type != tote.EventDrawVoided) {
				continue
			}
		case <-sub.Done(): // overflowed or closed: hear the table anew
			sub = a.live.Subscribe(table, 16)
		case <-recheck.C:
		}
		var ok bool
		if last, ok = a.sendResults(ctx, table, last, out); !ok {
			return
		}
		recheck.Reset(resultsRecheck)
	}
}

// sendResults sends every result after last in the outbox and returns the
// seq it read to; ok is false when the stream must end.
func (a *ToteAPI) sendResults(ctx context.Context, table, last int64, out chan<- model.TableEvent) (int64, bool) {
	for {
		evs, err := a.svc.EventsAfter(ctx, table, last, resultsPage)
		if err != nil {
			return last, ctx.Err() == nil // a read error: try again at the next wake-up
		}
		for _, e := range evs {
			if e.Type == tote.EventDrawSettled || e.Type == tote.EventDrawVoided {
				select {
				case out <- toModelTableEvent(e):
				case <-ctx.Done():
					return last, false
				}
			}
			last = e.Seq
		}
		if len(evs) < resultsPage {
			return last, true
		}
	}
}
