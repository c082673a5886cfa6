// Package reportdb is the database report.Store: it reads the daily
// roll-up the regulator feed's sequencer keeps (report_daily, written by
// persistence/regfeeddb), the ledger's balances and the feed's records.
// It writes nothing.
package reportdb

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pokertote/pokertote/domain/ids"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/persistence/sqldb"
)

// Repo is the database report.Store.
type Repo struct {
	db *sqldb.DB
}

var _ report.Store = (*Repo)(nil)

// New returns the reports' store on db.
func New(db *sqldb.DB) *Repo { return &Repo{db: db} }

type dailyRow struct {
	Day                                     string
	Game                                    string
	TableID                                 int64
	Bets, Handle, Payouts, Refunds          int64
	Commission, Breakage, TopUps            int64
	JackpotIn, JackpotOut, JackpotTopUps    int64
	Ante, Bonus, Bet, Deposits, Withdrawals int64
}

// Rows implements report.Store: one indexed range read of the roll-up.
func (r *Repo) Rows(ctx context.Context, from, to string) ([]report.Row, error) {
	var rows []dailyRow
	err := r.db.Gorm().WithContext(ctx).Raw(`SELECT day, game, table_id, bets, handle, payouts, refunds, commission, breakage, top_ups,
		jackpot_in, jackpot_out, jackpot_top_ups, ante, bonus, bet, deposits, withdrawals
		FROM report_daily WHERE day >= ? AND day <= ?`, from, to).Scan(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "report")
	}
	out := make([]report.Row, len(rows))
	for i, w := range rows {
		out[i] = report.Row{
			Key: report.Key{Day: w.Day, Game: report.Game(w.Game), TableID: w.TableID},
			Figures: report.Figures{
				Bets: w.Bets, Handle: money.Amount(w.Handle), Payouts: money.Amount(w.Payouts), Refunds: money.Amount(w.Refunds),
				Commission: money.Amount(w.Commission), Breakage: money.Amount(w.Breakage), TopUps: money.Amount(w.TopUps),
				JackpotIn: money.Amount(w.JackpotIn), JackpotOut: money.Amount(w.JackpotOut), JackpotTopUps: money.Amount(w.JackpotTopUps),
				Ante: money.Amount(w.Ante), Bonus: money.Amount(w.Bonus), Bet: money.Amount(w.Bet),
				Deposits: money.Amount(w.Deposits), Withdrawals: money.Amount(w.Withdrawals),
			},
		}
	}
	return out, nil
}

// Tables implements report.Store.
func (r *Repo) Tables(ctx context.Context) ([]report.Table, error) {
	var out []report.Table
	err := r.db.Gorm().WithContext(ctx).Raw(`SELECT id, name FROM tote_tables ORDER BY id`).Scan(&out).Error
	return out, sqldb.MapErr(err, "report")
}

// Liability implements report.Store: the balances the ledger caches, and
// the same sums taken from the entries, in one statement's snapshot.
func (r *Repo) Liability(ctx context.Context) (report.Liability, error) {
	var row struct {
		Wallets, Escrow, Jackpot, OpenHands int64
		Cached, FromEntries                 int64
	}
	err := r.db.Gorm().WithContext(ctx).Raw(`SELECT
		(SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind = 'WALLET') AS wallets,
		(SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind = 'ESCROW') AS escrow,
		(SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind = 'JACKPOT') AS jackpot,
		(SELECT COALESCE(SUM(staked), 0) FROM holdem_hands WHERE state = 'DECIDING') AS open_hands,
		(SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts WHERE kind IN ('WALLET', 'ESCROW', 'JACKPOT')) AS cached,
		(SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
			WHERE a.kind IN ('WALLET', 'ESCROW', 'JACKPOT')) AS from_entries`).Scan(&row).Error
	if err != nil {
		return report.Liability{}, sqldb.MapErr(err, "liability")
	}
	return report.Liability{
		Wallets: money.Amount(row.Wallets), Escrow: money.Amount(row.Escrow), Jackpot: money.Amount(row.Jackpot),
		OpenHands: money.Amount(row.OpenHands), Ledger: money.Amount(row.Cached), Reconciled: row.Cached == row.FromEntries,
	}, nil
}

// Players implements report.Store, from the regulator feed's records.
func (r *Repo) Players(ctx context.Context, from, to string) ([]report.PlayerResult, error) {
	var rows []struct {
		UserID           int64
		Email, Name      string
		Bets             int64
		Staked, Returned int64
	}
	// Aggregate first, then name the players: one hash aggregate over the
	// days' records, a lookup per player.
	err := r.db.Gorm().WithContext(ctx).Raw(`SELECT p.user_id, COALESCE(u.email, '') AS email, COALESCE(u.name, '') AS name, p.bets, p.staked, p.returned
		FROM (SELECT user_id,
			SUM(CASE WHEN item = 'BET_ACCEPTED' THEN 1 ELSE 0 END) AS bets,
			SUM(CASE WHEN item = 'BET_ACCEPTED' THEN amount ELSE 0 END) AS staked,
			SUM(CASE WHEN item IN ('PAYOUT', 'REFUND') THEN amount ELSE 0 END) AS returned
			FROM regulator_feed WHERE day >= ? AND day <= ? AND item IN ('BET_ACCEPTED', 'PAYOUT', 'REFUND')
			GROUP BY user_id) p
		LEFT JOIN users u ON u.id = p.user_id`, from, to).Scan(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "report")
	}
	out := make([]report.PlayerResult, len(rows))
	for i, p := range rows {
		out[i] = report.PlayerResult{UserID: p.UserID, Email: p.Email, Name: p.Name, Bets: p.Bets, Staked: money.Amount(p.Staked), Returned: money.Amount(p.Returned)}
	}
	return out, nil
}

// Activity implements report.Store: the player's feed records of the days,
// with the wallet's balance after each money record (from the record's
// ledger entry), in commit order.
func (r *Repo) Activity(ctx context.Context, userID int64, from, to string) ([]report.Activity, error) {
	var rows []struct {
		At           time.Time
		Item         string
		Amount       int64
		Data         string
		BalanceAfter int64
	}
	err := r.db.Gorm().WithContext(ctx).Raw(`SELECT f.at, f.item, f.amount, f.data, COALESCE(e.balance_after, 0) AS balance_after
		FROM regulator_feed f
		LEFT JOIN ledger_accounts a ON a.kind = 'WALLET' AND a.ref = ?
		LEFT JOIN ledger_entries e ON e.transfer_id = f.transfer_id AND e.account_id = a.id AND f.transfer_id > 0
		WHERE f.user_id = ? AND f.day >= ? AND f.day <= ? ORDER BY f.seq`,
		ledger.UserWallet(ids.UserID(userID)).Ref, userID, from, to).Scan(&rows).Error
	if err != nil {
		return nil, sqldb.MapErr(err, "player activity")
	}
	out := make([]report.Activity, 0, len(rows))
	for _, row := range rows {
		a := report.Activity{At: row.At.UTC(), Amount: money.Amount(row.Amount), BalanceAfter: money.Amount(row.BalanceAfter)}
		switch row.Item {
		case "BET_ACCEPTED":
			a.Kind = report.Stake
		case "PAYOUT", "REFUND":
			a.Kind = report.Return
		case "DEPOSIT":
			a.Kind = report.Deposit
		case "WITHDRAWAL":
			a.Kind = report.Withdrawal
		case "PROTECTION_CHANGE":
			var rec struct {
				Protection struct{ Kind, Exclusion string }
			}
			if err := json.Unmarshal([]byte(row.Data), &rec); err != nil || rec.Protection.Kind != "EXCLUSION" {
				continue
			}
			a.Kind = report.ActivityKind(rec.Protection.Exclusion)
		default:
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// ProtectionEvents implements report.Store: the hits and the changes of the
// range, summed by player and kind.
func (r *Repo) ProtectionEvents(ctx context.Context, from, to time.Time) ([]report.ProtectionEvent, error) {
	db := r.db.Gorm().WithContext(ctx)
	// Rows, not aggregates: SQLite's MIN and MAX of a time come back as
	// text. Hits and changes are a handful per player.
	var hits []struct {
		UserID int64
		Kind   string
		At     time.Time
	}
	if err := db.Raw(`SELECT user_id, kind, at FROM protection_hits WHERE at >= ? AND at < ?`, sqldb.StoredTime(from), sqldb.StoredTime(to)).Scan(&hits).Error; err != nil {
		return nil, sqldb.MapErr(err, "protection events")
	}
	var changes []struct {
		UserID int64
		Detail string
		At     time.Time
	}
	if err := db.Raw(`SELECT user_id, detail, at FROM protection_changes WHERE user_id IS NOT NULL AND at >= ? AND at < ? ORDER BY id`,
		sqldb.StoredTime(from), sqldb.StoredTime(to)).Scan(&changes).Error; err != nil {
		return nil, sqldb.MapErr(err, "protection events")
	}
	type key struct {
		user int64
		kind string
	}
	sums := map[key]*report.ProtectionEvent{}
	add := func(user int64, kind string, n int64, first, last time.Time) {
		e := sums[key{user, kind}]
		if e == nil {
			e = &report.ProtectionEvent{UserID: user, Kind: kind, First: first, Last: last}
			sums[key{user, kind}] = e
		}
		e.Count += n
		if first.Before(e.First) {
			e.First = first
		}
		if last.After(e.Last) {
			e.Last = last
		}
	}
	for _, h := range hits {
		add(h.UserID, h.Kind+"_LIMIT_HIT", 1, h.At.UTC(), h.At.UTC())
	}
	for _, c := range changes {
		var d struct{ Kind, Exclusion string }
		if err := json.Unmarshal([]byte(c.Detail), &d); err != nil {
			return nil, sqldb.MapErr(err, "protection events")
		}
		kind := "LIMIT_CHANGED"
		if d.Kind == "EXCLUSION" {
			kind = d.Exclusion
		}
		add(c.UserID, kind, 1, c.At.UTC(), c.At.UTC())
	}
	out := make([]report.ProtectionEvent, 0, len(sums))
	uids := make([]int64, 0, len(sums))
	for _, e := range sums {
		out = append(out, *e)
		uids = append(uids, e.UserID)
	}
	if len(uids) > 0 {
		var users []struct {
			ID          int64
			Email, Name string
		}
		if err := db.Raw(`SELECT id, email, name FROM users WHERE id IN ?`, uids).Scan(&users).Error; err != nil {
			return nil, sqldb.MapErr(err, "protection events")
		}
		names := map[int64][2]string{}
		for _, u := range users {
			names[u.ID] = [2]string{u.Email, u.Name}
		}
		for i := range out {
			out[i].Email, out[i].Name = names[out[i].UserID][0], names[out[i].UserID][1]
		}
	}
	return out, nil
}
