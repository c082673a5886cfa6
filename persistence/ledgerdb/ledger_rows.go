package ledgerdb

import (
	"time"

	"github.com/pokertote/pokertote/domain/ledger"
	"github.com/pokertote/pokertote/domain/money"
)

// ledgerAccountRow is a row of ledger_accounts.
type ledgerAccountRow struct {
	ID      int64
	Kind    string
	Ref     string
	Balance int64
}

// TableName names the table of ledgerAccountRow for GORM.
func (ledgerAccountRow) TableName() string { return "ledger_accounts" }

// ledgerTransferRow is a row of ledger_transfers.
type ledgerTransferRow struct {
	ID             int64
	IdempotencyKey string
	RequestHash    []byte
	Kind           string
	Memo           string
	CreatedAt      time.Time
}

// TableName names the table of ledgerTransferRow for GORM.
func (ledgerTransferRow) TableName() string { return "ledger_transfers" }

// postedEntryRow is an entry joined with its account, as a replay reads it.
type postedEntryRow struct {
	ID           int64
	Kind         string
	Ref          string
	Amount       int64
	BalanceAfter int64
}

// historyRow is an entry joined with its transfer, as History reads it.
type historyRow struct {
	ID             int64
	TransferID     int64
	Kind           string
	IdempotencyKey string
	Memo           string
	Amount         int64
	BalanceAfter   int64
	CreatedAt      time.Time
}

func toDomainAccountRef(r ledgerAccountRow) ledger.AccountRef {
	return ledger.AccountRef{Kind: ledger.AccountKind(r.Kind), Ref: r.Ref}
}

func toDomainPosted(tr ledgerTransferRow, entries []postedEntryRow) ledger.Posted {
	p := ledger.Posted{
		ID:             tr.ID,
		IdempotencyKey: tr.IdempotencyKey,
		Kind:           ledger.TransferKind(tr.Kind),
		Memo:           tr.Memo,
		Entries:        make([]ledger.PostedEntry, len(entries)),
		PostedAt:       tr.CreatedAt.UTC(),
	}
	for i, e := range entries {
		p.Entries[i] = ledger.PostedEntry{
			ID:           e.ID,
			Account:      ledger.AccountRef{Kind: ledger.AccountKind(e.Kind), Ref: e.Ref},
			Amount:       money.Amount(e.Amount),
			BalanceAfter: money.Amount(e.BalanceAfter),
		}
	}
	return p
}

func toDomainHistoryItem(r historyRow) ledger.HistoryItem {
	return ledger.HistoryItem{
		EntryID:      r.ID,
		TransferID:   r.TransferID,
		Kind:         ledger.TransferKind(r.Kind),
		Key:          r.IdempotencyKey,
		Memo:         r.Memo,
		Amount:       money.Amount(r.Amount),
		BalanceAfter: money.Amount(r.BalanceAfter),
		PostedAt:     r.CreatedAt.UTC(),
	}
}
