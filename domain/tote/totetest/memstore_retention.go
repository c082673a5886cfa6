package totetest

import (
	"context"
	"time"

	"github.com/pokertote/pokertote/domain/tote"
)

var _ tote.EventRetention = (*MemStore)(nil)

// FirstRetainedSeq implements EventRetention.
func (s *MemStore) FirstRetainedSeq(_ context.Context, tableID int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstRetained(tableID), nil
}

func (s *MemStore) firstRetained(tableID int64) int64 {
	if f := s.firstSeq[tableID]; f > 0 {
		return f
	}
	return 1
}

// PruneEvents implements EventRetention. Pruned events keep their place
// in the table's slice (seq n stays at index n-1) with their content
// dropped; EventsAfter never returns them.
func (s *MemStore) PruneEvents(_ context.Context, before time.Time, batch int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.firstSeq == nil {
		s.firstSeq = map[int64]int64{}
	}
	total := 0
	for tableID, evs := range s.events {
		first := s.firstRetained(tableID)
		next := first
		for next <= int64(len(evs)) && next-first < int64(batch) {
			e := evs[next-1]
			if !tote.PrunableEvent(e.At, before, e.DrawID, s.draws[e.DrawID].Phase) {
				break
			}
			evs[next-1] = tote.TableEvent{Seq: e.Seq, TableID: e.TableID}
			next++
		}
		if next > first {
			s.firstSeq[tableID] = next
			total += int(next - first)
		}
	}
	return total, nil
}
