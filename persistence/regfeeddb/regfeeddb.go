// Package regfeeddb is the database regfeed.Store: the regulator's feed
// records, and the sequencer's cursor over the ledger's transfers in
// commit order.
package regfeeddb

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/regfeed"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/domain/tote"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database regfeed.Store.
type Repo struct {
	db *sqldb.DB
}

var _ regfeed.Store = (*Repo)(nil)

// New returns the feed's store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

// feedRow is a row of regulator_feed.
type feedRow struct {
	Seq        int64 `gorm:"primaryKey"`
	Type       string
	At         time.Time
	Day        string
	Item       string
	Game       string
	Amount     int64
	UserID     int64
	TransferID int64
	ChangeID   int64
	Data       string
}

// TableName names the table of feedRow for GORM.
func (feedRow) TableName() string { return "regulator_feed" }

// cursorRow is the one row of regulator_feed_cursor.
type cursorRow struct {
	ID         int64 `gorm:"primaryKey"`
	Txid       int64
	TransferID int64
	ChangeTxid int64
	ChangeID   int64
}

// TableName names the table of cursorRow for GORM.
func (cursorRow) TableName() string { return "regulator_feed_cursor" }

// transferRow is a ledger transfer as the sequencer reads it.
type transferRow struct {
	ID             int64
	Kind           string
	IdempotencyKey string
	CreatedAt      time.Time
	Txid           int64
}

// Sequence implements regfeed.Store. The cursor's row is locked first, so
// two replicas take turns: the second reads the cursor the first moved.
func (r *Repo) Sequence(ctx context.Context, limit int, derive regfeed.Derivers) (int, error) {
	n := 0
	err := sqldb.RetryTx(ctx, r.db, func(tx *gorm.DB) error {
		tx = tx.WithContext(ctx)
		n = 0
		var cur cursorRow
		if err := tx.Clauses(r.db.LockRows(sqldb.LockExclusive)...).Where("id = 1").Take(&cur).Error; err != nil {
			return err
		}
		trs, err := r.next(tx, cur, limit)
		if err != nil {
			return err
		}
		chs, err := r.nextChanges(tx, cur, limit)
		if err != nil || len(trs)+len(chs) == 0 {
			return err
		}
		n = len(trs) + len(chs)
		var head int64
		if err := tx.Raw("SELECT COALESCE(MAX(seq), 0) FROM regulator_feed").Scan(&head).Error; err != nil {
			return err
		}
		rows, err := deriveRows(trs, chs, derive, head)
		if err != nil {
			return err
		}
		if err := r.rollup(tx, trs, derive); err != nil {
			return err
		}
		if len(rows) > 0 {
			if err := tx.CreateInBatches(rows, 200).Error; err != nil {
				return err
			}
		}
		moved := map[string]any{}
		if len(trs) > 0 {
			last := trs[len(trs)-1]
			moved["txid"], moved["transfer_id"] = last.txid, last.ID
		}
		if len(chs) > 0 {
			last := chs[len(chs)-1]
			moved["change_txid"], moved["change_id"] = last.txid, last.ID
		}
		return tx.Model(&cursorRow{}).Where("id = 1").Updates(moved).Error
	})
	return n, sqldb.MapErr(err, "regulator feed")
}

// readTransfer is a transfer read, with its place in commit order.
type readTransfer struct {
	regfeed.Transfer
	txid int64
}

// readChange is a protection change read, with its place in commit order
// and its player's document hash.
type readChange struct {
	protection.Change
	txid int64
	doc  string
}

// deriveRows numbers the records of trs and chs after head: each source in
// its commit order, the two merged by transaction (then time).
func deriveRows(trs []readTransfer, chs []readChange, derive regfeed.Derivers, head int64) ([]feedRow, error) {
	type item struct {
		txid int64
		at   time.Time
		recs []regfeed.Record
	}
	var items []item
	for _, t := range trs {
		recs, err := derive.Transfer(t.Transfer)
		if err != nil {
			return nil, err
		}
		items = append(items, item{t.txid, t.At, recs})
	}
	for _, c := range chs {
		items = append(items, item{c.txid, c.At, []regfeed.Record{derive.Change(c.Change, c.doc)}})
	}
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Or(cmp.Compare(a.txid, b.txid), a.at.Compare(b.at)) })
	var rows []feedRow
	for _, it := range items {
		for _, rec := range it.recs {
			head++
			rec.Seq = head
			data, err := json.Marshal(rec)
			if err != nil {
				return nil, err
			}
			k := regfeed.KeyOf(rec)
			rows = append(rows, feedRow{
				Seq: rec.Seq, Type: string(rec.Type), At: sqldb.StoredTime(rec.At), Day: rec.Day,
				Item: string(k.Item), Game: string(k.Game), Amount: int64(rec.Sum()),
				UserID: rec.UserID, TransferID: rec.TransferID, ChangeID: rec.ChangeID, Data: string(data),
			})
		}
	}
	return rows, nil
}

// nextChanges reads the protection changes after cur in commit order (see
// next), with each player's document hash.
func (r *Repo) nextChanges(tx *gorm.DB, cur cursorRow, limit int) ([]readChange, error) {
	var rows []struct {
		ID           int64
		UserID       *int64
		DocumentHash string
		Detail       string
		Txid         int64
	}
	var err error
	if r.db.Dialect() == sqldb.Postgres {
		t := strconv.FormatInt(cur.ChangeTxid, 10)
		err = tx.Raw(`SELECT id, user_id, document_hash, detail, txid::text::bigint AS txid FROM protection_changes
			WHERE (txid > ?::text::xid8 OR (txid = ?::text::xid8 AND id > ?))
			  AND txid < pg_snapshot_xmin(pg_current_snapshot())
			ORDER BY txid, id LIMIT ?`, t, t, cur.ChangeID, limit).Scan(&rows).Error
	} else {
		err = tx.Raw(`SELECT id, user_id, document_hash, detail, 0 AS txid FROM protection_changes
			WHERE id > ? ORDER BY id LIMIT ?`, cur.ChangeID, limit).Scan(&rows).Error
	}
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	out := make([]readChange, len(rows))
	users := map[int64]string{}
	for i, row := range rows {
		var c protection.Change
		if err := json.Unmarshal([]byte(row.Detail), &c); err != nil {
			return nil, err
		}
		c.ID, c.DocumentHash = row.ID, row.DocumentHash
		if row.UserID != nil {
			c.UserID = *row.UserID
			users[c.UserID] = ""
		}
		out[i] = readChange{Change: c, txid: row.Txid}
	}
	if err := documents(tx, users); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].doc = users[out[i].UserID]
	}
	return out, nil
}

// documents fills users (account id -> "") with the hash of each one's
// latest approved document.
func documents(tx *gorm.DB, users map[int64]string) error {
	if len(users) == 0 {
		return nil
	}
	uids := make([]int64, 0, len(users))
	for u := range users {
		uids = append(uids, u)
	}
	var docs []struct {
		UserID       int64
		DocumentHash string
	}
	if err := tx.Raw(`SELECT user_id, document_hash FROM verifications WHERE status = 'APPROVED' AND user_id IN ? ORDER BY id`, uids).Scan(&docs).Error; err != nil {
		return err
	}
	for _, d := range docs {
		users[d.UserID] = d.DocumentHash // the latest approval wins
	}
	return nil
}

// next reads the transfers after cur in commit order, with their wallet
// legs and what the feed says of their bets. On Postgres only transfers
// of transactions older than every one still running are read (the
// horizon: see the migration); SQLite has one writer, and its ids are in
// commit order.
func (r *Repo) next(tx *gorm.DB, cur cursorRow, limit int) ([]readTransfer, error) {
	var rows []transferRow
	var err error
	if r.db.Dialect() == sqldb.Postgres {
		err = tx.Raw(`SELECT id, kind, idempotency_key, created_at, txid::text::bigint AS txid FROM ledger_transfers
			WHERE (txid > ?::text::xid8 OR (txid = ?::text::xid8 AND id > ?))
			  AND txid < pg_snapshot_xmin(pg_current_snapshot())
			ORDER BY txid, id LIMIT ?`, strconv.FormatInt(cur.Txid, 10), strconv.FormatInt(cur.Txid, 10), cur.TransferID, limit).Scan(&rows).Error
	} else {
		err = tx.Raw(`SELECT id, kind, idempotency_key, created_at, 0 AS txid FROM ledger_transfers
			WHERE id > ? ORDER BY id LIMIT ?`, cur.TransferID, limit).Scan(&rows).Error
	}
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	out := make([]readTransfer, len(rows))
	idx := map[int64]int{}
	for i, t := range rows {
		out[i] = readTransfer{Transfer: regfeed.Transfer{ID: t.ID, Kind: ledger.TransferKind(t.Kind), Key: t.IdempotencyKey, At: t.CreatedAt.UTC()}, txid: t.Txid}
		idx[t.ID] = i
	}
	if err := r.legs(tx, out, idx); err != nil {
		return nil, err
	}
	if err := r.bets(tx, out); err != nil {
		return nil, err
	}
	if err := r.cuts(tx, out); err != nil {
		return nil, err
	}
	return out, r.holdemStakes(tx, out)
}

// cuts reads, for each pool's first settlement transfer
// (tote:settle:<draw>:<round>:<market>), the split of the pool's cut its
// draw's published result gives. The result is written in the settling
// transaction, so it is there.
func (r *Repo) cuts(tx *gorm.DB, out []readTransfer) error {
	draws := map[int64][]int{}
	for i, t := range out {
		ref, ok := tote.ParseLedgerKey(t.Key)
		if !ok || ref.Kind != tote.LedgerSettle || ref.Part != 1 || t.Kind != ledger.Settlement {
			continue
		}
		draws[ref.DrawID] = append(draws[ref.DrawID], i)
	}
	if len(draws) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(draws))
	for id := range draws {
		ids = append(ids, id)
	}
	var rows []struct {
		ID     int64
		Result *string
	}
	if err := tx.Raw(`SELECT id, result FROM tote_draws WHERE id IN ?`, ids).Scan(&rows).Error; err != nil {
		return err
	}
	for _, row := range rows {
		if row.Result == nil {
			return fmt.Errorf("draw %d has settlement transfers but no result", row.ID)
		}
		var res tote.DrawResult
		if err := json.Unmarshal([]byte(*row.Result), &res); err != nil {
			return fmt.Errorf("draw %d's result: %w", row.ID, err)
		}
		pools := map[string]tote.PoolResult{}
		for _, p := range res.Pools {
			pools[p.PoolID] = p
		}
		for _, i := range draws[row.ID] {
			ref, _ := tote.ParseLedgerKey(out[i].Key) // read above
			poolID := ref.PoolID()
			p, ok := pools[poolID]
			if !ok {
				return fmt.Errorf("draw %d's result has no pool %s", row.ID, poolID)
			}
			out[i].Cuts = &report.Cuts{Commission: p.Commission, Breakage: p.Breakage, TopUp: p.TopUp, JackpotIn: p.JackpotContribution + p.Rollover, JackpotOut: p.JackpotPaid}
		}
	}
	return nil
}

// holdemStakes reads the ante and the bonus of each Casino Hold'em start
// (holdem:<hand>:stake) from its hand's boxes.
func (r *Repo) holdemStakes(tx *gorm.DB, out []readTransfer) error {
	hands := map[int64][]int{}
	for i, t := range out {
		p := strings.Split(t.Key, ":")
		if len(p) != 3 || p[0] != "holdem" || p[2] != "stake" {
			continue
		}
		id, err := strconv.ParseInt(p[1], 10, 64)
		if err != nil {
			continue
		}
		hands[id] = append(hands[id], i)
	}
	if len(hands) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(hands))
	for id := range hands {
		ids = append(ids, id)
	}
	var rows []struct {
		ID    int64
		Boxes string
	}
	if err := tx.Raw(`SELECT id, boxes FROM holdem_hands WHERE id IN ?`, ids).Scan(&rows).Error; err != nil {
		return err
	}
	for _, row := range rows {
		var boxes []struct{ Ante, Bonus int64 }
		if err := json.Unmarshal([]byte(row.Boxes), &boxes); err != nil {
			return fmt.Errorf("hand %d's boxes: %w", row.ID, err)
		}
		var ante, bonus money.Amount
		for _, b := range boxes {
			ante += money.Amount(b.Ante)
			bonus += money.Amount(b.Bonus)
		}
		for _, i := range hands[row.ID] {
			out[i].Ante, out[i].Bonus = ante, bonus
		}
	}
	return nil
}

// legs reads the wallet legs of out, with each wallet owner's document
// hash.
func (r *Repo) legs(tx *gorm.DB, out []readTransfer, idx map[int64]int) error {
	ids := make([]int64, len(out))
	for i, t := range out {
		ids[i] = t.ID
	}
	var legs []struct {
		TransferID int64
		Kind       string
		Ref        string
		Amount     int64
	}
	if err := tx.Raw(`SELECT e.transfer_id, a.kind, a.ref, e.amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
		WHERE e.transfer_id IN ? ORDER BY e.transfer_id, e.id`, ids).Scan(&legs).Error; err != nil {
		return err
	}
	users := map[int64]string{}
	for _, l := range legs {
		t := &out[idx[l.TransferID]]
		if l.Amount > 0 {
			t.Amount += money.Amount(l.Amount)
		}
		uid, ok := ledger.AccountRef{Kind: ledger.AccountKind(l.Kind), Ref: l.Ref}.User()
		if !ok {
			// A wallet of no account (tests' scratch wallets): the
			// feed names persons only.
			continue
		}
		users[int64(uid)] = ""
		t.Legs = append(t.Legs, regfeed.WalletLeg{UserID: int64(uid), Amount: money.Amount(l.Amount)})
	}
	if err := documents(tx, users); err != nil {
		return err
	}
	for i := range out {
		for j := range out[i].Legs {
			out[i].Legs[j].DocumentHash = users[out[i].Legs[j].UserID]
		}
	}
	return nil
}

// bets reads the bets the stakes of out staked (tote:bet:<id>) and the
// tables of the draws the settlements of out settled
// (tote:settle:<draw>:... and tote:void:<draw>:...).
func (r *Repo) bets(tx *gorm.DB, out []readTransfer) error {
	var betIDs, drawIDs []int64
	for _, t := range out {
		ref, ok := tote.ParseLedgerKey(t.Key)
		switch {
		case !ok:
		case ref.Kind == tote.LedgerStake:
			betIDs = append(betIDs, ref.BetID)
		default:
			drawIDs = append(drawIDs, ref.DrawID)
		}
	}
	bets := map[int64]regfeed.BetInfo{}
	if len(betIDs) > 0 {
		var rows []struct {
			ID, TableID, DrawID int64
			Round               int
			Market, Selection   string
		}
		if err := tx.Raw(`SELECT id, table_id, draw_id, round, market, selection FROM tote_bets WHERE id IN ?`, betIDs).Scan(&rows).Error; err != nil {
			return err
		}
		for _, b := range rows {
			bets[b.ID] = regfeed.BetInfo{ID: b.ID, TableID: b.TableID, DrawID: b.DrawID, Round: b.Round, Market: b.Market, Selection: b.Selection}
		}
	}
	tables := map[int64]int64{}
	if len(drawIDs) > 0 {
		var rows []struct{ ID, TableID int64 }
		if err := tx.Raw(`SELECT id, table_id FROM tote_draws WHERE id IN ?`, drawIDs).Scan(&rows).Error; err != nil {
			return err
		}
		for _, d := range rows {
			tables[d.ID] = d.TableID
		}
	}
	for i := range out {
		ref, ok := tote.ParseLedgerKey(out[i].Key)
		switch {
		case !ok:
		case ref.Kind == tote.LedgerStake:
			out[i].Bet = bets[ref.BetID]
		default:
			out[i].Bet = regfeed.BetInfo{TableID: tables[ref.DrawID]}
		}
	}
	return nil
}

// After implements regfeed.Store.
func (r *Repo) After(ctx context.Context, seq int64, limit int) ([]regfeed.Record, error) {
	var rows []feedRow
	if err := r.db.Gorm().WithContext(ctx).Where("seq > ?", seq).Order("seq").Limit(limit).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "regulator feed")
	}
	return decodeRows(rows)
}

// Between implements regfeed.Store (the index on day, seq).
func (r *Repo) Between(ctx context.Context, from, to string, afterSeq int64, limit int) ([]regfeed.Record, error) {
	var rows []feedRow
	if err := r.db.Gorm().WithContext(ctx).Where("day >= ? AND day <= ? AND seq > ?", from, to, afterSeq).Order("seq").Limit(limit).Find(&rows).Error; err != nil {
		return nil, sqldb.MapErr(err, "regulator feed")
	}
	return decodeRows(rows)
}

func decodeRows(rows []feedRow) ([]regfeed.Record, error) {
	out := make([]regfeed.Record, len(rows))
	for i, row := range rows {
		if err := json.Unmarshal([]byte(row.Data), &out[i]); err != nil {
			return nil, sqldb.MapErr(err, "regulator feed")
		}
		out[i].UserID = row.UserID
	}
	return out, nil
}

// Head implements regfeed.Store.
func (r *Repo) Head(ctx context.Context) (int64, error) {
	var head int64
	err := r.db.Gorm().WithContext(ctx).Raw("SELECT COALESCE(MAX(seq), 0) FROM regulator_feed").Scan(&head).Error
	return head, sqldb.MapErr(err, "regulator feed")
}

// Totals implements regfeed.Store: one indexed aggregate over the days.
func (r *Repo) Totals(ctx context.Context, from, to string) ([]regfeed.Line, error) {
	var rows []struct {
		Day, Item, Game string
		Count, Amount   int64
	}
	err := r.db.Gorm().WithContext(ctx).Raw(`SELECT day, item, game, COUNT(*) AS count, SUM(amount) AS amount FROM regulator_feed
		WHERE day >= ? AND day <= ? GROUP BY day, item, game`, from, to).Scan(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "regulator feed")
	}
	out := make([]regfeed.Line, len(rows))
	for i, l := range rows {
		out[i] = regfeed.Line{Day: l.Day, Item: regfeed.Item(l.Item), Game: regfeed.Game(l.Game), Count: l.Count, Amount: money.Amount(l.Amount)}
	}
	return out, nil
}

// rollup adds what trs add to the reports' daily roll-up, one upsert per
// row touched.
func (r *Repo) rollup(tx *gorm.DB, trs []readTransfer, derive regfeed.Derivers) error {
	sums := map[report.Key]*report.Figures{}
	var keys []report.Key
	for _, t := range trs {
		ds, err := derive.Rollup(t.Transfer)
		if err != nil {
			return err
		}
		for _, d := range ds {
			f := sums[d.Key]
			if f == nil {
				f = &report.Figures{}
				sums[d.Key] = f
				keys = append(keys, d.Key)
			}
			f.Add(d.Figures)
		}
	}
	for _, k := range keys {
		f := sums[k]
		if err := tx.Exec(`INSERT INTO report_daily (day, game, table_id, bets, handle, payouts, refunds, commission, breakage, top_ups,
			jackpot_in, jackpot_out, jackpot_top_ups, ante, bonus, bet, deposits, withdrawals)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (day, game, table_id) DO UPDATE SET
			bets = report_daily.bets + excluded.bets, handle = report_daily.handle + excluded.handle,
			payouts = report_daily.payouts + excluded.payouts, refunds = report_daily.refunds + excluded.refunds,
			commission = report_daily.commission + excluded.commission, breakage = report_daily.breakage + excluded.breakage,
			top_ups = report_daily.top_ups + excluded.top_ups, jackpot_in = report_daily.jackpot_in + excluded.jackpot_in,
			jackpot_out = report_daily.jackpot_out + excluded.jackpot_out, jackpot_top_ups = report_daily.jackpot_top_ups + excluded.jackpot_top_ups,
			ante = report_daily.ante + excluded.ante, bonus = report_daily.bonus + excluded.bonus, bet = report_daily.bet + excluded.bet,
			deposits = report_daily.deposits + excluded.deposits, withdrawals = report_daily.withdrawals + excluded.withdrawals`,
			k.Day, string(k.Game), k.TableID, f.Bets, int64(f.Handle), int64(f.Payouts), int64(f.Refunds), int64(f.Commission), int64(f.Breakage),
			int64(f.TopUps), int64(f.JackpotIn), int64(f.JackpotOut), int64(f.JackpotTopUps), int64(f.Ante), int64(f.Bonus), int64(f.Bet),
			int64(f.Deposits), int64(f.Withdrawals)).Error; err != nil {
			return err
		}
	}
	return nil
}

// Pending implements regfeed.Store: the committed transfers and protection
// changes the sequencer has not read yet.
func (r *Repo) Pending(ctx context.Context) (int64, error) {
	db := r.db.Gorm().WithContext(ctx)
	var cur cursorRow
	if err := db.Where("id = 1").Take(&cur).Error; err != nil {
		return 0, sqldb.MapErr(err, "regulator feed")
	}
	var n int64
	var err error
	if r.db.Dialect() == sqldb.Postgres {
		t, ct := strconv.FormatInt(cur.Txid, 10), strconv.FormatInt(cur.ChangeTxid, 10)
		err = db.Raw(`SELECT
			(SELECT COUNT(*) FROM ledger_transfers WHERE txid > ?::text::xid8 OR (txid = ?::text::xid8 AND id > ?)) +
			(SELECT COUNT(*) FROM protection_changes WHERE txid > ?::text::xid8 OR (txid = ?::text::xid8 AND id > ?))`,
			t, t, cur.TransferID, ct, ct, cur.ChangeID).Scan(&n).Error
	} else {
		err = db.Raw(`SELECT (SELECT COUNT(*) FROM ledger_transfers WHERE id > ?) + (SELECT COUNT(*) FROM protection_changes WHERE id > ?)`,
			cur.TransferID, cur.ChangeID).Scan(&n).Error
	}
	return n, sqldb.MapErr(err, "regulator feed")
}
