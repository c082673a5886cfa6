-- +goose Up
-- The regulator's feed (domain/regfeed): records derived from committed
-- ledger transfers, numbered in commit order by one sequencer at a time.
--
-- txid is the transaction that wrote a transfer. Ids are taken in the
-- order transactions ask for them, not the order they commit, so a reader
-- walking ids can pass one still in flight and skip it for good; walking
-- (txid, id) below the oldest transaction still running cannot: every
-- transfer yet to commit has a txid at or above that horizon.
ALTER TABLE ledger_transfers ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX ledger_transfers_commit_order ON ledger_transfers (txid, id);

-- Every change of a player's protection (a limit, a time-out or
-- self-exclusion, an entry of the exclusion register), written by
-- persistence/protectiondb in the change's transaction: the history the
-- feed and the reports read (protection_limits and protection_exclusions
-- keep only the state). user_id is NULL for a register entry, which names
-- a document hash or a name and date of birth, not an account.
CREATE TABLE protection_changes (
    id             BIGSERIAL   PRIMARY KEY,
    txid           xid8        NOT NULL DEFAULT pg_current_xact_id(),
    user_id        BIGINT,
    document_hash  TEXT        NOT NULL DEFAULT '',
    kind           TEXT        NOT NULL CONSTRAINT protection_changes_kind
                   CHECK (kind IN ('LIMIT', 'EXCLUSION', 'REGISTER_ADDED', 'REGISTER_REMOVED')),
    -- The change as JSON (protection.Change).
    detail         TEXT        NOT NULL,
    at             TIMESTAMPTZ NOT NULL
);
CREATE INDEX protection_changes_commit_order ON protection_changes (txid, id);
CREATE INDEX protection_changes_user ON protection_changes (user_id, at);

CREATE TABLE regulator_feed (
    seq          BIGINT      PRIMARY KEY,
    type         TEXT        NOT NULL,
    at           TIMESTAMPTZ NOT NULL,
    -- The gaming day of at in the operator's zone, and the reconciliation
    -- line the record counts in (regfeed.KeyOf).
    day          TEXT        NOT NULL,
    item         TEXT        NOT NULL,
    game         TEXT        NOT NULL DEFAULT '',
    amount       BIGINT      NOT NULL CONSTRAINT regulator_feed_amount CHECK (amount >= 0),
    user_id      BIGINT      NOT NULL,
    transfer_id  BIGINT      NOT NULL,
    -- The record as the regulator receives it (JSON).
    data         TEXT        NOT NULL,
    -- The protection change the record comes from (0 for a transfer's).
    change_id    BIGINT      NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX regulator_feed_transfer_once ON regulator_feed (transfer_id, user_id) WHERE transfer_id > 0;
CREATE UNIQUE INDEX regulator_feed_change_once ON regulator_feed (change_id) WHERE change_id > 0;
CREATE INDEX regulator_feed_day ON regulator_feed (day, item, game);

-- How far the sequencer has read the ledger and the protection changes:
-- the last (txid, id) taken of each.
CREATE TABLE regulator_feed_cursor (
    id           INTEGER PRIMARY KEY CONSTRAINT regulator_feed_cursor_one_row CHECK (id = 1),
    txid         BIGINT  NOT NULL,
    transfer_id  BIGINT  NOT NULL,
    change_txid  BIGINT  NOT NULL DEFAULT 0,
    change_id    BIGINT  NOT NULL DEFAULT 0
);
INSERT INTO regulator_feed_cursor (id, txid, transfer_id) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE regulator_feed_cursor;
DROP TABLE regulator_feed;
DROP TABLE protection_changes;
DROP INDEX ledger_transfers_commit_order;
ALTER TABLE ledger_transfers DROP COLUMN txid;
