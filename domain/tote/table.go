package tote

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
)

// TableStatus says whether a table deals new draws.
type TableStatus string

// The table statuses. A paused table finishes the draw it is dealing and
// opens no new one until it is resumed.
const (
	TableRunning TableStatus = "RUNNING"
	TablePaused  TableStatus = "PAUSED"
)

// MinStakeFloor is the lowest minimum stake a table may have: 100.00 KZT
// (seed rule 15).
const MinStakeFloor = 100 * money.KZT

// MaxStakeCeiling bounds a table's maximum stake so that no pool can approach
// the arithmetic limits of the ledger: 100,000,000.00 KZT.
const MaxStakeCeiling = 100_000_000 * money.KZT

// TableSettings is what an admin may change on a table. The money settings
// are copied into a draw when it opens (SPEC 1.1: the minimum stake never
// changes during a draw), except MaxStake, which bets are checked against
// live.
type TableSettings struct {
	MinStake   money.Amount
	MaxStake   money.Amount
	Commission money.BasisPoints
	// RoundLengths are how long each of the four betting rounds stays open.
	RoundLengths [4]time.Duration
	// CardInterval is the pause between card events.
	CardInterval time.Duration
	// ResultDisplay is how long a finished draw stays on screen before the
	// next one opens.
	ResultDisplay time.Duration
	// ExpressShare1 and ExpressShare2 split an EXPRESS pool's net between its
	// categories; they add up to 100%.
	ExpressShare1, ExpressShare2 money.BasisPoints
	// SuspendAt is SUSPEND_AT (SPEC 1.9): a selection paid with a chance at
	// least this high when its round opens is suspended for that round. At
	// most (and by default) 90 %; copied into a draw when it opens.
	SuspendAt money.BasisPoints
}

// DefaultTableSettings are the defaults of SPEC 1.1: 100.00 KZT minimum,
// 1,000,000.00 KZT maximum, 3% commission, rounds of 30, 20, 20 and 20
// seconds, 2 seconds between cards, 10 seconds of result, EXPRESS 60/40.
func DefaultTableSettings() TableSettings {
	return TableSettings{
		MinStake:      MinStakeFloor,
		MaxStake:      1_000_000 * money.KZT,
		Commission:    parimutuel.MinCommission,
		RoundLengths:  [4]time.Duration{30 * time.Second, 20 * time.Second, 20 * time.Second, 20 * time.Second},
		CardInterval:  2 * time.Second,
		ResultDisplay: 10 * time.Second,
		ExpressShare1: parimutuel.DefaultExpressShare1,
		ExpressShare2: parimutuel.DefaultExpressShare2,
		SuspendAt:     SuspendAtMax,
	}
}

// Bounds of the timing settings.
const (
	minRoundLength   = time.Second
	maxRoundLength   = time.Hour
	maxCardInterval  = time.Minute
	maxResultDisplay = 10 * time.Minute
)

// Validate reports an Invalid error when the settings break the rules:
// MIN_STAKE_TOO_LOW (below 100.00 KZT, rule 15), INVALID_STAKE_LIMITS,
// COMMISSION_TOO_LOW, INVALID_POOL_CONFIG, INVALID_TIMING or
// INVALID_SUSPEND_AT.
func (s TableSettings) Validate() error {
	if s.MinStake < MinStakeFloor {
		return errs.R(errs.Invalid, ReasonMinStakeTooLow, "the minimum stake is %s: it can never be below %s", s.MinStake, MinStakeFloor)
	}
	if s.MaxStake < s.MinStake || s.MaxStake > MaxStakeCeiling {
		return errs.R(errs.Invalid, ReasonInvalidStakeLimits, "the maximum stake %s must be between the minimum %s and %s", s.MaxStake, s.MinStake, MaxStakeCeiling)
	}
	if err := s.PoolConfig(true).Validate(); err != nil {
		return err
	}
	for i, d := range s.RoundLengths {
		if d < minRoundLength || d > maxRoundLength {
			return errs.R(errs.Invalid, ReasonInvalidTiming, "round %d lasts %s: a round lasts 1 s to 1 h", i+1, d)
		}
	}
	if s.CardInterval < 0 || s.CardInterval > maxCardInterval {
		return errs.R(errs.Invalid, ReasonInvalidTiming, "the card interval %s must be 0 to 1 min", s.CardInterval)
	}
	if s.ResultDisplay < 0 || s.ResultDisplay > maxResultDisplay {
		return errs.R(errs.Invalid, ReasonInvalidTiming, "the result display %s must be 0 to 10 min", s.ResultDisplay)
	}
	return CheckSuspendAt(s.SuspendAt)
}

// PoolConfig is the pool settings a draw opened now would copy: the
// commission and EXPRESS shares of the table, the jackpot rate of rule 7, and
// the jackpot flag given.
func (s TableSettings) PoolConfig(jackpotEnabled bool) parimutuel.PoolConfig {
	return parimutuel.PoolConfig{
		Commission:     s.Commission,
		JackpotEnabled: jackpotEnabled,
		JackpotRate:    parimutuel.JackpotRate,
		ExpressShare1:  s.ExpressShare1,
		ExpressShare2:  s.ExpressShare2,
	}
}

// RoundLength is how long round r stays open.
func (s TableSettings) RoundLength(r parimutuel.Round) time.Duration {
	if r.Validate() != nil {
		return 0
	}
	return s.RoundLengths[r-1]
}

// Table is one totalizator table: a fixed number of positions dealt draw
// after draw.
type Table struct {
	ID        int64
	Name      string
	Positions int
	Status    TableStatus
	Settings  TableSettings
	// LastSeq is the sequence number of the table's latest event.
	LastSeq   int64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// maxTableName bounds a table's name in characters.
const maxTableName = 64

// Validate reports an Invalid error when the table cannot exist: a blank or
// long name (INVALID_TABLE_NAME), a size outside 2..10 (INVALID_TABLE_SIZE),
// an unknown status or invalid settings.
func (t Table) Validate() error {
	name := strings.TrimSpace(t.Name)
	if name == "" || name != t.Name || utf8.RuneCountInString(name) > maxTableName || !utf8.ValidString(name) {
		return errs.R(errs.Invalid, ReasonInvalidTableName, "a table name is 1 to %d characters without surrounding spaces", maxTableName)
	}
	if err := parimutuel.CheckTableSize(t.Positions); err != nil {
		return err
	}
	if t.Status != TableRunning && t.Status != TablePaused {
		return errs.R(errs.Invalid, ReasonInvalidTableStatus, "a table is RUNNING or PAUSED, not %q", t.Status)
	}
	return t.Settings.Validate()
}

// SettingsUpdate is a partial change of a table's settings: nil fields stay
// as they are.
type SettingsUpdate struct {
	MinStake      *money.Amount
	MaxStake      *money.Amount
	Commission    *money.BasisPoints
	RoundLengths  *[4]time.Duration
	CardInterval  *time.Duration
	ResultDisplay *time.Duration
	ExpressShares *[2]money.BasisPoints
	SuspendAt     *money.BasisPoints
}

// Apply returns s with the update's fields replaced.
func (u SettingsUpdate) Apply(s TableSettings) TableSettings {
	if u.MinStake != nil {
		s.MinStake = *u.MinStake
	}
	if u.MaxStake != nil {
		s.MaxStake = *u.MaxStake
	}
	if u.Commission != nil {
		s.Commission = *u.Commission
	}
	if u.RoundLengths != nil {
		s.RoundLengths = *u.RoundLengths
	}
	if u.CardInterval != nil {
		s.CardInterval = *u.CardInterval
	}
	if u.ResultDisplay != nil {
		s.ResultDisplay = *u.ResultDisplay
	}
	if u.ExpressShares != nil {
		s.ExpressShare1, s.ExpressShare2 = u.ExpressShares[0], u.ExpressShares[1]
	}
	if u.SuspendAt != nil {
		s.SuspendAt = *u.SuspendAt
	}
	return s
}

// FormatPercent writes basis points as a percentage: 300 is "3.00%".
func FormatPercent(b money.BasisPoints) string {
	return money.Amount(b).String() + "%"
}
