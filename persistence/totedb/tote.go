package totedb

// The totalizator adapter: tote.Store and tote.LeaseStore on Postgres and
// SQLite.
//
// # The round-close race
//
// A bet's transaction takes the draw's advisory lock in shared mode
// (pg_advisory_xact_lock_shared) and then reads the draw to check that the
// round is open; a dealer step (or an admin's void) takes it exclusively
// (pg_advisory_xact_lock) and reads the row FOR UPDATE before changing it.
// The exclusive lock waits for every bet in flight to commit; a bet
// arriving meanwhile queues behind it, and its read, a new statement under
// READ COMMITTED, then sees the round closed. Advisory locks are used rather
// than SELECT ... FOR SHARE because row share locks admit new sharers while
// a FOR UPDATE waits, so a steady stream of bets could hold a close off for
// ever (the conformance suite's CloseRace test caught exactly that). On
// SQLite every transaction starts IMMEDIATE on the one connection, so they
// simply run one at a time.
//
// # Fencing
//
// Every dealer step first runs CheckLease: SELECT ... FOR SHARE of the
// lease row matching the dealer's owner and fence. A replica taking the
// lease over updates that row, so it waits for the step to commit, and a
// step of the old holder started after the takeover finds no matching row
// and writes nothing.

import (
	"context"
	"strings"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/ledgerdb"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database tote.Store and tote.LeaseStore. Its transactions
// post money through the ledgerdb.Repo's transaction-bound poster.
type Repo struct {
	db  *sqldb.DB
	led *ledgerdb.Repo
	// chances are the parsed chances of the draws the bet batch met lately
	// (tote_batch_pg.go).
	chances chancesCache
	// watch hears of the transactions that may change the jackpot
	// (WatchJackpot); nil: none.
	watch tote.JackpotWatch
	// logEvents: the Postgres bet batch appends its players' events to
	// their streams in its own transaction (LogUserEvents).
	logEvents bool
	// betScan is the fewest rows a bet listing filtered by status reads at
	// a time (minBetScan; a test makes it 1 to walk the scan's steps).
	betScan int
}

var (
	_ tote.Store      = (*Repo)(nil)
	_ tote.LeaseStore = (*Repo)(nil)
)

// New returns the totalizator's store on db, posting through led.
func New(db *sqldb.DB, led *ledgerdb.Repo) *Repo {
	return &Repo{db: db, led: led, betScan: minBetScan}
}

// WatchJackpot has w told of every transaction that may change the
// jackpot (tote.JackpotWatch): Begin when one of Within's transactions
// first locks the jackpot's balance, posts to the JACKPOT account, appends
// to the jackpot chain or sets the jackpot on or off, End once the
// transaction is over. Call it before the store is used.
func (r *Repo) WatchJackpot(w tote.JackpotWatch) { r.watch = w }

// LogUserEvents has the Postgres bet batch append each accepted bet's
// events (tote.AcceptedEvents) to its player's stream, the user event log
// of persistence/usereventdb, in the bet's own transaction, and answer
// their seqs (tote.BatchResult.EventSeq): a bet and its events commit
// together, in one commit instead of two. Without it (and on SQLite) the
// publisher's log appends them after the commit. Call it before the store
// is used, only where that log is the one the players read.
func (r *Repo) LogUserEvents() { r.logEvents = true }

// Within implements tote.Store: fn runs in one transaction, retried as a
// whole after a Postgres serialization failure or deadlock.
func (r *Repo) Within(ctx context.Context, fn func(ctx context.Context, tx tote.Tx) error) error {
	// Each attempt that may change the jackpot told the watch Begin; End
	// follows once the last attempt is over (committed or rolled back).
	var began int
	defer func() {
		for range began {
			r.watch.End()
		}
	}()
	err := sqldb.RetryTxRaw(ctx, r.db, func(tx *gorm.DB, raw sqldb.RawConn) error {
		return fn(ctx, &toteTx{repo: r, tx: tx, raw: raw, began: &began})
	})
	return sqldb.MapErr(err, "")
}

// read is the connection pool for reads outside a transaction (the read
// replica for a LagTolerant context, replica.go); call done once the read
// is over.
func (r *Repo) read(ctx context.Context) (rd *gorm.DB, done func()) { return r.db.Reader(ctx) }

// Table implements tote.Store.
func (r *Repo) Table(ctx context.Context, id int64) (tote.Table, error) {
	rd, done := r.read(ctx)
	defer done()
	return takeTable(rd.Where("id = ?", id))
}

func takeTable(q *gorm.DB) (tote.Table, error) {
	var row toteTableRow
	if err := q.Take(&row).Error; err != nil {
		return tote.Table{}, sqldb.MapErr(err, "table")
	}
	return toDomainTable(row), nil
}

// Tables implements tote.Store.
func (r *Repo) Tables(ctx context.Context) ([]tote.Table, error) {
	var rows []toteTableRow
	rd, done := r.read(ctx)
	defer done()
	if err := rd.Order("id").Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "tables")
	}
	out := make([]tote.Table, len(rows))
	for i, row := range rows {
		out[i] = toDomainTable(row)
	}
	return out, nil
}

// Draw implements tote.Store.
func (r *Repo) Draw(ctx context.Context, id int64) (tote.Draw, error) {
	rd, done := r.read(ctx)
	defer done()
	return takeDraw(rd.Where("id = ?", id))
}

// TablesByID implements tote.Store: one query for many tables.
func (r *Repo) TablesByID(ctx context.Context, ids []int64) ([]tote.Table, error) {
	var rows []toteTableRow
	rd, done := r.read(ctx)
	defer done()
	if err := rd.Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "tables")
	}
	out := make([]tote.Table, len(rows))
	for i, row := range rows {
		out[i] = toDomainTable(row)
	}
	return out, nil
}

// DrawsByID implements tote.Store: one query for many draws.
func (r *Repo) DrawsByID(ctx context.Context, ids []int64) ([]tote.Draw, error) {
	var rows []toteDrawRow
	rd, done := r.read(ctx)
	defer done()
	if err := rd.Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "draws")
	}
	out := make([]tote.Draw, len(rows))
	for i, row := range rows {
		d, err := toDomainDraw(row)
		if err != nil {
			return nil, errs.Wrap(err, "a stored draw is unreadable")
		}
		out[i] = d
	}
	return out, nil
}

// LatestDraw implements tote.Store.
func (r *Repo) LatestDraw(ctx context.Context, tableID int64) (tote.Draw, error) {
	rd, done := r.read(ctx)
	defer done()
	return takeDraw(rd.Where("table_id = ?", tableID).Order("number DESC"))
}

func takeDraw(q *gorm.DB) (tote.Draw, error) {
	var row toteDrawRow
	if err := q.Take(&row).Error; err != nil {
		return tote.Draw{}, sqldb.MapErr(err, "draw")
	}
	d, err := toDomainDraw(row)
	return d, errs.Wrap(err, "a stored draw is unreadable")
}

// Bet implements tote.Store.
func (r *Repo) Bet(ctx context.Context, id int64) (tote.Bet, error) {
	rd, done := r.read(ctx)
	defer done()
	return takeBet(rd.Where("id = ?", id))
}

// BetByKey implements tote.Store.
func (r *Repo) BetByKey(ctx context.Context, userID ids.UserID, key string) (tote.Bet, error) {
	rd, done := r.read(ctx)
	defer done()
	return takeBet(rd.Where("user_id = ? AND idempotency_key = ?", int64(userID), key))
}

func takeBet(q *gorm.DB) (tote.Bet, error) {
	var row toteBetRead
	if err := q.Take(&row).Error; err != nil {
		return tote.Bet{}, sqldb.MapErr(err, "bet")
	}
	b, err := row.bet()
	return b, errs.Wrap(err, "a stored bet is unreadable")
}

// idOrder is the ORDER BY of a listing by id: newest first unless oldest.
func idOrder(oldest bool) string {
	if oldest {
		return "id"
	}
	return "id DESC"
}

func findBets(q *gorm.DB) ([]tote.Bet, error) {
	var rows []toteBetRead
	if err := q.Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	bets, err := toDomainBets(rows)
	return bets, errs.Wrap(err, "a stored bet is unreadable")
}

// DrawBets implements tote.Store.
func (r *Repo) DrawBets(ctx context.Context, drawID int64) ([]tote.Bet, error) {
	rd, done := r.read(ctx)
	defer done()
	return findBets(rd.Where("draw_id = ?", drawID).Order("id"))
}

// RoundLeaves implements tote.Store.
func (r *Repo) RoundLeaves(ctx context.Context, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error) {
	rd, done := r.read(ctx)
	defer done()
	return roundLeaves(rd, drawID, round)
}

// leafPage is how many bets EachLeaf reads at a time.
const leafPage = 5000

// EachLeaf implements tote.Store: keyset pages of (round, id), on the
// index tote_bets_pool's leading columns.
func (r *Repo) EachLeaf(ctx context.Context, drawID int64, round parimutuel.Round, fn func(betroot.Leaf) error) error {
	lastRound, lastID := 0, int64(0)
	for {
		rows, err := r.leafPage(ctx, drawID, round, lastRound, lastID)
		if err != nil {
			return err
		}
		for _, row := range rows {
			if err := fn(row.leaf()); err != nil {
				return err
			}
		}
		if len(rows) < leafPage {
			return nil
		}
		lastRound, lastID = rows[len(rows)-1].Round, rows[len(rows)-1].ID
	}
}

// leafPage reads the next page of a draw's leaves after (lastRound, lastID).
func (r *Repo) leafPage(ctx context.Context, drawID int64, round parimutuel.Round, lastRound int, lastID int64) ([]leafRow, error) {
	rd, done := r.read(ctx)
	defer done()
	q := rd.Model(&toteBetRow{}).Select(leafColumns).Where("draw_id = ?", drawID).
		Where("(round > ? OR (round = ? AND id > ?))", lastRound, lastRound, lastID)
	if round != 0 {
		q = q.Where("round = ?", int(round))
	}
	var rows []leafRow
	if err := q.Order("round, id").Limit(leafPage).Scan(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	return rows, nil
}

// PoolTotals implements tote.Store.
func (r *Repo) PoolTotals(ctx context.Context, drawID int64, round parimutuel.Round) ([]tote.SelectionTotal, error) {
	rd, done := r.read(ctx)
	defer done()
	return poolTotals(rd, drawID, round)
}

// poolTotals reads a draw's stakes per round and selection from
// tote_pool_totals, which every bet path keeps equal to the sums over
// tote_bets (tote_pool_totals.go): the cost does not grow with the draw.
func poolTotals(db *gorm.DB, drawID int64, round parimutuel.Round) ([]tote.SelectionTotal, error) {
	var rows []struct {
		Round     int
		Market    string
		Selection string
		Stake     int64
		Bets      int
	}
	q := db.Table("tote_pool_totals").Select("round, market, selection, stake, bets").
		Where("draw_id = ? AND bets > 0", drawID).Order("round, market, selection")
	if round != 0 {
		q = q.Where("round = ?", int(round))
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "pool totals")
	}
	out := make([]tote.SelectionTotal, len(rows))
	for i, row := range rows {
		sel, err := parimutuel.ParseSelection(parimutuel.Market(row.Market), row.Selection)
		if err != nil {
			return nil, errs.Wrap(err, "a stored selection is unreadable")
		}
		out[i] = tote.SelectionTotal{Round: parimutuel.Round(row.Round), Selection: sel, Stake: moneyOf(row.Stake), Bets: row.Bets}
	}
	return out, nil
}

// Results implements tote.Store.
func (r *Repo) Results(ctx context.Context, q tote.ResultQuery) ([]tote.Draw, error) {
	rd, done := r.read(ctx)
	defer done()
	db := rd.Where("phase IN ?", []string{string(tote.PhaseSettled), string(tote.PhaseVoid)}).Order(idOrder(q.Oldest)).Limit(q.Limit)
	if q.TableID != 0 {
		db = db.Where("table_id = ?", q.TableID)
	}
	if q.Before != 0 {
		db = db.Where("id < ?", q.Before)
	}
	if q.After != 0 {
		db = db.Where("id > ?", q.After)
	}
	if !q.From.IsZero() {
		db = db.Where("settled_at >= ?", sqldb.StoredTime(q.From))
	}
	if !q.To.IsZero() {
		db = db.Where("settled_at < ?", sqldb.StoredTime(q.To))
	}
	var rows []toteDrawRow
	if err := db.Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "results")
	}
	out := make([]tote.Draw, len(rows))
	for i, row := range rows {
		var err error
		if out[i], err = toDomainDraw(row); err != nil {
			return nil, errs.Wrap(err, "a stored draw is unreadable")
		}
	}
	return out, nil
}

// VoidCounts implements tote.Store.
func (r *Repo) VoidCounts(ctx context.Context, tableID int64) ([]tote.VoidCount, error) {
	var rows []struct {
		VoidKind string
		N        int64
	}
	rd, done := r.read(ctx)
	defer done()
	err := rd.Model(&toteDrawRow{}).Select("void_kind, count(*) AS n").
		Where("table_id = ? AND phase = ?", tableID, string(tote.PhaseVoid)).Group("void_kind").Scan(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "void counts")
	}
	out := make([]tote.VoidCount, len(rows))
	for i, row := range rows {
		out[i] = tote.VoidCount{Kind: tote.VoidKind(row.VoidKind), Count: row.N}
	}
	return out, nil
}

// EventsAfter implements tote.Store.
func (r *Repo) EventsAfter(ctx context.Context, tableID, after int64, limit int) ([]tote.TableEvent, error) {
	var rows []toteEventRow
	rd, done := r.read(ctx)
	defer done()
	err := rd.Where("table_id = ? AND seq > ?", tableID, after).Order("seq").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "events")
	}
	out := make([]tote.TableEvent, len(rows))
	for i, row := range rows {
		e, err := tote.DecodeTableEvent([]byte(row.Payload))
		if err != nil {
			return nil, errs.Wrap(err, "a stored event is unreadable")
		}
		out[i] = e
	}
	return out, nil
}

// jackpotSetting is the settings key of the jackpot's on/off flag.
const jackpotSetting = "tote.jackpot_enabled"

// JackpotEnabled implements tote.Store.
func (r *Repo) JackpotEnabled(ctx context.Context) (bool, error) {
	rd, done := r.read(ctx)
	defer done()
	return jackpotEnabled(rd)
}

func jackpotEnabled(db *gorm.DB) (bool, error) {
	var values []string
	if err := db.Table("settings").Where("key = ?", jackpotSetting).Pluck("value", &values).Error; err != nil {
		return false, sqldb.MapErr(err, "setting")
	}
	return len(values) == 0 || strings.TrimSpace(values[0]) != "false", nil
}
