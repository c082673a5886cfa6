package regfeed

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/report"
)

// Store keeps the feed. Any number of replicas may call Sequence at once:
// the store serialises them, so each transfer is derived once.
type Store interface {
	// Sequence reads the ledger's next committed transfers and the next
	// committed protection changes after the feed's cursors, each in
	// commit order (at most limit of each), and in one transaction
	// appends the records derive makes of them, numbered after the feed's
	// last, and moves the cursors past them. It returns how many transfers
	// and changes it read; an error from derive rolls everything back.
	Sequence(ctx context.Context, limit int, derive Derivers) (int, error)
	// After lists the records with Seq > seq, in order, at most limit.
	After(ctx context.Context, seq int64, limit int) ([]Record, error)
	// Pending counts the committed transfers and changes not read yet:
	// the feed's lag.
	Pending(ctx context.Context) (int64, error)
	// Between lists the records of the gaming days from..to with Seq >
	// afterSeq, in order, at most limit: an export's page.
	Between(ctx context.Context, from, to string, afterSeq int64, limit int) ([]Record, error)
	// Head is the last record's Seq (0 for none).
	Head(ctx context.Context) (int64, error)
	// Totals sums the records of the gaming days from..to (inclusive,
	// YYYY-MM-DD) by day and line.
	Totals(ctx context.Context, from, to string) ([]Line, error)
}

// Sequencer keeps the feed up to the ledger.
type Sequencer struct {
	Store Store
	// Loc is the operator's zone: the gaming day of a record.
	Loc *time.Location
	// Poll is the wait between passes once the feed has caught up (0: 1 s).
	Poll time.Duration
	// Batch is how many transfers a pass reads (0: 500).
	Batch int
	Log   *slog.Logger
}

// Derivers is how a Store turns what it read into records.
type Derivers struct {
	Transfer func(Transfer) ([]Record, error)
	// Change is given the change and the document hash of its player's
	// approved document ("" for none, or no player).
	Change func(protection.Change, string) Record
	// Rollup is what a transfer adds to the reports' daily roll-up.
	Rollup func(Transfer) ([]report.Delta, error)
}

// derive is Derive and DeriveChange with each record's day in s.Loc.
func (s *Sequencer) derive() Derivers {
	return Derivers{
		Transfer: func(t Transfer) ([]Record, error) {
			rs, err := Derive(t)
			for i := range rs {
				rs[i].Day = DayOf(rs[i].At, s.Loc)
			}
			return rs, err
		},
		Change: func(c protection.Change, doc string) Record {
			r := DeriveChange(c, doc)
			r.Day = DayOf(r.At, s.Loc)
			return r
		},
		Rollup: func(t Transfer) ([]report.Delta, error) {
			return report.Deltas(t.Movement(DayOf(t.At, s.Loc)))
		},
	}
}

// Step runs passes until the feed has caught up with the ledger; it
// returns how many transfers it read.
func (s *Sequencer) Step(ctx context.Context) (int, error) {
	batch := cmp.Or(s.Batch, 500)
	total := 0
	for {
		n, err := s.Store.Sequence(ctx, batch, s.derive())
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
}

// Sync runs passes until everything committed before it was called is in
// the feed. On Postgres a pass reads only below the oldest transaction
// still running anywhere in the cluster, so Sync waits for those.
func (s *Sequencer) Sync(ctx context.Context) error {
	for {
		if _, err := s.Step(ctx); err != nil {
			return err
		}
		n, err := s.Store.Pending(ctx)
		if err != nil || n == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Run keeps the feed up to date until ctx ends.
func (s *Sequencer) Run(ctx context.Context) {
	t := time.NewTicker(cmp.Or(s.Poll, time.Second))
	defer t.Stop()
	for {
		if _, err := s.Step(ctx); err != nil && ctx.Err() == nil && s.Log != nil {
			s.Log.ErrorContext(ctx, "regulator feed not sequenced", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Reconciliation is the file of days from..to: every line of every day,
// summed by the store.
func Reconciliation(ctx context.Context, st Store, from, to string, loc *time.Location) ([]Line, error) {
	days, err := report.Days(from, to, loc)
	if err != nil {
		return nil, err
	}
	got, err := st.Totals(ctx, days[0], days[len(days)-1])
	if err != nil {
		return nil, err
	}
	type k struct {
		day string
		LineKey
	}
	sums := map[k]Line{}
	for _, l := range got {
		sums[k{l.Day, LineKey{l.Item, l.Game}}] = l
	}
	var out []Line
	for _, d := range days {
		for _, lk := range DayKeys() {
			l := sums[k{d, lk}]
			l.Day, l.Item, l.Game = d, lk.Item, lk.Game
			out = append(out, l)
		}
	}
	return out, nil
}
