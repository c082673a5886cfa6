-- +goose Up
-- The double-entry ledger (SPEC 3). Money is INTEGER tiyn. A transfer's
-- entries sum to zero; an account's balance is the sum of its entries, cached
-- in ledger_accounts.balance and updated in the same transaction.
CREATE TABLE ledger_accounts (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    kind     TEXT    NOT NULL CONSTRAINT ledger_accounts_kind_known
             CHECK (kind IN ('WALLET', 'CASH', 'ORGANISER', 'JACKPOT', 'ESCROW', 'HOUSE')),
    ref      TEXT    NOT NULL DEFAULT '',
    balance  BIGINT  NOT NULL DEFAULT 0,
    CONSTRAINT ledger_accounts_kind_ref UNIQUE (kind, ref),
    -- The last line of defence: the adapter refuses such posts before this fires.
    CONSTRAINT ledger_accounts_balance_sign CHECK (balance >= 0 OR kind IN ('CASH', 'ORGANISER', 'HOUSE')),
    -- SQLite turns an overflowing integer sum into a REAL; refuse it.
    CONSTRAINT ledger_accounts_balance_integer CHECK (typeof(balance) = 'integer')
);

CREATE TABLE ledger_transfers (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    idempotency_key  TEXT     NOT NULL CONSTRAINT ledger_transfers_idempotency_key UNIQUE,
    request_hash     BLOB     NOT NULL CONSTRAINT ledger_transfers_hash_size CHECK (typeof(request_hash) = 'blob' AND length(request_hash) = 32),
    kind             TEXT     NOT NULL,
    memo             TEXT     NOT NULL DEFAULT '',
    created_at       DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE ledger_entries (
    id             INTEGER  PRIMARY KEY AUTOINCREMENT,
    transfer_id    INTEGER  NOT NULL REFERENCES ledger_transfers (id),
    account_id     INTEGER  NOT NULL REFERENCES ledger_accounts (id),
    amount         BIGINT   NOT NULL CONSTRAINT ledger_entries_amount_nonzero CHECK (amount <> 0 AND typeof(amount) = 'integer'),
    balance_after  BIGINT   NOT NULL CONSTRAINT ledger_entries_balance_integer CHECK (typeof(balance_after) = 'integer'),
    created_at     DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT ledger_entries_once_per_transfer UNIQUE (transfer_id, account_id)
);
CREATE INDEX ledger_entries_account_history ON ledger_entries (account_id, id DESC);

-- Entries and transfers are facts: a mistake is corrected by a new transfer.
-- +goose StatementBegin
CREATE TRIGGER ledger_transfers_no_update BEFORE UPDATE ON ledger_transfers
BEGIN
    SELECT RAISE(ABORT, 'rows of ledger_transfers are immutable');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER ledger_transfers_no_delete BEFORE DELETE ON ledger_transfers
BEGIN
    SELECT RAISE(ABORT, 'rows of ledger_transfers are immutable');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'rows of ledger_entries are immutable');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'rows of ledger_entries are immutable');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE ledger_entries;
DROP TABLE ledger_transfers;
DROP TABLE ledger_accounts;
