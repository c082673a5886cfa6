package model

import "time"

// LedgerEntry is one entry of a wallet's history. It is written here rather
// than generated so that it carries the transfer's key, from which Draw is
// resolved (a bet's draw costs a read, asked for only when selected).
type LedgerEntry struct {
	ID string `json:"id"`
	// The global id (Node): pass it to node(id:).
	NodeID     string          `json:"nodeId"`
	TransferID string          `json:"transferId"`
	Kind       LedgerEntryKind `json:"kind"`
	// Positive: money in; negative: money out.
	Amount       Money         `json:"amount"`
	BalanceAfter Money         `json:"balanceAfter"`
	Memo         string        `json:"memo"`
	CreatedAt    time.Time     `json:"createdAt"`
	BetID        *string       `json:"betId,omitempty"`
	Round        *BettingRound `json:"round,omitempty"`
	Market       *Market       `json:"market,omitempty"`
	HoldemHandID *string       `json:"holdemHandId,omitempty"`
	// DrawID is the draw of a settlement or refund, known from the key; a
	// bet's draw is read from the bet.
	DrawID string `json:"-"`
}

// IsNode marks LedgerEntry as a Node.
func (LedgerEntry) IsNode() {}
