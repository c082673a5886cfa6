package tote

import (
	"context"
	"log/slog"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// EventRetention is a Store whose outbox can be pruned: table events older
// than a configured age go once their draw is finished (SETTLED or VOID;
// the draw itself, its result and its bets stay forever). Pruning takes a
// prefix of each table's stream, so what remains is always the events from
// FirstRetainedSeq to the table's last.
type EventRetention interface {
	// FirstRetainedSeq is the lowest seq of the table's events still
	// stored: 1 when nothing was pruned; events 1..first-1 are gone.
	FirstRetainedSeq(ctx context.Context, tableID int64) (int64, error)
	// PruneEvents deletes, in every table, the longest run of events from
	// the first retained one that are older than before and belong to no
	// draw or to a finished one, at most batch per table, and returns how
	// many it deleted. Safe to run on several replicas at once.
	PruneEvents(ctx context.Context, before time.Time, batch int) (int, error)
}

// ResumeFrom checks that a client resuming a table's stream after afterSeq
// can be given every later event: BAD_USER_INPUT / EVENTS_PRUNED when some
// were pruned. A store without retention never prunes.
func ResumeFrom(ctx context.Context, store Store, tableID, afterSeq int64) error {
	r, ok := store.(EventRetention)
	if !ok {
		return nil
	}
	first, err := r.FirstRetainedSeq(ctx, tableID)
	if err != nil {
		return err
	}
	if afterSeq+1 < first {
		return errs.R(errs.Invalid, ReasonEventsPruned,
			"events 1 to %d of this table are no longer kept; subscribe without afterSeq (from now) or after %d", first-1, first-1)
	}
	return nil
}

// PrunableEvent says whether an event may be pruned: older than before, and
// of no draw or of a finished draw. Stores apply it when pruning.
func PrunableEvent(at, before time.Time, drawID int64, phase Phase) bool {
	return at.Before(before) && (drawID == 0 || phase.Finished())
}

// Pruner prunes the outbox periodically. Every replica may run one: the
// store's pruning is idempotent.
type Pruner struct {
	Store    EventRetention
	MaxAge   time.Duration // events older than this go (once their draw is finished)
	Interval time.Duration // between passes
	Batch    int           // events per table per statement; default 1000
	Now      func() time.Time
	Log      *slog.Logger
	// Pruned, when set, is told how many events each pass deleted.
	Pruned func(n int)
}

// Run prunes every Interval until ctx ends.
func (p *Pruner) Run(ctx context.Context) error {
	t := time.NewTicker(p.Interval)
	defer t.Stop()
	for {
		if _, err := p.Pass(ctx); err != nil && ctx.Err() == nil && p.Log != nil {
			p.Log.WarnContext(ctx, "outbox pruning failed; retrying next interval", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Pass prunes until nothing more is due (or ctx ends) and returns how many
// events it deleted.
func (p *Pruner) Pass(ctx context.Context) (int, error) {
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	batch := p.Batch
	if batch <= 0 {
		batch = 1000
	}
	before := now().Add(-p.MaxAge)
	total := 0
	for ctx.Err() == nil {
		n, err := p.Store.PruneEvents(ctx, before, batch)
		total += n
		if p.Pruned != nil && n > 0 {
			p.Pruned(n)
		}
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, ctx.Err()
}
