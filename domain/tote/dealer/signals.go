package dealer

import (
	"context"
	"sync"
)

// Signals routes tote.PoolSignal (bets of a draw committed: its pools
// changed) to the dealers of this process, by table: each one publishes
// the open round's pools at its next chance (poolTick), at most once per
// Config.PoolTick. A dealer built from Parts with Signals registers
// itself; a dealer not holding its table's lease ignores the signal. The
// signal carries no totals: the dealer reads them, so signals lost or
// merged cost only an update, never a wrong one.
type Signals struct {
	mu      sync.RWMutex
	dealers map[int64][]*Dealer
}

// NewSignals returns a router with no dealer.
func NewSignals() *Signals { return &Signals{dealers: map[int64][]*Dealer{}} }

// PoolsChanged implements tote.PoolSignal; it never blocks.
func (s *Signals) PoolsChanged(_ context.Context, tableID, _ int64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, d := range s.dealers[tableID] {
		d.markPools()
	}
}

// add registers d for its table's signals.
func (s *Signals) add(d *Dealer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dealers[d.cfg.TableID] = append(s.dealers[d.cfg.TableID], d)
}
