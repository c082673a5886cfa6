package persistence

// The player-protection guard of the ledger (issue 13).
//
// post calls guard for every new transfer, inside the transaction that
// moves its money and after the balances were found sufficient, so a
// refused stake or deposit rolls back with the bet or hand it belonged to
// (postTx's savepoint, or Post's own transaction). guard:
//
//  1. classifies the transfer (protection.Classify): a deposit, a stake, or
//     returns of stakes, per player wallet;
//  2. for a deposit or stake, reads the player's exclusion, register match
//     and limits, and refuses an excluded player at once
//     (protection.Excluded), before any balance moves;
//  3. after the balance updates, makes sure the player's day, week and
//     month counter rows exist (INSERT ... ON CONFLICT DO NOTHING) and moves
//     all three with ONE guarded UPDATE ... WHERE <the limits still hold>
//     RETURNING. Two stakes racing each other serialize on the counter
//     rows; the second re-evaluates the WHERE on the first's committed
//     counters (Postgres re-checks an updated row under READ COMMITTED;
//     SQLite has one writer), so together they never exceed a limit. A row
//     missing from RETURNING means a limit would break: the counters are
//     read back and Decide names the limit, and the caller's savepoint or
//     transaction undoes the whole post.
//
// Lock order: a post locks its wallet rows before the counters of the same
// player, and every post does, so a transaction waiting for a counter row
// never holds what its holder waits for. Limits and exclusions are read
// without locks: a limit change committed before the read applies; one
// racing the stake is ordered after it.

import (
	"fmt"
	"math"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
)

// noCap stands for "no limit" in a guarded counter update; far above any
// counter, yet far from overflowing when added to one.
const noCap = math.MaxInt64 / 4

// guardedFlow is one player's flow in a transfer with the state read for it.
type guardedFlow struct {
	flow  protection.Flow
	state protection.State
}

// guardCheck classifies t and, for deposits and stakes, reads each
// player's state and refuses what no counter can allow (steps 1 and 2 at
// the top of the file). It takes no locks, so post runs it before the
// balance updates: an excluded player hears so before a short wallet.
func (r *LedgerRepo) guardCheck(tx *gorm.DB, t ledger.Transfer, now time.Time) ([]guardedFlow, error) {
	flows := protection.Classify(t)
	out := make([]guardedFlow, 0, len(flows))
	for _, f := range flows {
		g := guardedFlow{flow: f}
		if f.Checked() {
			var err error
			if g.state, err = loadProtectionState(tx, f.UserID); err != nil {
				return nil, err
			}
			if err := protection.Excluded(f, g.state, now); err != nil {
				return nil, err
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// guardCount moves the counters of the flows guardCheck admitted (step 3),
// after the balance updates, so counter rows are always locked after the
// wallet rows of the same player.
func (r *LedgerRepo) guardCount(tx *gorm.DB, flows []guardedFlow, now time.Time) error {
	for _, g := range flows {
		caps := map[protection.Period]protection.GuardCaps{}
		if g.flow.Checked() {
			caps = g.state.Caps(now)
		}
		if err := r.bumpCounters(tx, g.flow, g.state, caps, now); err != nil {
			return err
		}
		if err := playSession(tx, r.db.dialect, g.flow, now); err != nil {
			return err
		}
	}
	return nil
}

// sessionRow is a row of protection_sessions.
type sessionRow struct {
	UserID     int64
	SessionNo  int64
	StartedAt  time.Time
	LastPlayAt time.Time
	Stakes     int64
	Returned   int64
	Checks     int
}

func (sessionRow) TableName() string { return "protection_sessions" }

func toDomainSession(r sessionRow) protection.Session {
	return protection.Session{
		UserID: r.UserID, No: r.SessionNo, StartedAt: r.StartedAt.UTC(), LastPlayAt: r.LastPlayAt.UTC(),
		Stakes: money.Amount(r.Stakes), Returns: money.Amount(r.Returned), Checks: r.Checks,
	}
}

// playSession moves the player's session of play (reality checks) by f,
// after the counters, so its row too is locked after the wallet's.
func playSession(tx *gorm.DB, dialect Dialect, f protection.Flow, now time.Time) error {
	lock := ""
	if dialect == Postgres {
		lock = " FOR UPDATE"
	}
	var rows []sessionRow
	if err := tx.Raw(`SELECT * FROM protection_sessions WHERE user_id = ?`+lock, f.UserID).Scan(&rows).Error; err != nil {
		return fmt.Errorf("read session: %w", err)
	}
	var cur protection.Session
	if len(rows) == 1 {
		cur = toDomainSession(rows[0])
	}
	next, changed := cur.Play(f, now)
	if !changed {
		return nil
	}
	err := tx.Exec(`INSERT INTO protection_sessions (user_id, session_no, started_at, last_play_at, stakes, returned, checks)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET session_no = excluded.session_no, started_at = excluded.started_at,
			last_play_at = excluded.last_play_at, stakes = excluded.stakes, returned = excluded.returned, checks = excluded.checks`,
		f.UserID, next.No, storedTime(next.StartedAt), storedTime(next.LastPlayAt), int64(next.Stakes), int64(next.Returns), next.Checks).Error
	if err != nil {
		return fmt.Errorf("write session: %w", err)
	}
	return nil
}

// bumpCounters adds f to the player's counters of the periods holding now,
// refusing (and changing nothing) when a cap in caps would break.
func (r *LedgerRepo) bumpCounters(tx *gorm.DB, f protection.Flow, st protection.State, caps map[protection.Period]protection.GuardCaps, now time.Time) error {
	var dep, stake, ret int64
	switch f.Kind {
	case protection.FlowDeposit:
		dep = int64(f.Amount)
	case protection.FlowStake:
		stake = int64(f.Amount)
	case protection.FlowReturn:
		ret = int64(f.Amount)
	}
	capOf := func(p protection.Period, k protection.LimitKind) int64 {
		c, ok := caps[p]
		if !ok {
			return noCap
		}
		var v int64
		switch {
		case k == protection.DepositLimit && f.Kind == protection.FlowDeposit:
			v = c.Deposits
		case k == protection.StakeLimit && f.Kind == protection.FlowStake:
			v = c.Stakes
		case k == protection.LossLimit && f.Kind == protection.FlowStake:
			v = c.Loss
		default:
			return noCap
		}
		if v < 0 {
			return noCap
		}
		return v
	}
	ins := make([]any, 0, 9)
	for _, p := range protection.Periods {
		ins = append(ins, f.UserID, string(p), p.Start(now, r.loc).String())
	}
	// The rows first (a new period starts at zero), then one guarded update
	// of all three: a fresh row is checked like an old one.
	if err := tx.Exec(`INSERT INTO protection_counters (user_id, period, period_start)
		VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?)
		ON CONFLICT (user_id, period, period_start) DO NOTHING`, ins...).Error; err != nil {
		return fmt.Errorf("create protection counters: %w", err)
	}
	args := []any{dep, stake, ret, f.UserID}
	args = append(args, ins[1], ins[2], ins[4], ins[5], ins[7], ins[8])
	args = append(args,
		dep, capOf(protection.Day, protection.DepositLimit), capOf(protection.Week, protection.DepositLimit), capOf(protection.Month, protection.DepositLimit),
		stake, capOf(protection.Day, protection.StakeLimit), capOf(protection.Week, protection.StakeLimit), capOf(protection.Month, protection.StakeLimit),
		stake, capOf(protection.Day, protection.LossLimit), capOf(protection.Week, protection.LossLimit), capOf(protection.Month, protection.LossLimit))
	var got []string
	err := tx.Raw(`UPDATE protection_counters
		SET deposits = deposits + ?, stakes = stakes + ?, returned = returned + ?
		WHERE user_id = ? AND ((period = ? AND period_start = ?) OR (period = ? AND period_start = ?) OR (period = ? AND period_start = ?))
			AND deposits + ? <= CASE period WHEN 'DAY' THEN CAST(? AS BIGINT) WHEN 'WEEK' THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END
			AND stakes + ? <= CASE period WHEN 'DAY' THEN CAST(? AS BIGINT) WHEN 'WEEK' THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END
			AND stakes + ? - returned <= CASE period WHEN 'DAY' THEN CAST(? AS BIGINT) WHEN 'WEEK' THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END
		RETURNING period`, args...).Scan(&got).Error
	if err != nil {
		return fmt.Errorf("move protection counters: %w", err)
	}
	if len(got) == len(protection.Periods) {
		return nil
	}
	counters, err := readCounters(tx, f.UserID, now, r.loc)
	if err != nil {
		return err
	}
	// The periods whose guard held were updated (the savepoint or
	// transaction undoes them with the refusal); take f back out of them so
	// Decide sees the counters as they were before f.
	for _, p := range got {
		c := counters[protection.Period(p)]
		c.Deposits -= money.Amount(dep)
		c.Stakes -= money.Amount(stake)
		c.Returns -= money.Amount(ret)
		counters[protection.Period(p)] = c
	}
	if err := protection.Decide(f, st, counters, now); err != nil {
		return err
	}
	return errs.R(errs.Conflict, protection.StakeLimit.Reason(), "a limit you set does not allow this now")
}

// counterRow is a row of protection_counters.
type counterRow struct {
	Period      string
	PeriodStart string
	Deposits    int64
	Stakes      int64
	Returned    int64
}

// readCounters reads the user's counters of the periods holding at.
func readCounters(tx *gorm.DB, userID int64, at time.Time, loc *time.Location) (protection.Counters, error) {
	starts := make([]any, 0, 7)
	starts = append(starts, userID)
	for _, p := range protection.Periods {
		starts = append(starts, string(p), p.Start(at, loc).String())
	}
	var rows []counterRow
	err := tx.Raw(`SELECT period, period_start, deposits, stakes, returned FROM protection_counters
		WHERE user_id = ? AND ((period = ? AND period_start = ?) OR (period = ? AND period_start = ?) OR (period = ? AND period_start = ?))`,
		starts...).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("read protection counters: %w", err)
	}
	out := protection.Counters{}
	for _, p := range protection.Periods {
		out[p] = protection.Counter{Period: p, Start: p.Start(at, loc)}
	}
	for _, row := range rows {
		p := protection.Period(row.Period)
		c := out[p]
		c.Deposits, c.Stakes, c.Returns = money.Amount(row.Deposits), money.Amount(row.Stakes), money.Amount(row.Returned)
		out[p] = c
	}
	return out, nil
}

// loadProtectionState reads what the guard needs about a player: limits,
// own exclusion, and whether the register names them. A wallet without an
// account (ledger tests) has no state.
func loadProtectionState(tx *gorm.DB, userID int64) (protection.State, error) {
	var st protection.State
	var users []struct {
		Name        string
		DateOfBirth sqlDate
	}
	if err := tx.Raw(`SELECT name, date_of_birth FROM users WHERE id = ?`, userID).Scan(&users).Error; err != nil {
		return st, fmt.Errorf("read user for protection: %w", err)
	}
	if len(users) == 0 {
		return st, nil
	}
	var err error
	if st.Limits, err = readLimits(tx, userID); err != nil {
		return st, err
	}
	if st.Exclusion, err = readExclusion(tx, userID); err != nil {
		return st, err
	}
	st.Registered, err = registerNames(tx, userID, protection.NameKey(users[0].Name), account.Date(users[0].DateOfBirth))
	return st, err
}

// registerNames reports whether an active register entry names the user by
// one of their documents, or by name key and date of birth.
func registerNames(tx *gorm.DB, userID int64, nameKey string, dob account.Date) (bool, error) {
	var keys []string
	err := tx.Raw(`SELECT name_key FROM exclusion_register
		WHERE removed_at IS NULL AND (
			(name_key <> '' AND birth_date = ?)
			OR (document_hash <> '' AND document_hash IN (SELECT document_hash FROM verifications WHERE user_id = ?)))`,
		dob.String(), userID).Scan(&keys).Error
	if err != nil {
		return false, fmt.Errorf("match the exclusion register: %w", err)
	}
	for _, k := range keys {
		if k == "" || k == nameKey {
			return true, nil
		}
	}
	return false, nil
}
