package totedb

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/pokertote/pokertote/domain/betroot"
	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/parimutuel"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// toteTx is the tote.Tx of one database transaction.
type toteTx struct {
	repo *Repo
	tx   *gorm.DB
	// raw reaches the transaction's pgx connection (Postgres, and only
	// when the transaction was begun by Within; nil otherwise), for the
	// settlement's read of a draw's bets (tallyBetsPG).
	raw sqldb.RawConn
	// began counts the attempts of Within that told the watch Begin;
	// watched says this attempt did.
	began   *int
	watched bool
}

// changesJackpot tells the store's watch, once per attempt and before it
// can commit, that this transaction may change the jackpot. Only Within's
// transactions count them (began); the other toteTx, the SQLite bet
// batch's, moves stakes into escrow and never the jackpot.
func (t *toteTx) changesJackpot() {
	if t.repo.watch == nil || t.watched || t.began == nil {
		return
	}
	t.watched = true
	*t.began++
	t.repo.watch.Begin()
}

var _ tote.Tx = (*toteTx)(nil)

func moneyOf(n int64) money.Amount { return money.Amount(n) }

// CheckLease implements tote.Tx: the lease row must still carry the
// dealer's owner and fence; on Postgres it stays share-locked until commit,
// so a takeover waits for this transaction.
func (t *toteTx) CheckLease(ctx context.Context, l tote.Lease) error {
	var fences []int64
	q := "SELECT fence FROM tote_leases WHERE table_id = ? AND owner = ? AND fence = ?" + t.repo.db.LockSuffix(sqldb.LockShared)
	if err := t.tx.WithContext(ctx).Raw(q, l.TableID, l.Owner, l.Fence).Scan(&fences).Error; err != nil {
		return sqldb.MapErr(err, "lease")
	}
	if len(fences) != 1 {
		return tote.ErrLeaseLost(l.TableID)
	}
	return nil
}

// InsertTable implements tote.Tx.
func (t *toteTx) InsertTable(ctx context.Context, tab tote.Table) (tote.Table, error) {
	row := fromDomainTable(tab)
	row.ID = 0
	res := t.tx.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "name"}}, DoNothing: true}).Create(&row)
	if res.Error != nil {
		return tote.Table{}, sqldb.MapErr(res.Error, "table")
	}
	if res.RowsAffected == 0 {
		return tote.Table{}, errs.R(errs.Conflict, tote.ReasonTableNameTaken, "a table named %q exists", tab.Name)
	}
	return toDomainTable(row), nil
}

// Table implements tote.Tx.
func (t *toteTx) Table(ctx context.Context, id int64) (tote.Table, error) {
	return takeTable(t.tx.WithContext(ctx).Where("id = ?", id))
}

// LockTable implements tote.Tx.
func (t *toteTx) LockTable(ctx context.Context, id int64) (tote.Table, error) {
	return takeTable(t.tx.WithContext(ctx).Clauses(t.repo.db.LockRows(sqldb.LockExclusive)...).Where("id = ?", id))
}

// UpdateTable implements tote.Tx. The event sequence is not touched.
func (t *toteTx) UpdateTable(ctx context.Context, tab tote.Table) error {
	row := fromDomainTable(tab)
	res := t.tx.WithContext(ctx).Model(&toteTableRow{}).Where("id = ?", tab.ID).
		Select("name", "status", "min_stake", "max_stake", "commission_bp", "round1_ms", "round2_ms", "round3_ms", "round4_ms",
			"card_interval_ms", "result_ms", "express_share1_bp", "express_share2_bp", "suspend_at_bp", "updated_at").Updates(&row)
	if res.Error != nil {
		return sqldb.MapErr(res.Error, "table")
	}
	if res.RowsAffected != 1 {
		return errs.R(errs.NotFound, tote.ReasonNotFound, "table not found")
	}
	return nil
}

// drawLockClass namespaces the advisory locks of draws ("tote").
const drawLockClass = 0x746f7465

// LockDraw implements tote.Tx. On Postgres it first takes the draw's
// transaction-scoped advisory lock, shared or exclusive, then reads the
// row (FOR UPDATE when exclusive). Advisory locks queue fairly: once a
// close waits for the bets holding the shared lock, later bets queue behind
// it. (Row-level FOR SHARE would let new bets join the holders forever and
// starve the close.)
func (t *toteTx) LockDraw(ctx context.Context, id int64, mode tote.LockMode) (tote.Draw, error) {
	db := t.tx.WithContext(ctx)
	lock := sqldb.LockExclusive
	if mode == tote.Shared {
		lock = sqldb.LockShared
	}
	if err := t.repo.db.AdvisoryXactLock(db, drawLockClass, int32(id), lock); err != nil {
		return tote.Draw{}, sqldb.MapErr(err, "draw")
	}
	q := db.Where("id = ?", id)
	if mode == tote.Exclusive {
		q = q.Clauses(t.repo.db.LockRows(sqldb.LockExclusive)...)
	}
	return takeDraw(q)
}

// LatestDraw implements tote.Tx.
func (t *toteTx) LatestDraw(ctx context.Context, tableID int64) (tote.Draw, error) {
	return takeDraw(t.tx.WithContext(ctx).Where("table_id = ?", tableID).Order("number DESC"))
}

// InsertDraw implements tote.Tx.
func (t *toteTx) InsertDraw(ctx context.Context, d tote.Draw) (tote.Draw, error) {
	d.Version = 1
	row, err := fromDomainDraw(d)
	if err != nil {
		return tote.Draw{}, errs.Wrap(err, "the draw could not be stored")
	}
	row.ID = 0
	res := t.tx.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "table_id"}, {Name: "number"}}, DoNothing: true}).Create(&row)
	if res.Error != nil {
		return tote.Draw{}, sqldb.MapErr(res.Error, "draw")
	}
	if res.RowsAffected == 0 {
		return tote.Draw{}, tote.ErrDrawChanged(0)
	}
	d.ID = row.ID
	return d, nil
}

// drawColumns are the columns a draw's update may change.
var drawColumns = []string{"phase", "round_closes_at", "next_step_at", "version", "public_seed", "revealed",
	"pockets", "board", "burns", "odds", "result", "void_reason", "void_kind", "settled_at", "beacons", "bet_roots", "chances"}

// UpdateDraw implements tote.Tx with a version check.
func (t *toteTx) UpdateDraw(ctx context.Context, d tote.Draw) (tote.Draw, error) {
	next := d
	next.Version++
	row, err := fromDomainDraw(next)
	if err != nil {
		return tote.Draw{}, errs.Wrap(err, "the draw could not be stored")
	}
	res := t.tx.WithContext(ctx).Model(&toteDrawRow{}).Where("id = ? AND version = ?", d.ID, d.Version).
		Select(drawColumns).Updates(&row)
	if res.Error != nil {
		return tote.Draw{}, sqldb.MapErr(res.Error, "draw")
	}
	if res.RowsAffected != 1 {
		return tote.Draw{}, tote.ErrDrawChanged(d.ID)
	}
	return next, nil
}

// RoundLeaves implements tote.Tx.
func (t *toteTx) RoundLeaves(ctx context.Context, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error) {
	return roundLeaves(t.tx.WithContext(ctx), drawID, round)
}

// leafRow is a bet as a leaf of its round's bet root.
type leafRow struct {
	ID        int64
	Round     int
	Market    string
	Selection string
	Stake     int64
	PlacedAt  time.Time
}

// leafColumns are leafRow's columns.
const leafColumns = "id, round, market, selection, stake, placed_at"

func (r leafRow) leaf() betroot.Leaf {
	return betroot.Leaf{Version: 1, ID: r.ID, Round: r.Round, Market: r.Market, Selection: r.Selection, Stake: r.Stake, PlacedAt: r.PlacedAt.Truncate(time.Millisecond).UTC()}
}

// roundLeaves reads one round's bets as leaves of its bet root, in id
// order (the caller sets their version: tote.LeavesOf).
func roundLeaves(db *gorm.DB, drawID int64, round parimutuel.Round) ([]betroot.Leaf, error) {
	var rows []leafRow
	err := db.Model(&toteBetRow{}).Select(leafColumns).
		Where("draw_id = ? AND round = ?", drawID, int(round)).Order("id").Scan(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "bets")
	}
	out := make([]betroot.Leaf, len(rows))
	for i, r := range rows {
		out[i] = r.leaf()
	}
	return out, nil
}

// PoolTotals implements tote.Tx.
func (t *toteTx) PoolTotals(ctx context.Context, drawID int64, round parimutuel.Round) ([]tote.SelectionTotal, error) {
	return poolTotals(t.tx.WithContext(ctx), drawID, round)
}

// AppendEvent implements tote.Tx: the table row's last_seq is incremented
// (which locks it, ordering appends per table) and the event stored under
// the new number.
func (t *toteTx) AppendEvent(ctx context.Context, e tote.TableEvent) (tote.TableEvent, error) {
	db := t.tx.WithContext(ctx)
	var seqs []int64
	if err := db.Raw("UPDATE tote_tables SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq", e.TableID).Scan(&seqs).Error; err != nil {
		return tote.TableEvent{}, sqldb.MapErr(err, "table")
	}
	if len(seqs) != 1 {
		return tote.TableEvent{}, errs.R(errs.NotFound, tote.ReasonNotFound, "table not found")
	}
	e.Seq = seqs[0]
	e.At = sqldb.StoredTime(e.At)
	row := toteEventRow{TableID: e.TableID, Seq: e.Seq, Type: string(e.Type), Payload: string(e.Encode()), CreatedAt: e.At}
	if e.DrawID != 0 {
		row.DrawID = &e.DrawID
	}
	if err := db.Create(&row).Error; err != nil {
		return tote.TableEvent{}, sqldb.MapErr(err, "event")
	}
	return e, nil
}

// Ledger implements tote.Tx: posts inside this transaction.
func (t *toteTx) Ledger() ledger.Poster {
	if t.repo.watch == nil {
		return t.repo.led.Poster(t.tx)
	}
	return t.repo.led.PosterWatchingJackpot(t.tx, t.changesJackpot)
}

// JackpotBalance implements tote.Tx: the ledger holds the JACKPOT
// account's balance locked until commit, so concurrent settlements take
// turns.
func (t *toteTx) JackpotBalance(ctx context.Context) (money.Amount, error) {
	t.changesJackpot()
	bal, err := t.repo.led.LockBalance(t.tx.WithContext(ctx), ledger.JackpotAccount)
	return bal, sqldb.MapErr(err, "jackpot")
}

// JackpotEnabled implements tote.Tx.
func (t *toteTx) JackpotEnabled(ctx context.Context) (bool, error) {
	return jackpotEnabled(t.tx.WithContext(ctx))
}

// SetJackpotEnabled implements tote.Tx.
func (t *toteTx) SetJackpotEnabled(ctx context.Context, on bool) error {
	t.changesJackpot()
	v := "false"
	if on {
		v = "true"
	}
	err := t.tx.WithContext(ctx).Exec(`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		jackpotSetting, v, sqldb.StoredTime(time.Now())).Error
	return sqldb.MapErr(err, "setting")
}
