package event

import (
	"sync/atomic"
	"time"
)

// Stage is one point a table event passes on its way from the dealer to the
// subscribers' sockets.
type Stage int

// The stages, in the order an event passes them.
const (
	StageAt         Stage = iota // the event's own at (stamped by the dealer inside its transaction)
	StagePublished               // handed to the broker, after the commit
	StageReceived                // taken from the hub by the read model
	StageFolded                  // folded into the read model's view
	StageDelivered               // handed to every local subscriber's buffer
	StageFirstWrite              // the first subscriber's socket write returned
	StageLastWrite               // the last subscriber's socket write returned (so far)
	numStages
)

var stageNames = [numStages]string{"at", "published", "received", "folded", "delivered", "first_write", "last_write"}

// String names the stage as StageLog's JSON does.
func (s Stage) String() string {
	if s < 0 || s >= numStages {
		return "stage?"
	}
	return stageNames[s]
}

// stageSlots is how many recent events a StageLog keeps.
const stageSlots = 4096

// StageLog records when each recent table event passed each Stage, for
// profiling the fan-out under load (served on DEBUG_ADDR). A nil
// *StageLog records nothing, so the hot paths call it unconditionally. It is
// safe for concurrent use and never blocks: a slot is reused by a later
// event, and a mark for an event whose slot holds another one is ignored.
type StageLog struct {
	slots [stageSlots]stageSlot
}

type stageSlot struct {
	key    atomic.Pointer[stageKey]
	t      [numStages]atomic.Int64 // Unix ns; 0: not yet
	writes atomic.Int64
}

type stageKey struct{ table, seq int64 }

// NewStageLog returns an empty log.
func NewStageLog() *StageLog { return &StageLog{} }

// Begin starts the record of table's event seq with its at and the time it
// was published, replacing whatever its slot held.
func (l *StageLog) Begin(table, seq int64, at, published time.Time) {
	if l == nil || seq <= 0 {
		return
	}
	s := l.slot(table, seq)
	s.key.Store(nil)
	for i := range s.t {
		s.t[i].Store(0)
	}
	s.writes.Store(0)
	s.t[StageAt].Store(at.UnixNano())
	s.t[StagePublished].Store(published.UnixNano())
	s.key.Store(&stageKey{table, seq})
}

// slot is where table's event seq is recorded: consecutive seqs of one
// table take consecutive slots, tables start far apart.
func (l *StageLog) slot(table, seq int64) *stageSlot {
	return &l.slots[uint64(seq+table*1031)%stageSlots]
}

// Mark records that table's event seq passed stage st at t. For
// StageFirstWrite and StageLastWrite it records a socket write: the
// earliest and latest such time, and the count.
func (l *StageLog) Mark(table, seq int64, st Stage, t time.Time) {
	if l == nil || seq <= 0 || st <= StagePublished || st >= numStages {
		return
	}
	s := l.slot(table, seq)
	if k := s.key.Load(); k == nil || k.table != table || k.seq != seq {
		return
	}
	ns := t.UnixNano()
	if st != StageFirstWrite && st != StageLastWrite {
		s.t[st].CompareAndSwap(0, ns)
		return
	}
	s.writes.Add(1)
	first := &s.t[StageFirstWrite]
	for v := first.Load(); v == 0 || ns < v; v = first.Load() {
		if first.CompareAndSwap(v, ns) {
			break
		}
	}
	last := &s.t[StageLastWrite]
	for v := last.Load(); ns > v; v = last.Load() {
		if last.CompareAndSwap(v, ns) {
			break
		}
	}
}

// StageRecord is one event's passage: Unix ns per stage name (0: not
// passed), and how many socket writes carried it.
type StageRecord struct {
	Table  int64            `json:"table"`
	Seq    int64            `json:"seq"`
	At     map[string]int64 `json:"at_ns"`
	Writes int64            `json:"writes"`
}

// Records returns the events recorded, in no particular order.
func (l *StageLog) Records() []StageRecord {
	if l == nil {
		return nil
	}
	var out []StageRecord
	for i := range l.slots {
		s := &l.slots[i]
		k := s.key.Load()
		if k == nil {
			continue
		}
		r := StageRecord{Table: k.table, Seq: k.seq, At: make(map[string]int64, numStages), Writes: s.writes.Load()}
		for st := range numStages {
			r.At[st.String()] = s.t[st].Load()
		}
		out = append(out, r)
	}
	return out
}
