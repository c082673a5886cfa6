package dealer

import (
	"context"
	"sync"
	"time"
)

// Supervisor runs a Dealer for every table of the store, noticing tables
// created later. Every replica runs one; the leases decide which replica
// deals which table.
type Supervisor struct {
	parts Parts
	cfg   Config // TableID is set per table
	scan  time.Duration
}

// NewSupervisor returns a supervisor whose dealers share p and use cfg (its
// TableID is ignored), and which looks for new tables every scan (default
// 2 s).
func NewSupervisor(p Parts, cfg Config, scan time.Duration) *Supervisor {
	if scan <= 0 {
		scan = 2 * time.Second
	}
	p.defaults()
	return &Supervisor{parts: p, cfg: cfg, scan: scan}
}

// Run deals every table until ctx ends, then waits for the dealers to stop
// (each gives its lease up).
func (s *Supervisor) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	running := map[int64]bool{}
	for {
		tables, err := s.parts.Store.Tables(ctx)
		if err != nil && ctx.Err() == nil {
			s.parts.Log.ErrorContext(ctx, "listing tables failed", "err", err)
		}
		for _, t := range tables {
			if running[t.ID] {
				continue
			}
			running[t.ID] = true
			cfg := s.cfg
			cfg.TableID = t.ID
			dealer := New(s.parts, cfg)
			wg.Go(func() { _ = dealer.Run(ctx) })
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.parts.Clock.After(s.scan):
		}
	}
}
