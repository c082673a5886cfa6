package totedb

import (
	"context"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/paging"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// toteJackpotRow is one entry of the public jackpot chain
// (tote_jackpot_chain, migration 00390).
type toteJackpotRow struct {
	Seq           int64 `gorm:"primaryKey;autoIncrement:false"`
	Kind          string
	DrawID        *int64
	PoolID        string
	Amount        int64
	BalanceBefore int64
	BalanceAfter  int64
	At            time.Time
	PrevHash      string
	Hash          string
}

func (toteJackpotRow) TableName() string { return "tote_jackpot_chain" }

func fromDomainJackpot(e tote.JackpotEntry) toteJackpotRow {
	row := toteJackpotRow{Seq: e.Seq, Kind: string(e.Kind), PoolID: e.PoolID, Amount: int64(e.Amount),
		BalanceBefore: int64(e.Before), BalanceAfter: int64(e.After), At: sqldb.StoredTime(e.At), PrevHash: e.PrevHash, Hash: e.Hash}
	if e.DrawID != 0 {
		id := e.DrawID
		row.DrawID = &id
	}
	return row
}

func toDomainJackpot(r toteJackpotRow) tote.JackpotEntry {
	e := tote.JackpotEntry{Seq: r.Seq, Kind: tote.JackpotKind(r.Kind), PoolID: r.PoolID, Amount: moneyOf(r.Amount),
		Before: moneyOf(r.BalanceBefore), After: moneyOf(r.BalanceAfter), At: tote.JackpotTime(r.At), PrevHash: r.PrevHash, Hash: r.Hash}
	if r.DrawID != nil {
		e.DrawID = *r.DrawID
	}
	return e
}

// JackpotChain implements tote.Store.
func (r *Repo) JackpotChain(ctx context.Context, q tote.JackpotChainQuery) ([]tote.JackpotEntry, error) {
	rd, done := r.read(ctx)
	defer done()
	return jackpotChain(rd, q)
}

func jackpotChain(db *gorm.DB, q tote.JackpotChainQuery) ([]tote.JackpotEntry, error) {
	var rows []toteJackpotRow
	if q.Backward {
		if q.Before > 0 {
			db = db.Where("seq < ?", q.Before)
		}
		db = db.Order("seq DESC")
	} else {
		db = db.Where("seq > ?", q.After).Order("seq")
	}
	if err := db.Limit(paging.Size(q.Limit, paging.Max)).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "jackpot chain")
	}
	out := make([]tote.JackpotEntry, len(rows))
	for i, row := range rows {
		out[i] = toDomainJackpot(row)
	}
	return out, nil
}

// JackpotHead implements tote.Tx. Its writers hold the JACKPOT ledger
// account's lock (JackpotBalance), so the head read here stays the head
// until commit; the primary key on seq refuses a second writer regardless.
func (t *toteTx) JackpotHead(ctx context.Context) (*tote.JackpotEntry, error) {
	rows, err := jackpotChain(t.tx.WithContext(ctx), tote.JackpotChainQuery{Backward: true, Limit: 1})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// AppendJackpot implements tote.Tx.
func (t *toteTx) AppendJackpot(ctx context.Context, entries []tote.JackpotEntry) error {
	t.changesJackpot()
	if len(entries) == 0 {
		return nil
	}
	rows := make([]toteJackpotRow, len(entries))
	for i, e := range entries {
		rows[i] = fromDomainJackpot(e)
	}
	if err := t.tx.WithContext(ctx).Create(&rows).Error; err != nil {
		err = sqldb.MapErr(err, "jackpot chain entry")
		if errs.CodeOf(err) == errs.Conflict {
			return errs.E(errs.Conflict, "jackpot chain entry %d is taken", entries[0].Seq)
		}
		return err
	}
	return nil
}
