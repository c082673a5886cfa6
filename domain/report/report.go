// Package report defines the operator's figures once: what a day of play
// took and paid, per gaming day, game and table, derived from the ledger's
// committed transfers (and, for the split of the house's cut, from the
// published result of the pool a settlement transfer settled). The
// regulator feed's sequencer (domain/regfeed) reads every transfer once,
// in commit order, and adds the Deltas of each to the daily roll-up in the
// same transaction as the feed's records, so a report over any range reads
// one row per day and table, never the bets. docs/reports.md gives the
// formula of each figure.
package report

import (
	"strings"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// Game is the game a row of figures belongs to: a totalizator table, the
// Casino Hold'em game, or the cashier's desk.
type Game string

// The games.
const (
	Tote    Game = "TOTE"
	Holdem  Game = "HOLDEM"
	Cashier Game = "CASHIER"
)

// Games lists them in the reports' order.
var Games = []Game{Tote, Holdem, Cashier}

// Key is a row of the roll-up: a gaming day (YYYY-MM-DD, the operator's
// zone), a game and a table (0 for Casino Hold'em and the cashier, and for
// the totalizator's jackpot top-ups, which belong to no table).
type Key struct {
	Day     string
	Game    Game
	TableID int64
}

// Figures are a row's sums, all in tiyn but Bets, a count.
type Figures struct {
	// Bets counts the stakes taken (totalizator bets; Casino Hold'em
	// antes-and-bonus and bets, each a stake).
	Bets int64
	// Handle is the money staked.
	Handle money.Amount
	// Payouts is what winning stakes were paid (jackpot wins included).
	Payouts money.Amount
	// Refunds is what was returned: pools nobody won, void draws.
	Refunds money.Amount
	// Commission, Breakage and TopUps split the house's cut of settled
	// totalizator pools: the commission taken, the truncation left unpaid,
	// and the organiser's payment of a minus pool (the 1.10 floor).
	Commission money.Amount
	Breakage   money.Amount
	TopUps     money.Amount
	// JackpotIn is what settled pools fed the jackpot (contributions and
	// unclaimed category funds rolled over); JackpotOut what it paid into
	// winning pools; JackpotTopUps the organiser's own top-ups.
	JackpotIn     money.Amount
	JackpotOut    money.Amount
	JackpotTopUps money.Amount
	// Ante, Bonus and Bet split Casino Hold'em's handle.
	Ante, Bonus, Bet money.Amount
	// Deposits and Withdrawals are the cashier's.
	Deposits, Withdrawals money.Amount
}

// GGR is gross gaming revenue: Handle - Payouts - Refunds.
func (f Figures) GGR() money.Amount { return f.Handle - f.Payouts - f.Refunds }

// HoldBP is the hold, GGR per handle, in basis points (0 with no handle),
// rounded toward zero.
func (f Figures) HoldBP() int64 {
	if f.Handle == 0 {
		return 0
	}
	return int64(f.GGR()) * 10_000 / int64(f.Handle)
}

// Add adds g to f.
func (f *Figures) Add(g Figures) {
	f.Bets += g.Bets
	f.Handle += g.Handle
	f.Payouts += g.Payouts
	f.Refunds += g.Refunds
	f.Commission += g.Commission
	f.Breakage += g.Breakage
	f.TopUps += g.TopUps
	f.JackpotIn += g.JackpotIn
	f.JackpotOut += g.JackpotOut
	f.JackpotTopUps += g.JackpotTopUps
	f.Ante += g.Ante
	f.Bonus += g.Bonus
	f.Bet += g.Bet
	f.Deposits += g.Deposits
	f.Withdrawals += g.Withdrawals
}

// Delta is what one transfer adds to one row.
type Delta struct {
	Key
	Figures
}

// Movement is a committed transfer as the roll-up reads it.
type Movement struct {
	Kind ledger.TransferKind
	Key  string
	Day  string
	// TableID is the totalizator table of a stake's bet or a settlement's
	// draw (0 otherwise).
	TableID int64
	// Wallet is the sum of the transfer's wallet entries (negative for a
	// stake or a withdrawal), Wallets how many wallets it touched.
	Wallet  money.Amount
	Wallets int
	// Amount is the sum of the transfer's credits: what it moved.
	Amount money.Amount
	// Cuts is the published result's split of a settled pool's cut, on
	// the pool's first settlement transfer (nil on every other).
	Cuts *Cuts
	// Ante and Bonus split a Casino Hold'em start's stake (the hand's
	// boxes); zero on the other transfers.
	Ante, Bonus money.Amount
}

// Cuts is a settled pool's split of what it kept and what the house and
// the jackpot put in, as its published result says.
type Cuts struct {
	Commission, Breakage, TopUp, JackpotIn, JackpotOut money.Amount
}

// The reasons of the errors this package returns.
const (
	// ReasonUnreportedKind: a transfer kind with no rule here. The
	// sequencer stops rather than leave it out of the reports.
	ReasonUnreportedKind = "REPORT_UNREPORTED_KIND"
)

// Deltas is what movement m adds to the roll-up. Every transfer kind has
// a rule; a kind without one is an error (a new kind must be placed in
// the reports on purpose). The escrow's and jackpot's own legs of a
// settlement are not read: Cuts says the same from the result, split.
func Deltas(m Movement) ([]Delta, error) {
	var f Figures
	key := Key{Day: m.Day, Game: Tote, TableID: m.TableID}
	switch m.Kind {
	case ledger.BetStake:
		f.Bets, f.Handle = int64(m.Wallets), -m.Wallet
	case ledger.Settlement, ledger.Payout:
		f.Payouts = m.Wallet
	case ledger.Refund:
		f.Refunds = m.Wallet
	case ledger.Commission, ledger.Breakage, ledger.TopUp, ledger.JackpotContribution, ledger.JackpotRollover:
		// Posted separately only by the version-1 settlement; their
		// amounts are in the pool's Cuts like every other pool's.
	case ledger.JackpotTopUp:
		key.TableID = 0
		f.JackpotTopUps = m.Amount
	case ledger.HoldemStake:
		key.Game, key.TableID = Holdem, 0
		f.Bets, f.Handle = 1, -m.Wallet
		if strings.Contains(m.Key, ":bet:") {
			f.Bet = -m.Wallet
		} else {
			f.Ante, f.Bonus = m.Ante, m.Bonus
		}
	case ledger.HoldemPayout:
		key.Game, key.TableID = Holdem, 0
		f.Payouts = m.Wallet
	case ledger.Deposit:
		key.Game, key.TableID = Cashier, 0
		f.Deposits = m.Wallet
	case ledger.Withdrawal:
		key.Game, key.TableID = Cashier, 0
		f.Withdrawals = -m.Wallet
	default:
		return nil, errs.R(errs.Internal, ReasonUnreportedKind, "transfer kind %s has no rule in the reports", m.Kind)
	}
	if c := m.Cuts; c != nil {
		f.Commission, f.Breakage, f.TopUps, f.JackpotIn, f.JackpotOut = c.Commission, c.Breakage, c.TopUp, c.JackpotIn, c.JackpotOut
	}
	if f == (Figures{}) {
		return nil, nil
	}
	return []Delta{{Key: key, Figures: f}}, nil
}
