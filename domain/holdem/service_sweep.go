package holdem

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
)

// within runs fn in a transaction of the store, running it again (up to
// three times in all) when another writer changed the hand first.
func (s *Service) within(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error {
	var err error
	for range 3 {
		err = s.store.Within(ctx, fn)
		if errs.ReasonOf(err) != ReasonHandChanged {
			return err
		}
	}
	return err
}

// Expire folds the undecided boxes of a hand whose deadline has passed and
// settles it, paying the player from the house bank in the same
// transaction. It reports whether it did: false when the hand is settled
// already or its deadline is still ahead. It is safe to call from several
// replicas at once: only one of them settles the hand.
func (s *Service) Expire(ctx context.Context, handID int64) (bool, error) {
	now := s.clock()
	var (
		rec     Record
		expired bool
		posted  []ledger.Posted
	)
	err := s.within(ctx, func(ctx context.Context, tx Tx) error {
		expired, posted = false, nil
		r, err := tx.LockHand(ctx, handID)
		if err != nil {
			return err
		}
		if r.Phase == Settled {
			return nil
		}
		h, err := Replay(r)
		if err != nil {
			return err
		}
		before := h.Legs()
		if !h.Expire(now) {
			return nil
		}
		r.ExpiredAt = now
		if posted, err = s.commit(ctx, tx, &r, h, before, now); err != nil {
			return err
		}
		rec, expired = r, true
		return nil
	})
	if err != nil || !expired {
		return false, err
	}
	s.publish(ctx, rec, posted...)
	return true, nil
}

// SweepBatch is how many overdue hands ExpireDue handles in one call.
const SweepBatch = 100

// ExpireDue expires every hand whose deadline has passed, up to SweepBatch
// of them, and reports how many it settled. A hand it cannot settle is
// logged and left for the next sweep; the first such error is returned
// after the others were tried.
func (s *Service) ExpireDue(ctx context.Context) (int, error) {
	ids, err := s.store.Due(ctx, s.clock(), SweepBatch)
	if err != nil {
		return 0, err
	}
	var (
		n     int
		first error
	)
	for _, id := range ids {
		done, err := s.Expire(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			s.log.ErrorContext(ctx, "casino hold'em hand not expired", "hand", id, "err", err)
			if first == nil {
				first = err
			}
			continue
		}
		if done {
			n++
		}
	}
	return n, first
}

// SweepInterval is how often the sweeper looks for overdue hands for a given
// decision timeout: a quarter of it, between 20 ms and one second.
func SweepInterval(timeout time.Duration) time.Duration {
	return min(max(timeout/4, 20*time.Millisecond), time.Second)
}

// RunSweeper expires overdue hands at once and then every interval until ctx
// ends, so that a box left undecided folds after its timeout even when no
// request comes and across restarts (the deadlines are in the store). Every
// replica may run one. It returns nil when ctx ends.
func (s *Service) RunSweeper(ctx context.Context, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := s.ExpireDue(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "casino hold'em sweep failed", "err", err)
		} else if n > 0 {
			s.log.InfoContext(ctx, "casino hold'em boxes folded on timeout", "hands", n)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
