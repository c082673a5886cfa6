-- +goose Up
-- The double-entry ledger (SPEC 3). Money is BIGINT tiyn. A transfer's
-- entries sum to zero; an account's balance is the sum of its entries, cached
-- in ledger_accounts.balance and updated in the same transaction.
CREATE TABLE ledger_accounts (
    id       BIGSERIAL PRIMARY KEY,
    kind     TEXT   NOT NULL CONSTRAINT ledger_accounts_kind_known
             CHECK (kind IN ('WALLET', 'CASH', 'ORGANISER', 'JACKPOT', 'ESCROW', 'HOUSE')),
    -- '' for the singleton kinds; "user:42", "pool:<key>" for the others.
    ref      TEXT   NOT NULL DEFAULT '',
    balance  BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT ledger_accounts_kind_ref UNIQUE (kind, ref),
    -- The last line of defence: the adapter refuses such posts before this fires.
    CONSTRAINT ledger_accounts_balance_sign CHECK (balance >= 0 OR kind IN ('CASH', 'ORGANISER', 'HOUSE'))
);

CREATE TABLE ledger_transfers (
    id               BIGSERIAL PRIMARY KEY,
    idempotency_key  TEXT        NOT NULL CONSTRAINT ledger_transfers_idempotency_key UNIQUE,
    -- ledger.Transfer.RequestHash: tells a replay from a reused key.
    request_hash     BYTEA       NOT NULL CONSTRAINT ledger_transfers_hash_size CHECK (octet_length(request_hash) = 32),
    kind             TEXT        NOT NULL,
    memo             TEXT        NOT NULL DEFAULT '',
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE ledger_entries (
    id             BIGSERIAL PRIMARY KEY,
    transfer_id    BIGINT      NOT NULL REFERENCES ledger_transfers (id),
    account_id     BIGINT      NOT NULL REFERENCES ledger_accounts (id),
    amount         BIGINT      NOT NULL CONSTRAINT ledger_entries_amount_nonzero CHECK (amount <> 0),
    balance_after  BIGINT      NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT ledger_entries_once_per_transfer UNIQUE (transfer_id, account_id)
);
-- History pages walk one account's entries newest first.
CREATE INDEX ledger_entries_account_history ON ledger_entries (account_id, id DESC);

-- Entries and transfers are facts: a mistake is corrected by a new transfer.
-- +goose StatementBegin
CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'rows of % are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER ledger_transfers_immutable BEFORE UPDATE OR DELETE ON ledger_transfers
    FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_immutable();

-- +goose Down
DROP TABLE ledger_entries;
DROP TABLE ledger_transfers;
DROP TABLE ledger_accounts;
DROP FUNCTION ledger_immutable();
