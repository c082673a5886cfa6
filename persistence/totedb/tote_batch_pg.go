package totedb

// The bet intake's Postgres fast path (tote.BatchPlacer): a batch of bets in
// two network round trips, on the pool's own pgx connection.
//
// Through database/sql and GORM a batch of bets costs a round trip per
// statement, many per bet, and the pool's escrow row stays locked from the
// first stake's balance update to the commit, so the batches of one draw
// queue on it for most of their transaction (the profile is in
// docs/bench/2026-12-01-bets.md). Here the batch is:
//
//  1. one pipeline (one network flush): BEGIN; the draw's shared advisory
//     lock; the draw and its table (read after the lock, each statement with
//     its own snapshot, so the round-close race is exactly as in LockDraw;
//     the draw's chances are parsed only when their text changes,
//     chancesCache);
//     bet ids from the sequence; the players for the stake gate; then the
//     players' wallets, locked FOR UPDATE in the ledger's order; their
//     protection state (exclusion, register, limits), read after the
//     wallets' locks (an exclusion is set holding the wallet);
//     their counters of the current periods and their sessions of play,
//     locked after the wallets (the guard's lock order) in one statement;
//  2. in memory, tote.PlanBatch on that snapshot (tote.BatchSnapshot): in
//     request order, exactly the checks a single post makes: the domain's
//     checks (draw, table, stake), the key (DUPLICATE_BET), the transfer's
//     Validate, protection.Excluded, ledger.Apply on the wallet's balance
//     (INSUFFICIENT_FUNDS), then protection.Admit on the counters and the
//     session as the earlier stakes of the batch left them (the limit that
//     breaks, by name; the counters and session after the stake); a refused
//     stake moves nothing and stores no bet;
//  3. one pipeline writing the plan: first the accepted bets' events
//     appended to their players' streams (usereventdb.PGAppend, when the
//     store logs them: LogUserEvents), so that they commit with the bets;
//     then a data-modifying CTE that inserts the bets, the transfers,
//     sets the wallets' balances, adds each escrow's total with one upsert
//     (the hot row is locked only here, for this statement and the COMMIT
//     sent with it), inserts the entries (escrow balances after each entry
//     derived from the row the upsert returned, entry ids drawn after the
//     lock), stores the counters and the sessions of play as Admit left
//     them (no rule in the SQL); then the pool totals' upsert
//     (tote_pool_totals.go: the plan's tote.PoolIncrements, last, so their
//     hot rows are locked for it and the COMMIT only); then COMMIT.
//
// Keys are not looked up first: a bet's key is new in all but a client's
// retry, and the unique index (user, key) checks every insert anyway. A
// batch meeting a taken key (a retry, or two batches placing one new key at
// once) fails statement 3 on that index and runs again at once, this time
// reading the requests' taken keys in round trip 1 (DUPLICATE_BET for
// those, the others placed). A lookup on every batch would be its
// costliest read and grow with the table: its plan, cached per connection
// while the table was small, scans every bet of the table
// (docs/bench/2026-12-01-bets.md, third pass). Deadlocks and serialization failures are retried the same way
// as sqldb.RetryTx does. A COMMIT whose outcome is unknown is errs.CommitUnknown.
//
// These statements bypass GORM (and so its statement counter and SQL spans)
// and use pgx directly: on the bet path each statement's overhead is
// paid by every batch of a surge (docs/bets-load.md).

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/accountdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/ledgerdb/ledgerwrite"
	"github.com/pokertote/pokertote/persistence/protectiondb"
	"github.com/pokertote/pokertote/persistence/sqldb"
	"github.com/pokertote/pokertote/persistence/usereventdb"
)

var _ tote.BatchPlacer = (*Repo)(nil)

// ReadsPlayers implements tote.BatchPlacer: the Postgres fast path reads
// the players with the draw; SQLite's batch leaves the stake gate to run
// before it.
func (r *Repo) ReadsPlayers() bool { return r.db.Dialect() == sqldb.Postgres }

// The statements of the fast path. Their text does not depend on the
// batch's size (arrays), so pgx prepares each once per connection.
const (
	pgBatchIDs = `SELECT nextval('tote_bets_id_seq') FROM generate_series(1, $1)`
	// One probe of the unique index per key (LATERAL … LIMIT 1 keeps the
	// planner from a hash join over the whole table, which a plan cached
	// while the table was small kept choosing as it grew).
	pgBatchTaken = `SELECT k.u, k.key FROM unnest($1::bigint[], $2::text[]) AS k(u, key)
	CROSS JOIN LATERAL (SELECT 1 FROM tote_bets b WHERE b.user_id = k.u AND b.idempotency_key = k.key LIMIT 1) AS taken`
	// The protection state (protectiondb.StateSelect), for many players at once.
	pgBatchState = protectiondb.StateSelect + `WHERE u.id = ANY($1::bigint[])`
	// Wallets locked in the order given (the ledger's lock order).
	pgBatchWallets = `SELECT a.id, a.ref, a.balance FROM ledger_accounts a
JOIN unnest($1::text[]) WITH ORDINALITY AS v(ref, ord) ON a.kind = 'WALLET' AND a.ref = v.ref
ORDER BY v.ord` + sqldb.PGForUpdateOfA
	// The bets, in betInsertOrder, with the ids drawn in round trip 1.
	pgBetsInsert = `INSERT INTO tote_bets (id, draw_id, table_id, user_id, round, market, selection, stake, status, payout, idempotency_key, placed_at)
	SELECT b.id, @draw_id, @table_id, b.u, @round, b.m, b.s, b.st, 'ACCEPTED', 0, b.k, @placed_at
	FROM unnest(@bet_ids::bigint[], @bet_users::bigint[], @bet_markets::text[], @bet_selections::text[], @bet_stakes::bigint[], @bet_keys::text[])
		WITH ORDINALITY AS b(id, u, m, s, st, k, ord)
	ORDER BY b.ord
	RETURNING id`
)

// pgBatchWrite is the write: bets, then the ledger's rows (transfers,
// wallets' balances, escrows, entries: ledgerwrite.WritePG), then the
// counters and sessions of play (protectiondb.CountersPG, SessionsPG), in
// one statement with named parameters (batchRows.pgArgs).
var pgBatchWrite = `WITH bets AS (` + pgBetsInsert + `), ` + ledgerwrite.WritePG(true) + `,
cnt AS (` + protectiondb.CountersPG + `), ses AS (` + protectiondb.SessionsPG + `)
SELECT ent.id, ent.transfer_id, ent.account_id, ent.balance_after,
	(SELECT count(*) FROM bets), (SELECT count(*) FROM bal), (SELECT count(*) FROM cnt), (SELECT count(*) FROM ses)
FROM ent ORDER BY ent.id`

// columnsOf lists the columns of row type T as GORM maps them (the same
// names pgx.RowToStructByName matches), so the fast path reads exactly the
// columns the GORM reads of the same rows do; the columns named in nulls
// are read as NULL (text).
func (r *Repo) columnsOf(model any, alias string, nulls ...string) (string, error) {
	stmt := &gorm.Statement{DB: r.db.Gorm()}
	if err := stmt.Parse(model); err != nil {
		return "", fmt.Errorf("persistence: columns of %T: %w", model, err)
	}
	cols := make([]string, len(stmt.Schema.DBNames))
	for i, c := range stmt.Schema.DBNames {
		cols[i] = alias + "." + c
		if slices.Contains(nulls, c) {
			cols[i] = "CAST(NULL AS TEXT) AS " + c
		}
	}
	return strings.Join(cols, ", "), nil
}

// batchQueries are the fast path's reads whose column lists come from the
// row types; built once per repository.
type batchQueries struct {
	draw, table, users, verifications string
}

// The fast path's statements with their column lists, built once (GORM's
// naming is the same for every database).
var (
	batchOnce sync.Once
	batchQ    batchQueries
	batchErr  error
)

func (r *Repo) batchSQL() (batchQueries, error) {
	batchOnce.Do(func() {
		var q batchQueries
		user, verification := accountdb.PlayerModels()
		cols := map[string]any{"t": &toteTableRow{}, "u": user, "v": verification}
		list := map[string]string{}
		for alias, m := range cols {
			c, err := r.columnsOf(m, alias)
			if err != nil {
				batchErr = err
				return
			}
			list[alias] = c
		}
		// The batch's checks read no odds, result or beacons (PlanBatch), so
		// a batch does not read or decode their JSON.
		draw, err := r.columnsOf(&toteDrawRow{}, "d", "odds", "result", "beacons")
		if err != nil {
			batchErr = err
			return
		}
		q.draw = "SELECT " + draw + " FROM tote_draws d WHERE d.id = $1"
		q.table = "SELECT " + list["t"] + " FROM tote_tables t JOIN tote_draws d ON d.table_id = t.id WHERE d.id = $1"
		q.users = "SELECT " + list["u"] + " FROM users u WHERE u.id = ANY($1::bigint[])"
		// Each player's latest verification, as UserRepo.Verification.
		q.verifications = "SELECT DISTINCT ON (v.user_id) " + list["v"] + " FROM verifications v WHERE v.user_id = ANY($1::bigint[]) ORDER BY v.user_id, v.id DESC"
		batchQ = q
	})
	return batchQ, batchErr
}

// errBetKeyRace is reported (as a serialization failure, so the batch runs
// again) when a key of the batch was taken between its reads and its write.
var errBetKeyRace = &pgconn.PgError{Code: "40001", Message: "a key of the bet batch was taken meanwhile; the batch is run again"}

// PlaceBatch implements tote.BatchPlacer; see the top of this file (and
// tote_batch_sqlite.go for SQLite).
func (r *Repo) PlaceBatch(ctx context.Context, w tote.BatchWork) ([]tote.BatchResult, error) {
	if r.db.Dialect() != sqldb.Postgres {
		return r.placeBatchSQLite(ctx, w)
	}
	var (
		res    []tote.BatchResult
		lookup bool // read the taken keys (after a batch met one)
	)
	err := sqldb.Retry(ctx, r.db, "bet batch", func() (bool, error) {
		var err error
		res, err = r.placeBatchOnce(ctx, w, lookup)
		if errors.Is(err, errBetKeyRace) && !lookup {
			// A taken key, not contention: again at once, reading the keys.
			lookup = true
			return true, err
		}
		return false, err
	})
	if err != nil {
		return nil, sqldb.MapErr(err, "bet")
	}
	return res, nil
}

// placeBatchOnce is one attempt of PlaceBatch on one pooled connection.
func (r *Repo) placeBatchOnce(ctx context.Context, w tote.BatchWork, lookup bool) ([]tote.BatchResult, error) {
	conn, err := r.db.SQL().Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var res []tote.BatchResult
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("persistence: the Postgres driver connection is a %T, not pgx's", dc)
		}
		pc := sc.Conn()
		var txErr error
		res, txErr = r.placeBatchTx(ctx, pc, w, lookup)
		if pc.PgConn().TxStatus() != 'I' {
			// Whatever failed left the transaction open: end it, or give
			// the connection up.
			if _, rbErr := pc.Exec(ctx, "ROLLBACK"); rbErr != nil {
				return errors.Join(txErr, rbErr, driver.ErrBadConn)
			}
		}
		return txErr
	})
	if errors.Is(err, driver.ErrBadConn) {
		// The pool drops the connection; the error still says why.
		return nil, fmt.Errorf("bet batch: %w", err)
	}
	return res, err
}

// placeBatchTx runs the transaction of one attempt on pc, reading the
// requests' taken keys if lookup, in the stages at the top of this file.
// It leaves the transaction open only on error (the caller rolls it back).
func (r *Repo) placeBatchTx(ctx context.Context, pc *pgx.Conn, w tote.BatchWork, lookup bool) ([]tote.BatchResult, error) {
	rd := r.newBatchRead(w, lookup)
	// Round trip 1: lock, read, lock the wallets and counters.
	if err := r.readBatch(ctx, pc, rd); err != nil {
		return nil, err
	}
	snap, err := r.completeSnapshot(ctx, pc, rd)
	if err != nil {
		return nil, err
	}
	// In memory: the plan (tote.PlanBatch, the rules), in request order.
	plan, err := tote.PlanBatch(w, snap)
	if err != nil {
		return nil, err
	}
	if len(plan.Stakes) == 0 {
		if _, err := pc.Exec(ctx, "COMMIT"); err != nil {
			return nil, err
		}
		return plan.Results, nil
	}
	// Round trip 2: the players' events, the write and the commit.
	evs := r.acceptedEvents(plan.Results)
	if err := r.writeBatch(ctx, pc, w, rd, planRows(plan), evs); err != nil {
		return nil, err
	}
	setEventSeqs(plan.Results, evs)
	return plan.Results, nil
}

// acceptedEvents are the events of plan's accepted bets
// (tote.AcceptedEvents, two a bet, in the results' order) when the store
// logs them with the bets (LogUserEvents), else none.
func (r *Repo) acceptedEvents(res []tote.BatchResult) []usereventdb.Pending {
	if !r.logEvents {
		return nil
	}
	evs := make([]usereventdb.Pending, 0, 2*len(res))
	for _, x := range res {
		if x.Err != nil {
			continue
		}
		for _, e := range tote.AcceptedEvents(x.Bet, x.Balance) {
			evs = append(evs, usereventdb.Pending{UserID: int64(x.Bet.UserID), Event: e})
		}
	}
	return evs
}

// setEventSeqs gives each accepted bet of res the seq of its first event
// in evs (acceptedEvents' order, seqs set by the write).
func setEventSeqs(res []tote.BatchResult, evs []usereventdb.Pending) {
	if len(evs) == 0 {
		return
	}
	k := 0
	for i := range res {
		if res[i].Err == nil {
			res[i].EventSeq = evs[k].Event.Seq
			k += 2 // tote.AcceptedEvents' two
		}
	}
}

// batchRead is round trip 1 of an attempt: what it asks (the work, its
// players, their wallets in the ledger's lock order, the periods' starts)
// and what it reads, the snapshot's maps filled as the rows come.
type batchRead struct {
	w          tote.BatchWork
	lookup     bool // read the requests' taken keys (after a batch met one)
	starts     map[protection.Period]string
	users      []int64  // the players, distinct, by id
	walletRefs []string // their wallets' refs, in the ledger's lock order
	drawRow    toteDrawRow
	tableRow   toteTableRow
	takenKey   map[betKey]bool
	states     protectiondb.States
	walletID   map[int64]int64 // user -> wallet's account id
	snap       tote.BatchSnapshot
}

// newBatchRead prepares round trip 1 of w at the ledger's clock.
func (r *Repo) newBatchRead(w tote.BatchWork, lookup bool) *batchRead {
	now := sqldb.StoredTime(r.led.Now())
	users := make([]int64, len(w.Requests))
	for i, u := range w.Users() {
		users[i] = int64(u)
	}
	slices.Sort(users)
	users = slices.Compact(users)
	walletRefs := make([]string, len(users))
	for i, u := range users {
		walletRefs[i] = ledger.UserWallet(ids.UserID(u)).Ref
	}
	slices.SortFunc(walletRefs, func(a, b string) int {
		return ledgerdb.LockCompare(ledger.AccountRef{Kind: ledger.Wallet, Ref: a}, ledger.AccountRef{Kind: ledger.Wallet, Ref: b})
	})
	return &batchRead{w: w, lookup: lookup, starts: protectiondb.PeriodStarts(now, r.led.Location()),
		users: users, walletRefs: walletRefs, states: protectiondb.States{}, walletID: make(map[int64]int64, len(users)),
		snap: tote.BatchSnapshot{Now: now,
			Wallets:  make(map[ids.UserID]money.Amount, len(users)),
			Counters: make(map[ids.UserID]protection.Counters, len(users)),
			Sessions: make(map[ids.UserID]protection.Session, len(users)),
		},
	}
}

// readBatch is round trip 1, one pipeline. The reads that need no lock of
// the batch's come before the wallets' locks, so that concurrent batches
// of the same players wait for each other as briefly as they can.
func (r *Repo) readBatch(ctx context.Context, pc *pgx.Conn, rd *batchRead) error {
	q, err := r.batchSQL()
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	rd.queueDraw(b, q)
	if rd.lookup {
		rd.queueTaken(b)
	}
	if rd.w.ReadPlayers() {
		rd.queuePlayers(b, q)
	}
	rd.queueLocked(b)
	if err := r.db.SendBatch(ctx, pc, b, "select"); err != nil {
		return err
	}
	if len(rd.snap.BetIDs) != len(rd.w.Requests) {
		return fmt.Errorf("bet batch: %d ids for %d bets", len(rd.snap.BetIDs), len(rd.w.Requests))
	}
	return nil
}

// queueDraw opens the transaction, takes the draw's shared lock and reads
// the draw, its table and the bets' ids.
func (rd *batchRead) queueDraw(b *pgx.Batch, q batchQueries) {
	b.Queue("BEGIN")
	// The batch's statements are prepared once per connection and their
	// shape does not depend on the arrays' lengths; left to choose, the
	// server plans the protection-state read afresh on many batches, and
	// planning it costs several times executing it (pg_stat_statements with
	// track_planning: docs/bench/2026-12-01-bets.md). For this transaction only.
	b.Queue("SET LOCAL plan_cache_mode = force_generic_plan")
	b.Queue(sqldb.PGDrawLockShared, int32(drawLockClass), int32(rd.w.DrawID))
	b.Queue(q.draw, rd.w.DrawID).Query(func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToStructByName[toteDrawRow])
		if err != nil {
			return fmt.Errorf("read draw: %w", err)
		}
		if len(got) == 0 {
			return errs.R(errs.NotFound, tote.ReasonNotFound, "draw not found")
		}
		rd.drawRow = got[0]
		return nil
	})
	b.Queue(q.table, rd.w.DrawID).Query(func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToStructByName[toteTableRow])
		if err != nil {
			return fmt.Errorf("read table: %w", err)
		}
		if len(got) == 0 {
			return errs.R(errs.NotFound, tote.ReasonNotFound, "table not found")
		}
		rd.tableRow = got[0]
		return nil
	})
	b.Queue(pgBatchIDs, len(rd.w.Requests)).Query(func(rows pgx.Rows) error {
		var err error
		rd.snap.BetIDs, err = pgx.CollectRows(rows, pgx.RowTo[int64])
		return err
	})
}

// queueTaken reads which of the requests' keys a stored bet holds.
func (rd *batchRead) queueTaken(b *pgx.Batch) {
	rd.takenKey = map[betKey]bool{}
	b.Queue(pgBatchTaken, rd.w.Users(), rd.w.Keys()).Query(func(rows pgx.Rows) error {
		var k betKey
		_, err := pgx.ForEachRow(rows, []any{&k.user, &k.key}, func() error {
			rd.takenKey[k] = true
			return nil
		})
		return err
	})
	rd.snap.Taken = func(u ids.UserID, key string) bool { return rd.takenKey[betKey{int64(u), key}] }
}

// queuePlayers reads the stake gate's rows (the account, its latest
// verification): no lock of the batch's orders them.
func (rd *batchRead) queuePlayers(b *pgx.Batch, q batchQueries) {
	players := make(map[ids.UserID]tote.Player, len(rd.users))
	for _, u := range rd.users {
		players[ids.UserID(u)] = tote.Player{Err: accountdb.UserNotFound()}
	}
	rd.snap.Players = players
	b.Queue(q.users, rd.users).Query(func(rows pgx.Rows) error {
		got, err := accountdb.CollectUsers(rows)
		for _, u := range got {
			players[ids.UserID(u.ID)] = tote.Player{User: u}
		}
		return err
	})
	b.Queue(q.verifications, rd.users).Query(func(rows pgx.Rows) error {
		got, err := accountdb.CollectVerifications(rows)
		for _, v := range got {
			if p := players[ids.UserID(v.UserID)]; p.Err == nil {
				p.Verification = v
				players[ids.UserID(v.UserID)] = p
			}
		}
		return err
	})
}

// queueLocked locks the players' wallets (the ledger's order) and reads
// their balances, then their protection state, then locks and reads their
// counters and sessions of play (the guard's lock order).
func (rd *batchRead) queueLocked(b *pgx.Batch) {
	b.Queue(pgBatchWallets, rd.walletRefs).Query(func(rows pgx.Rows) error {
		var (
			id, bal int64
			ref     string
		)
		_, err := pgx.ForEachRow(rows, []any{&id, &ref, &bal}, func() error {
			if u, ok := (ledger.AccountRef{Kind: ledger.Wallet, Ref: ref}).User(); ok {
				rd.walletID[int64(u)], rd.snap.Wallets[u] = id, money.Amount(bal)
			}
			return nil
		})
		return err
	})
	// The protection state is read after the wallets are locked: an
	// exclusion holds the wallet while it reads the clock (holdWallet), so
	// it committed before this read or starts after this batch commits.
	b.Queue(pgBatchState, rd.users).Query(func(rows pgx.Rows) error {
		var row protectiondb.StateRow
		_, err := pgx.ForEachRow(rows, row.Dest(), func() error {
			rd.states.Add(row)
			return nil
		})
		return err
	})
	s := rd.starts
	b.Queue(protectiondb.StandingSelectPG, rd.users, s[protection.Day], s[protection.Week], s[protection.Month]).Query(func(rows pgx.Rows) error {
		var row protectiondb.StandingRow
		_, err := pgx.ForEachRow(rows, row.Dest(), func() error {
			row.Fold(rd.snap.Counters, rd.snap.Sessions)
			return nil
		})
		return err
	})
}

// completeSnapshot finishes the snapshot round trip 1 read: the draw's
// chances parsed (once per change, chancesCache), the register matched
// (its rare path reads more), the players' protection states.
func (r *Repo) completeSnapshot(ctx context.Context, pc *pgx.Conn, rd *batchRead) (tote.BatchSnapshot, error) {
	raw := rd.drawRow.Chances
	rd.drawRow.Chances = ""
	d, err := toDomainDraw(rd.drawRow)
	if err == nil {
		d.Chances, err = r.chances.parse(d.ID, raw)
	}
	if err != nil {
		return tote.BatchSnapshot{}, errs.Wrap(err, "a stored draw is unreadable")
	}
	rd.snap.Draw, rd.snap.Table = d, toDomainTable(rd.tableRow)
	if err := rd.states.Resolve(registerCandidatesPG(ctx, pc)); err != nil {
		return tote.BatchSnapshot{}, err
	}
	rd.snap.States = make(map[ids.UserID]protection.State, len(rd.states))
	for u, st := range rd.states {
		rd.snap.States[ids.UserID(u)] = st.State()
	}
	return rd.snap, nil
}

// registerCandidatesPG reads, on pc, the register entries that may name a
// player and the player's documents (protectiondb.States.Resolve).
func registerCandidatesPG(ctx context.Context, pc *pgx.Conn) func(userID int64, dob string) ([]protectiondb.RegisterCandidate, []string, error) {
	return func(userID int64, dob string) ([]protectiondb.RegisterCandidate, []string, error) {
		rows, err := pc.Query(ctx, pgRegisterCandidates, dob, userID)
		if err != nil {
			return nil, nil, err
		}
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[protectiondb.RegisterCandidate])
		if err != nil {
			return nil, nil, err
		}
		if rows, err = pc.Query(ctx, pgPlayerDocuments, userID); err != nil {
			return nil, nil, err
		}
		docs, err := pgx.CollectRows(rows, pgx.RowTo[string])
		return got, docs, err
	}
}

// writeBatch is round trip 2: the players' events evs (their seqs set
// once it answers), pgBatchWrite with the plan's rows wr, the
// pool totals' upsert (tote_pool_totals.go), then COMMIT, in one pipeline; the counts the write answers are checked
// against wr.
func (r *Repo) writeBatch(ctx context.Context, pc *pgx.Conn, w tote.BatchWork, rd *batchRead, wr batchRows, evs []usereventdb.Pending) error {
	var back batchWriteBack
	var seqs usereventdb.Seqs
	b := &pgx.Batch{}
	if len(evs) > 0 {
		// First: the players' counters of seqs are theirs alone (no
		// batch of another draw waits on them), so they are taken before
		// the hot rows of the write, not held with those.
		users, at, data, err := usereventdb.PGAppendArgs(evs)
		if err != nil {
			return err
		}
		b.Queue(usereventdb.PGAppend, users, at, data).Query(seqs.Scan)
	}
	b.Queue(pgBatchWrite, wr.pgArgs(rd.snap.Draw, rd.snap.Now, rd.walletID, rd.starts)).Query(back.scan)
	// The totals last: their hot rows stay locked for this statement and
	// the COMMIT sent with it only.
	queuePoolTotals(b, wr.totals)
	if w.Writing != nil {
		w.Writing()
	}
	committed := false
	b.Queue("COMMIT").Exec(func(pgconn.CommandTag) error {
		committed = true
		return nil
	})
	if err := r.db.SendBatch(ctx, pc, b, "insert"); err != nil && !committed {
		return batchWriteErr(err, back.entries > 0)
	}
	if len(evs) > 0 {
		if err := seqs.Set(evs); err != nil {
			return err
		}
	}
	return back.check(wr)
}

// batchWriteErr maps a failure of round trip 2 before its COMMIT answered;
// wrote says the write statement answered rows.
func batchWriteErr(err error, wrote bool) error {
	switch {
	case sqldb.IsUniqueViolation(err):
		return fmt.Errorf("bet batch: %w", errors.Join(errBetKeyRace, err))
	case wrote && !sqldb.KnownRollback(err):
		// The write went through; the COMMIT's fate is unknown.
		return errs.CommitUnknown(err)
	case !serverAnswered(err) && !pgconn.SafeToRetry(err):
		// The connection failed after the batch, COMMIT included, was
		// sent: the server may have committed it. Saying "nothing was
		// changed" would invite a retry with a new key.
		return errs.CommitUnknown(err)
	}
	return err
}

// batchWriteBack counts what pgBatchWrite answered.
type batchWriteBack struct {
	entries, bets, wallets, counters, sessions int64
}

// scan reads pgBatchWrite's rows: one per entry, each with the counts.
func (k *batchWriteBack) scan(rows pgx.Rows) error {
	var id, transfer, account, after int64
	_, err := pgx.ForEachRow(rows, []any{&id, &transfer, &account, &after, &k.bets, &k.wallets, &k.counters, &k.sessions}, func() error {
		k.entries++
		return nil
	})
	return err
}

// check compares the counts with the rows wr meant to write.
func (k batchWriteBack) check(wr batchRows) error {
	nPlayers := int64(len(wr.players))
	if k.entries != int64(len(wr.entries)) || k.bets != int64(len(wr.bets)) || k.wallets != nPlayers ||
		k.counters != nPlayers*int64(len(protection.Periods)) || k.sessions != nPlayers {
		return fmt.Errorf("bet batch: the write answered %d entries, %d bets, %d wallets, %d counters, %d sessions for %d entries, %d bets, %d players",
			k.entries, k.bets, k.wallets, k.counters, k.sessions, len(wr.entries), len(wr.bets), nPlayers)
	}
	return nil
}

// serverAnswered reports whether err is the server's own error: a
// statement of the batch failed, so its transaction (and the COMMIT queued
// behind it) rolled back.
func serverAnswered(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg)
}

// chancesCache keeps the parsed chances (tote.ParseChances) of the draws
// the fast path met lately, by draw id, with the stored text each was
// parsed from. A draw's chances change only when a betting round opens,
// yet every batch reads the draw: parsing a late round's chances cost
// about half of what PlanBatch itself costs for a batch of 8 bets
// (BenchmarkParseChances and BenchmarkPlanBatch, docs/bench/2026-12-01-stake-engine.md).
// The parsed chances are shared by the batches of a draw: nothing may
// modify them.
type chancesCache struct {
	mu sync.Mutex
	m  map[int64]parsedChances
}

// parsedChances is one draw's stored chances and their parsed form.
type parsedChances struct {
	raw    string
	parsed []tote.RoundChances
}

// chancesCached bounds the draws the cache holds (all are forgotten when it
// is full: the live draws come back at their next batch).
const chancesCached = 64

// parse is tote.ParseChances(raw), parsed once while draw drawID's stored
// chances stay raw.
func (c *chancesCache) parse(drawID int64, raw string) ([]tote.RoundChances, error) {
	c.mu.Lock()
	e, ok := c.m[drawID]
	c.mu.Unlock()
	if ok && e.raw == raw {
		return e.parsed, nil
	}
	parsed, err := tote.ParseChances(raw)
	if err != nil {
		return nil, fmt.Errorf("draw id %d: %w", drawID, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= chancesCached {
		c.m = make(map[int64]parsedChances, chancesCached)
	}
	c.m[drawID] = parsedChances{raw: raw, parsed: parsed}
	return parsed, nil
}

// protectiondb's RegisterCandidatesSelect and PlayerDocumentsSelect with
// pgx's placeholders.
var (
	pgRegisterCandidates = pgParams(protectiondb.RegisterCandidatesSelect)
	pgPlayerDocuments    = pgParams(protectiondb.PlayerDocumentsSelect)
)

// pgParams numbers the ? placeholders of a statement written for GORM
// ($1, $2, ...) for pgx.
func pgParams(q string) string {
	var sb strings.Builder
	n := 0
	for _, c := range q {
		if c != '?' {
			sb.WriteRune(c)
			continue
		}
		n++
		fmt.Fprintf(&sb, "$%d", n)
	}
	return sb.String()
}

// placedAt is when the batch's bets were judged (tote.PlanBatch's clock,
// the one their round's close is checked against, published in their
// leaves), stored as placed_at; now when the plan has no bet.
func (w batchRows) placedAt(now time.Time) time.Time {
	if len(w.bets) > 0 && !w.bets[0].PlacedAt.IsZero() {
		return sqldb.StoredTime(w.bets[0].PlacedAt)
	}
	return now
}

// pgArgs are the named parameters of pgBatchWrite: the rows as arrays, one
// per column, for the draw d at now; walletID holds the players' wallet
// ids, starts the periods' starts.
func (w batchRows) pgArgs(d tote.Draw, now time.Time, walletID map[int64]int64, starts map[protection.Period]string) pgx.NamedArgs {
	args := w.betArgs(d, now)
	led := w.ledgerRows(walletID)
	led.Args(now, args)
	var standing protectiondb.StandingRows
	for _, pl := range w.players {
		standing.Counters(int64(pl.User), pl.Counters, starts)
		// Every admitted stake plays the session (protection.Admit).
		standing.Session(pl.Session)
	}
	standing.Args(args)
	return args
}

// betArgs are pgBetsInsert's parameters: the bets of d, placed at
// placedAt(now).
func (w batchRows) betArgs(d tote.Draw, now time.Time) pgx.NamedArgs {
	var (
		bIDs, bUsers, bStakes  []int64
		bMarkets, bSels, bKeys []string
	)
	for _, bet := range w.bets {
		bIDs, bUsers, bStakes = append(bIDs, bet.ID), append(bUsers, int64(bet.UserID)), append(bStakes, int64(bet.Stake))
		bMarkets, bSels, bKeys = append(bMarkets, string(bet.Selection.Market)), append(bSels, bet.Selection.String()), append(bKeys, bet.IdempotencyKey)
	}
	return pgx.NamedArgs{
		"draw_id": d.ID, "table_id": d.TableID, "round": int(d.OpenRound()), "placed_at": w.placedAt(now),
		"bet_ids": bIDs, "bet_users": bUsers, "bet_markets": bMarkets, "bet_selections": bSels, "bet_stakes": bStakes, "bet_keys": bKeys,
	}
}

// ledgerRows are the plan's ledger rows (ledgerwrite.WritePG with
// escrows): the stakes' transfers and entries in posting order, the
// wallets' final balances by player, the escrows' totals by reference.
func (w batchRows) ledgerRows(walletID map[int64]int64) *ledgerwrite.PGRows {
	rows := &ledgerwrite.PGRows{}
	for _, tr := range w.transfers {
		rows.Transfer(tr)
	}
	for _, pl := range w.players {
		rows.Balance(walletID[int64(pl.User)], pl.Balance)
	}
	for _, e := range w.escrows {
		rows.AddToEscrow(e.ref, e.amount)
	}
	for _, e := range w.entries {
		if e.ref != "" {
			rows.EscrowEntry(e.key, e.ref, e.amount, e.tail)
			continue
		}
		rows.Entry(e.key, walletID[int64(e.user)], e.amount, e.after)
	}
	return rows
}
