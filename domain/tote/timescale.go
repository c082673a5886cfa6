package tote

import "time"

// TimeScale divides every table duration (rounds, card pacing, result
// display) for tests and demos; 0 or 1 is real time. The service, the
// settlement and the dealers each time a draw with it, so they are handed
// the same one.
type TimeScale float64

// Of is table duration d at this scale.
func (s TimeScale) Of(d time.Duration) time.Duration {
	if s <= 0 {
		return d
	}
	return time.Duration(float64(d) / float64(s))
}
