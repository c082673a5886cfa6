package protection

import (
	"time"

	"github.com/pokertote/pokertote/domain/errs"
)

// ExclusionKind is what a player chose to stop playing for.
type ExclusionKind string

// The exclusion kinds; the values are part of the API.
const (
	// TimeOut is a short break: 24 hours to 6 weeks.
	TimeOut ExclusionKind = "TIME_OUT"
	// SelfExclusion is a long one: 6 months to permanent.
	SelfExclusion ExclusionKind = "SELF_EXCLUSION"
)

// Bounds of the exclusions a player may choose.
const (
	MinTimeOut             = 24 * time.Hour
	MaxTimeOut             = 6 * 7 * 24 * time.Hour
	MinSelfExclusionMonths = 6
	// MaxSelfExclusionMonths is the longest finite self-exclusion (5 years);
	// beyond that a player chooses a permanent one.
	MaxSelfExclusionMonths = 60
)

// Exclusion is a player's own time-out or self-exclusion. The zero value is
// "none".
type Exclusion struct {
	Kind  ExclusionKind
	Since time.Time
	// Until is when it ends; the zero time for a permanent self-exclusion.
	Until time.Time
}

// Permanent reports a self-exclusion without end.
func (e Exclusion) Permanent() bool { return e.Kind == SelfExclusion && e.Until.IsZero() }

// ActiveAt reports whether the exclusion is in force at now.
func (e Exclusion) ActiveAt(now time.Time) bool {
	if e.Kind == "" {
		return false
	}
	return e.Permanent() || now.Before(e.Until)
}

// endsBefore reports whether e ends strictly before f (a permanent one never
// ends).
func (e Exclusion) endsBefore(f Exclusion) bool {
	switch {
	case f.Permanent():
		return !e.Permanent()
	case e.Permanent():
		return false
	}
	return e.Until.Before(f.Until)
}

// NewTimeOut is a time-out of d starting at now.
func NewTimeOut(d time.Duration, now time.Time) (Exclusion, error) {
	if d < MinTimeOut || d > MaxTimeOut {
		return Exclusion{}, errs.R(errs.Invalid, ReasonInvalidExclusion, "a time-out lasts 24 hours to 6 weeks")
	}
	return Exclusion{Kind: TimeOut, Since: now, Until: now.Add(d)}, nil
}

// NewSelfExclusion is a self-exclusion of months months (0 for permanent)
// starting at now, ending on the same clock time months later.
func NewSelfExclusion(months int, now time.Time) (Exclusion, error) {
	if months == 0 {
		return Exclusion{Kind: SelfExclusion, Since: now}, nil
	}
	if months < MinSelfExclusionMonths || months > MaxSelfExclusionMonths {
		return Exclusion{}, errs.R(errs.Invalid, ReasonInvalidExclusion,
			"a self-exclusion lasts %d to %d months, or is permanent", MinSelfExclusionMonths, MaxSelfExclusionMonths)
	}
	return Exclusion{Kind: SelfExclusion, Since: now, Until: now.AddDate(0, months, 0)}, nil
}

// Replace decides what a player's new request next does to their current
// exclusion cur at now: none in force, next applies; one in force, next
// applies only when it ends no earlier (a player may extend a break, or turn
// a time-out into a self-exclusion, never shorten or lift one). Otherwise it
// is a Conflict with reason ALREADY_EXCLUDED.
func Replace(cur, next Exclusion, now time.Time) (Exclusion, error) {
	if !cur.ActiveAt(now) {
		return next, nil
	}
	if next.endsBefore(cur) {
		return Exclusion{}, errs.R(errs.Conflict, ReasonAlreadyExcluded,
			"you are already excluded until later than that; a break cannot be shortened")
	}
	if cur.Kind == SelfExclusion && next.Kind == TimeOut {
		next.Kind = SelfExclusion // a longer "time-out" keeps the stronger kind
	}
	next.Since = cur.Since
	return next, nil
}
