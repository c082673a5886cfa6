package graph

import (
	"context"
	"sync/atomic"

	"github.com/pokertote/pokertote/domain/event"
	"github.com/pokertote/pokertote/graph/model"
)

// jackpotVersion keeps the jackpot last read with the count of jackpot
// changes it holds (the store's tote.JackpotWatch, an event.Changes), for
// a process that is the only one writing its database (the in-process
// broker: one replica). While the watch says no change is under way and
// the count is the one the kept jackpot was read at, that jackpot is
// current: every change committed before the call began was counted
// (Begin before its commit, End after), and the kept read began after
// the count reached that value. Anything else reads the database
// (jackpotReads), and keeps what it read.
//
// With Redis there are other replicas, whose transactions this watch does
// not see; a signal from them would come after their commit, so it could
// not say that nothing changed: every caller then reads, as before
// (ToteAPI.currentJackpot).
type jackpotVersion struct {
	changes *event.Changes // nil: not the only writer, never kept
	// kept is the jackpot last kept and the count of changes it holds.
	kept atomic.Pointer[keptJackpot]
}

type keptJackpot struct {
	at  uint64
	val model.Jackpot
}

// get is the kept jackpot when it is current; n and stable are the
// watch's reading, to pass to keep with a read begun after get.
func (v *jackpotVersion) get() (jp model.Jackpot, hit bool, n uint64, stable bool) {
	if v.changes == nil {
		return model.Jackpot{}, false, 0, false
	}
	n, stable = v.changes.Stable()
	if !stable {
		return model.Jackpot{}, false, n, false
	}
	if k := v.kept.Load(); k != nil && k.at == n {
		return k.val, true, n, true
	}
	return model.Jackpot{}, false, n, true
}

// keep keeps jp, read by a read begun after get answered n, stable; an
// older count never replaces a newer one.
func (v *jackpotVersion) keep(n uint64, stable bool, jp model.Jackpot) {
	if v.changes == nil || !stable {
		return
	}
	k := &keptJackpot{at: n, val: jp}
	for {
		cur := v.kept.Load()
		if cur != nil && cur.at > n {
			return
		}
		if v.kept.CompareAndSwap(cur, k) {
			return
		}
	}
}

// WatchJackpot makes this process's jackpot watch (the store's
// tote.JackpotWatch) tell when the jackpot last read still holds, so that
// callers need not read it again; only for a process that is the only one
// writing its database (no Redis: one replica). Call it before serving.
func (a *ToteAPI) WatchJackpot(c *event.Changes) { a.jackpot.changes = c }

// currentJackpot is the jackpot as it stood at some moment after the call
// began: no change committed before the call is missing from it. It is
// the kept jackpot when the watch says it still holds, else a shared read
// (jackpotReads) begun after the call.
func (a *ToteAPI) currentJackpot(ctx context.Context) (model.Jackpot, error) {
	jp, hit, n, stable := a.jackpot.get()
	if hit {
		return jp, nil
	}
	read, err := a.jackpotReads.read(ctx, a.Jackpot)
	if err != nil {
		return model.Jackpot{}, err
	}
	a.jackpot.keep(n, stable, *read)
	return *read, nil
}
