package protectiondb

// The player-protection guard of the ledger.
//
// ledgerdb's post calls the guard for every new transfer, inside the
// transaction that moves its money and after the balances were found
// sufficient, so a refused stake or deposit rolls back with the bet or hand
// it belonged to (postTx's savepoint, or Post's own transaction). The
// guard:
//
//  1. classifies the transfer (protection.Classify): a deposit, a stake, or
//     returns of stakes, per player wallet;
//  2. for a deposit or stake, reads the player's exclusion, register match
//     and limits in one query, after the balance updates have locked the
//     player's wallet (an exclusion is set holding that row, holdWallet,
//     so it committed before this read or starts after this post commits),
//     and refuses an excluded player (protection.Excluded); a
//     short wallet of an excluded player is answered with the exclusion;
//  3. after the balance updates, reads the player's day, week and month
//     counters and session of play, locked after the wallet, asks
//     protection.Admit (the one home of the limits, by name, and of the
//     session's rule) and writes the counters and session it returns. A
//     refusal leaves the caller's savepoint or transaction to undo the
//     whole post. Two stakes of one player serialise on the wallet row
//     (and again on the counter rows), so the second reads the counters
//     the first committed, and together they never exceed a limit.
//
// Lock order: a post locks its wallet rows before the counters of the same
// player, and every post does, so a transaction waiting for a counter row
// never holds what its holder waits for. Limits and exclusions are read
// without locks of their own, after the wallet's: a limit change committed
// before the read applies; one racing the stake is ordered after it; an
// exclusion waits for the wallet (holdWallet) before it reads the clock.

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/account"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Guard is the guard as ledgerdb's posts run it, exported for them: the
// ledger's transaction calls Check and Count, its Postgres batch of
// returns CountReturnsPG.
type Guard struct {
	db *sqldb.DB
	// loc is the operator's zone: the calendar of the counters.
	loc *time.Location
}

// NewGuard returns the guard on db, its counters' periods in loc.
func NewGuard(db *sqldb.DB, loc *time.Location) Guard { return Guard{db: db, loc: loc} }

// GuardedFlow is one player's flow in a transfer with the state read for
// it: what Check hands the ledger to give back to Count.
type GuardedFlow struct {
	flow  protection.Flow
	state protection.State
}

// Check classifies t and, for deposits and stakes, reads each player's
// state and refuses what no counter can allow (steps 1 and 2 at the top
// of the file). The ledger's post runs it after the balance updates, once
// the players' wallets are locked.
func (g Guard) Check(tx *gorm.DB, t ledger.Transfer, now time.Time) ([]GuardedFlow, error) {
	flows, err := protection.Classify(t)
	if err != nil {
		return nil, err
	}
	out := make([]GuardedFlow, 0, len(flows))
	for _, f := range flows {
		g := GuardedFlow{flow: f}
		if f.Checked() {
			var err error
			if g.state, err = loadState(tx, f.UserID); err != nil {
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

// Count moves the counters and the session of play of the flows Check
// admitted (step 3), after the balance updates, so counter and
// session rows are always locked after the wallet rows of the same player:
// it reads them (locked), asks protection.Admit, and writes what Admit
// returns. No rule of protection is written here.
func (gd Guard) Count(tx *gorm.DB, flows []GuardedFlow, now time.Time) error {
	for _, g := range flows {
		c, err := ReadCounters(tx, g.flow.UserID, now, gd.loc, gd.db.LockSuffix(sqldb.LockExclusive))
		if err != nil {
			return err
		}
		ses, err := ReadSession(tx, g.flow.UserID, gd.db.LockSuffix(sqldb.LockExclusive))
		if err != nil {
			return err
		}
		a, err := protection.Admit(g.flow, g.state, c, ses, now)
		if err != nil {
			return err
		}
		if err := WriteCounters(tx, g.flow.UserID, a.Counters, now, gd.loc); err != nil {
			return err
		}
		if a.Played {
			if err := WriteSession(tx, a.Session); err != nil {
				return err
			}
		}
	}
	return nil
}

// sessionRow is a row of protection_sessions (instants in Unix µs).
type sessionRow struct {
	UserID     int64
	SessionNo  int64
	StartedUs  int64
	LastPlayUs int64
	Stakes     int64
	Returned   int64
	Checks     int
}

func (sessionRow) TableName() string { return "protection_sessions" }

func toDomainSession(r sessionRow) protection.Session {
	return protection.Session{
		UserID: r.UserID, No: r.SessionNo, StartedAt: time.UnixMicro(r.StartedUs).UTC(), LastPlayAt: time.UnixMicro(r.LastPlayUs).UTC(),
		Stakes: money.Amount(r.Stakes), Returns: money.Amount(r.Returned), Checks: r.Checks,
	}
}

func fromDomainSession(s protection.Session) sessionRow {
	return sessionRow{UserID: s.UserID, SessionNo: s.No, StartedUs: s.StartedAt.UnixMicro(), LastPlayUs: s.LastPlayAt.UnixMicro(),
		Stakes: int64(s.Stakes), Returned: int64(s.Returns), Checks: s.Checks}
}

// StandingRow is one row of StandingSelectPG, scanned in column order (by
// CountReturnsPG and totedb's Postgres bet batch): a
// counter (Period set) or a session of play.
type StandingRow struct {
	UserID                           int64
	Period                           *string
	Deposits                         *int64
	Stakes, Returned                 int64
	SessionNo, StartedUs, LastPlayUs *int64
	Checks                           *int64
}

// Dest lists the row's fields in the select's column order.
func (r *StandingRow) Dest() []any {
	return []any{&r.UserID, &r.Period, &r.Deposits, &r.Stakes, &r.Returned, &r.SessionNo, &r.StartedUs, &r.LastPlayUs, &r.Checks}
}

// Fold adds the row to the players' counters or sessions.
func (r *StandingRow) Fold(counters map[ids.UserID]protection.Counters, sessions map[ids.UserID]protection.Session) {
	u := ids.UserID(r.UserID)
	if r.Period == nil {
		sessions[u] = toDomainSession(sessionRow{UserID: r.UserID, SessionNo: deref(r.SessionNo), StartedUs: deref(r.StartedUs),
			LastPlayUs: deref(r.LastPlayUs), Stakes: r.Stakes, Returned: r.Returned, Checks: int(deref(r.Checks))})
		return
	}
	c := counters[u]
	if c == nil {
		c = make(protection.Counters, len(protection.Periods))
		counters[u] = c
	}
	p := protection.Period(*r.Period)
	c[p] = protection.Counter{Period: p, Deposits: money.Amount(deref(r.Deposits)), Stakes: money.Amount(r.Stakes), Returns: money.Amount(r.Returned)}
}

// deref is *p, or zero for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// ReadSession reads the player's session of play (the zero Session when
// none), with lock appended to the query (see WriteSession).
func ReadSession(tx *gorm.DB, userID int64, lock string) (protection.Session, error) {
	var rows []sessionRow
	if err := tx.Raw(`SELECT user_id, session_no, started_us, last_play_us, stakes, returned, checks
		FROM protection_sessions WHERE user_id = ?`+lock, userID).Scan(&rows).Error; err != nil {
		return protection.Session{}, fmt.Errorf("read session of play: %w", err)
	}
	if len(rows) == 0 {
		return protection.Session{UserID: userID}, nil
	}
	return toDomainSession(rows[0]), nil
}

// counterRow is a row of protection_counters.
type counterRow struct {
	Period      string
	PeriodStart string
	Deposits    int64
	Stakes      int64
	Returned    int64
}

// ReadCounters reads the user's counters of the periods holding at (zero
// where no row is stored yet), with lock appended to the query.
func ReadCounters(tx *gorm.DB, userID int64, at time.Time, loc *time.Location, lock string) (protection.Counters, error) {
	starts := make([]any, 0, 7)
	starts = append(starts, userID)
	for _, p := range protection.Periods {
		starts = append(starts, string(p), p.Start(at, loc).String())
	}
	var rows []counterRow
	err := tx.Raw(`SELECT period, period_start, deposits, stakes, returned FROM protection_counters
		WHERE user_id = ? AND ((period = ? AND period_start = ?) OR (period = ? AND period_start = ?) OR (period = ? AND period_start = ?))`+lock,
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

// StateSelect is the one read of players' protection state:
// per player one row per limit (or one row without), with the exclusion
// and how many active register entries may name them (by their birthday,
// by one of their documents: the candidates RegisterCandidatesSelect
// reads, counted here so that the common player, with none, costs no more
// reads). The caller appends the WHERE on u.id: LoadStates (GORM, both
// dialects) and totedb's Postgres bet batch (pgBatchState, for an array of
// players), which both fold the rows with States; the selects and rows of
// the state are exported for that batch.
const StateSelect = `SELECT u.id, u.name, CAST(u.date_of_birth AS TEXT),
	e.kind, e.since, e.ends_at,
	l.kind, l.period, l.amount, l.pending, l.pending_amount, l.pending_at,
	(SELECT COUNT(*) FROM exclusion_register r WHERE r.removed_at IS NULL AND r.name_key <> ''
		AND r.birth_date = CAST(u.date_of_birth AS TEXT)),
	(SELECT COUNT(*) FROM exclusion_register r WHERE r.removed_at IS NULL AND r.document_hash <> ''
		AND r.document_hash IN (SELECT v.document_hash FROM verifications v WHERE v.user_id = u.id))
FROM users u
LEFT JOIN protection_exclusions e ON e.user_id = u.id
LEFT JOIN protection_limits l ON l.user_id = u.id
`

// RegisterCandidatesSelect lists the register entries that may name a
// player: the active ones with their date of birth or by one of their
// documents (the predicates of the register's two partial indexes);
// parameters: the date of birth, the user id. protection.RegisterNames
// decides which of them name the player.
const RegisterCandidatesSelect = `SELECT document_hash, name_key, birth_date FROM exclusion_register
		WHERE removed_at IS NULL AND (
			(name_key <> '' AND birth_date = ?)
			OR (document_hash <> '' AND document_hash IN (SELECT document_hash FROM verifications WHERE user_id = ?)))`

// PlayerDocumentsSelect lists the document hashes of a player's
// verifications (the docs of protection.RegisterNames); parameter: the
// user id.
const PlayerDocumentsSelect = `SELECT document_hash FROM verifications WHERE user_id = ? AND document_hash <> ''`

// RegisterCandidate is a row of RegisterCandidatesSelect.
type RegisterCandidate struct {
	DocumentHash, NameKey, BirthDate string
}

// entry is the candidate as protection.RegisterNames reads it.
func (c RegisterCandidate) entry() protection.RegisterEntry {
	return toDomainRegister(registerRow{DocumentHash: c.DocumentHash, NameKey: c.NameKey, BirthDate: c.BirthDate})
}

// StateRow is one row of StateSelect, scanned in column order (by
// LoadStates and totedb's Postgres bet batch).
type StateRow struct {
	ID                int64
	Name, DateOfBirth string
	ExKind            *string
	ExSince, ExEndsAt *time.Time
	LKind, LPeriod    *string
	LAmount           *int64
	LPending          *bool
	LPendingAmount    *int64
	LPendingAt        *time.Time
	NameHits, DocHits int64
}

// Dest lists the row's fields in the select's column order.
func (r *StateRow) Dest() []any {
	return []any{&r.ID, &r.Name, &r.DateOfBirth, &r.ExKind, &r.ExSince, &r.ExEndsAt, &r.LKind, &r.LPeriod, &r.LAmount,
		&r.LPending, &r.LPendingAmount, &r.LPendingAt, &r.NameHits, &r.DocHits}
}

// playerState is what StateSelect's rows say about one player.
type playerState struct {
	state             protection.State
	name, dob         string
	nameHits, docHits int64
}

// State is the player's protection state, for the tote's bet batches.
func (st *playerState) State() protection.State { return st.state }

// States folds StateSelect's rows by player (Add) and then matches the
// register (Resolve).
type States map[int64]*playerState

// Add folds one row.
func (ps States) Add(row StateRow) {
	st := ps[row.ID]
	if st == nil {
		st = &playerState{name: row.Name, dob: row.DateOfBirth, nameHits: row.NameHits, docHits: row.DocHits}
		if row.ExKind != nil && row.ExSince != nil {
			st.state.Exclusion = protection.Exclusion{Kind: protection.ExclusionKind(*row.ExKind), Since: row.ExSince.UTC(), Until: sqldb.TimeOrZero(row.ExEndsAt)}
		}
		ps[row.ID] = st
	}
	if row.LKind == nil || row.LPeriod == nil {
		return
	}
	l := protection.Limit{Kind: protection.LimitKind(*row.LKind), Period: protection.Period(*row.LPeriod), PendingAt: sqldb.TimeOrZero(row.LPendingAt)}
	if row.LAmount != nil {
		l.Amount = money.Amount(*row.LAmount)
	}
	if row.LPending != nil {
		l.Pending = *row.LPending
	}
	if row.LPendingAmount != nil {
		l.PendingAmount = money.Amount(*row.LPendingAmount)
	}
	st.state.Limits = append(st.state.Limits, l)
}

// Resolve sets each player's register match: for a player with
// candidates (the rare path), protection.RegisterNames on the entries and
// documents candidates reads for them (RegisterCandidatesSelect and
// PlayerDocumentsSelect run for the player).
func (ps States) Resolve(candidates func(userID int64, dob string) ([]RegisterCandidate, []string, error)) error {
	for id, st := range ps {
		if st.nameHits == 0 && st.docHits == 0 {
			continue
		}
		rows, docs, err := candidates(id, st.dob)
		if err != nil {
			return fmt.Errorf("match the exclusion register: %w", err)
		}
		entries := make([]protection.RegisterEntry, len(rows))
		for i, c := range rows {
			entries[i] = c.entry()
		}
		var dob account.Date
		if st.dob != "" {
			// A date the register cannot hold names nobody by birthday.
			dob, _ = account.ParseDate(st.dob)
		}
		st.state.Registered = protection.RegisterNames(entries, docs, protection.NameKey(st.name), dob)
	}
	return nil
}

// LoadStates reads what the guard needs about players in one query (and
// one more per player a register entry with their birthday may name):
// limits, own exclusion, and whether the register names them. A wallet
// without an account (ledger tests) has no state. Exported for totedb's
// SQLite bet batch.
func LoadStates(tx *gorm.DB, userIDs []int64) (States, error) {
	ps := States{}
	rows, err := tx.Raw(StateSelect+"WHERE u.id IN ?", userIDs).Rows()
	if err != nil {
		return nil, fmt.Errorf("read protection state: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var row StateRow
		if err := rows.Scan(row.Dest()...); err != nil {
			return nil, fmt.Errorf("read protection state: %w", err)
		}
		ps.Add(row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read protection state: %w", err)
	}
	rows.Close()
	err = ps.Resolve(func(userID int64, dob string) ([]RegisterCandidate, []string, error) {
		var (
			rows []RegisterCandidate
			docs []string
		)
		if err := tx.Raw(RegisterCandidatesSelect, dob, userID).Scan(&rows).Error; err != nil {
			return nil, nil, err
		}
		err := tx.Raw(PlayerDocumentsSelect, userID).Scan(&docs).Error
		return rows, docs, err
	})
	return ps, err
}

// loadState is LoadStates for one player.
func loadState(tx *gorm.DB, userID int64) (protection.State, error) {
	ps, err := LoadStates(tx, []int64{userID})
	if err != nil || ps[userID] == nil {
		return protection.State{}, err
	}
	return ps[userID].state, nil
}
