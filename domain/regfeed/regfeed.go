// Package regfeed is the regulator's feed: one record per person per money
// movement of a wallet (a bet accepted, a settlement line, a deposit, a
// withdrawal), derived from the double-entry ledger after the transfer
// committed, numbered in commit order, and pushed to the regulator's
// endpoint as webhook events. A daily reconciliation file (counts and sums
// per type) is summed from the same records.
//
// The records are derived, not written beside the money: a sequencer reads
// the ledger's committed transfers in commit order and turns each wallet
// leg into a record through Derive, whose mapping follows each transfer
// kind's protection class, so a new kind that touches wallets cannot slip
// past the feed unclassified. An adapter to a state system's API reads the
// records (Record) and needs nothing else.
package regfeed

import (
	"strconv"
	"strings"
	"time"

	"github.com/pokertote/pokertote/domain/errs"
	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
	"github.com/pokertote/pokertote/domain/protection"
	"github.com/pokertote/pokertote/domain/report"
	"github.com/pokertote/pokertote/domain/tote"
)

// Type is a record's type: also its webhook event type.
type Type string

// The record types.
const (
	// BetAccepted: a stake left a wallet (a totalizator bet, a Casino
	// Hold'em ante and bonus, or its bet).
	BetAccepted Type = "regulator.bet.accepted"
	// BetSettled: a settlement line credited a wallet: a payout of a pool
	// or a hand, or a refund of stakes.
	BetSettled Type = "regulator.bet.settled"
	// Deposit: cash paid in at the cashier.
	Deposit Type = "regulator.deposit"
	// Withdrawal: cash paid out at the cashier.
	Withdrawal Type = "regulator.withdrawal"
	// ProtectionChanged: a player's limit or exclusion changed, or an entry
	// of the exclusion register was added or removed.
	ProtectionChanged Type = "regulator.protection.changed"
)

// Types lists the record types, in the order the reconciliation file
// lists them.
var Types = []Type{BetAccepted, BetSettled, Deposit, Withdrawal, ProtectionChanged}

// Game names the game a bet record belongs to.
type Game string

// The games.
const (
	Tote   Game = "TOTE"
	Holdem Game = "HOLDEM"
)

// Record is one person's money movement as the regulator receives it.
// Amounts are tiyn. Stake is set on BetAccepted; Payout or Refund on
// BetSettled; Amount on Deposit and Withdrawal.
type Record struct {
	// Seq numbers the feed's records 1, 2, ... in the order their
	// transfers committed.
	Seq  int64     `json:"seq"`
	Type Type      `json:"type"`
	At   time.Time `json:"at"`
	// Day is At's gaming day in the operator's zone (YYYY-MM-DD): the day
	// of the reconciliation file the record counts in.
	Day string `json:"day"`
	// Person is the person's pseudonymous id ("p<account id>"); the
	// feed carries no name. DocumentHash is the keyed hash of the
	// person's approved identity document ("" before an approval).
	Person       string `json:"person"`
	DocumentHash string `json:"documentHash"`
	// TransferID is the ledger transfer the record comes from.
	TransferID int64 `json:"transferId"`

	Game Game `json:"game,omitempty"`
	// The totalizator's bet: BetID on BetAccepted; TableID, DrawID,
	// Round and Market on both bet types; Selection on BetAccepted.
	BetID     int64  `json:"betId,omitempty"`
	TableID   int64  `json:"tableId,omitempty"`
	DrawID    int64  `json:"drawId,omitempty"`
	Round     int    `json:"round,omitempty"`
	Market    string `json:"market,omitempty"`
	Selection string `json:"selection,omitempty"`
	// HandID names a Casino Hold'em hand.
	HandID int64 `json:"handId,omitempty"`

	Stake  money.Amount `json:"stake,omitempty"`
	Payout money.Amount `json:"payout,omitempty"`
	Refund money.Amount `json:"refund,omitempty"`
	Amount money.Amount `json:"amount,omitempty"`

	// Protection is the change of a ProtectionChanged record; ChangeID its
	// id in the protection history.
	Protection *protection.Change `json:"protection,omitempty"`
	ChangeID   int64              `json:"changeId,omitempty"`

	// UserID is the account the wallet belongs to: kept for the
	// operator's joins, never sent (Person is).
	UserID int64 `json:"-"`
}

// DeriveChange is the record of protection change c. A register entry
// names no account: its record has no Person, only the document hash (or
// nothing, for an entry by name and date of birth); a player's change
// carries the document hash of the player's approved document.
func DeriveChange(c protection.Change, documentHash string) Record {
	r := Record{Type: ProtectionChanged, At: c.At.UTC(), ChangeID: c.ID, UserID: c.UserID, DocumentHash: documentHash}
	if c.UserID != 0 {
		r.Person = Person(c.UserID)
	}
	if c.DocumentHash != "" {
		r.DocumentHash = c.DocumentHash
	}
	r.Protection = &c
	return r
}

// Sum is what a record adds to its type's sum in the reconciliation
// file: the stake, the payout plus the refund, or the amount.
func (r Record) Sum() money.Amount { return r.Stake + r.Payout + r.Refund + r.Amount }

// Transfer is a committed ledger transfer as the sequencer reads it: its
// wallet legs, and what the feed adds about the bet it moved.
type Transfer struct {
	ID   int64
	Kind ledger.TransferKind
	Key  string
	At   time.Time
	Legs []WalletLeg
	// Bet is the totalizator bet a BET_STAKE transfer staked (zero for any
	// other kind); the store reads it by the transfer's key.
	Bet BetInfo

	// What the reports' roll-up reads besides (report.Movement): the sum
	// of the transfer's credits, the published split of a settled pool's
	// cut on the pool's first settlement transfer, and a Casino Hold'em
	// start's ante and bonus.
	Amount      money.Amount
	Cuts        *report.Cuts
	Ante, Bonus money.Amount
}

// Movement is t as the reports' roll-up reads it, on gaming day day.
func (t Transfer) Movement(day string) report.Movement {
	m := report.Movement{Kind: t.Kind, Key: t.Key, Day: day, TableID: t.Bet.TableID, Amount: t.Amount, Cuts: t.Cuts, Ante: t.Ante, Bonus: t.Bonus, Wallets: len(t.Legs)}
	for _, l := range t.Legs {
		m.Wallet += l.Amount
	}
	return m
}

// WalletLeg is one wallet's entry in a transfer.
type WalletLeg struct {
	UserID       int64
	Amount       money.Amount // + credits the wallet, - debits it
	DocumentHash string
}

// BetInfo is what a record says of a totalizator bet.
type BetInfo struct {
	ID, TableID, DrawID int64
	Round               int
	Market, Selection   string
}

// Derive turns a committed transfer into its records (Seq unset), one per
// wallet leg. The record type follows the kind's protection class: paid
// in is a deposit, paid out a withdrawal, staked a bet accepted, returned
// a settlement line; an internal kind moves no wallet and makes no record.
// A kind without a class, or a leg against its class's direction, is an
// error: the feed never guesses.
func Derive(t Transfer) ([]Record, error) {
	class := t.Kind.Protection()
	var out []Record
	for _, l := range t.Legs {
		r := Record{Type: "", At: t.At.UTC(), Person: Person(l.UserID), DocumentHash: l.DocumentHash, TransferID: t.ID, UserID: l.UserID}
		in := l.Amount > 0
		switch {
		case class == ledger.PaidIn && in:
			r.Type, r.Amount = Deposit, l.Amount
		case class == ledger.PaidOut && !in:
			r.Type, r.Amount = Withdrawal, -l.Amount
		case class == ledger.Staked && !in:
			r.Type, r.Stake = BetAccepted, -l.Amount
			describeBet(&r, t)
		case class == ledger.Returned && in:
			r.Type = BetSettled
			if t.Kind == ledger.Refund {
				r.Refund = l.Amount
			} else {
				r.Payout = l.Amount
			}
			describeBet(&r, t)
		default:
			return nil, errs.R(errs.Internal, ReasonUnfedKind, "transfer %d: a %s leg of %s on a wallet has no record type", t.ID, t.Kind, l.Amount)
		}
		out = append(out, r)
	}
	return out, nil
}

// describeBet fills what the transfer's key and bet say of the bet or pool
// or hand r belongs to.
func describeBet(r *Record, t Transfer) {
	parts := strings.Split(t.Key, ":")
	switch {
	case len(parts) >= 2 && parts[0] == "holdem":
		r.Game = Holdem
		r.HandID, _ = strconv.ParseInt(parts[1], 10, 64)
	case tote.IsLedgerKey(t.Key):
		r.Game = Tote
		if t.Bet.ID != 0 {
			b := t.Bet
			r.BetID, r.TableID, r.DrawID, r.Round, r.Market, r.Selection = b.ID, b.TableID, b.DrawID, b.Round, b.Market, b.Selection
			return
		}
		// A pool's settlement or void names its pool.
		if ref, ok := tote.ParseLedgerKey(t.Key); ok && ref.Kind != tote.LedgerStake {
			r.DrawID, r.Round, r.Market = ref.DrawID, ref.Round, ref.Market
		}
		r.TableID = t.Bet.TableID
	}
}

// Person is the pseudonymous id of account id in the feed.
func Person(userID int64) string { return "p" + strconv.FormatInt(userID, 10) }
