package event

import "sync/atomic"

// Changes counts the changes of some state made in this process, and those
// under way, so that a reader can tell that nothing changed between two
// moments without reading the state again. A writer calls Begin before it
// starts to change the state (before its transaction can commit, for state
// in a database) and End once the change is over, made or given up. A
// reader takes Stable: while no change is under way, the count of changes
// ended. A value read after Stable answered (n, true) holds every change
// that ended before that call; when Stable answers (n, true) again later,
// no change has begun and ended since, so that value still holds the state.
//
// It is one word changed atomically: Begin, End and Stable never block.
type Changes struct {
	// s holds the changes under way in its low changesBits bits and the
	// changes ended above them.
	s atomic.Uint64
}

// changesBits is how many bits count the changes under way (far more than
// the goroutines of a process).
const changesBits = 24

// Begin says a change starts.
func (c *Changes) Begin() { c.s.Add(1) }

// End says a change that Begin announced is over: made or given up. It
// counts the change and ends its being under way in one step.
func (c *Changes) End() { c.s.Add(1<<changesBits - 1) }

// Stable returns how many changes have ended, and false while a change is
// under way (n then means nothing).
func (c *Changes) Stable() (n uint64, ok bool) {
	s := c.s.Load()
	return s >> changesBits, s&(1<<changesBits-1) == 0
}
