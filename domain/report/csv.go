package report

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/pokertote/pokertote/domain/money"
)

// The exports are RFC 4180 CSV (encoding/csv, CRLF line ends), UTF-8, a
// header row, amounts in tenge with two decimals and a dot, days as ISO
// 8601 dates of the operator's zone. The same rows give the same bytes,
// so the export of a closed day never changes.

// DailyHeader is the daily report's header row.
var DailyHeader = []string{"day", "game", "table_id", "table", "bets", "handle", "payouts", "refunds", "ggr", "hold_percent",
	"commission", "breakage", "top_ups", "jackpot_in", "jackpot_out", "jackpot_top_ups", "ante", "bonus", "bet", "deposits", "withdrawals"}

// DailyRecord is a daily report row as CSV fields; name is its table's.
func DailyRecord(r Row, name string) []string {
	f := r.Figures
	return []string{r.Day, string(r.Game), strconv.FormatInt(r.TableID, 10), name, strconv.FormatInt(f.Bets, 10),
		f.Handle.String(), f.Payouts.String(), f.Refunds.String(), f.GGR().String(), HoldPercent(f),
		f.Commission.String(), f.Breakage.String(), f.TopUps.String(), f.JackpotIn.String(), f.JackpotOut.String(), f.JackpotTopUps.String(),
		f.Ante.String(), f.Bonus.String(), f.Bet.String(), f.Deposits.String(), f.Withdrawals.String()}
}

// HoldPercent is the hold as a percentage with two decimals ("12.34").
func HoldPercent(f Figures) string { return money.Amount(f.HoldBP()).String() }

// PlayersHeader is the top players' header row.
var PlayersHeader = []string{"rank", "user_id", "email", "name", "bets", "staked", "returned", "net"}

// PlayerRecord is a top players' row as CSV fields.
func PlayerRecord(rank int, p PlayerResult) []string {
	return []string{strconv.Itoa(rank), strconv.FormatInt(p.UserID, 10), p.Email, p.Name, strconv.FormatInt(p.Bets, 10),
		p.Staked.String(), p.Returned.String(), p.Net().String()}
}

// LiabilityHeader is the liability's header row.
var LiabilityHeader = []string{"wallets", "escrow", "jackpot", "open_hands", "total", "ledger", "reconciled"}

// LiabilityRecord is the liability as CSV fields.
func LiabilityRecord(l Liability) []string {
	return []string{l.Wallets.String(), l.Escrow.String(), l.Jackpot.String(), l.OpenHands.String(), l.Total().String(), l.Ledger.String(), strconv.FormatBool(l.Reconciled)}
}

// CSV writes rows to w as the exports do, flushing every flushEvery rows
// so that a long export streams in bounded memory. next returns the next
// row, or nil at the end.
func CSV(w io.Writer, header []string, next func() ([]string, error)) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(header); err != nil {
		return err
	}
	for n := 1; ; n++ {
		rec, err := next()
		if err != nil {
			return err
		}
		if rec == nil {
			break
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
		if n%flushEvery == 0 {
			if cw.Flush(); cw.Error() != nil {
				return cw.Error()
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

const flushEvery = 500
