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

CREATE TABLE regulator_feed (
    seq          BIGINT      PRIMARY KEY,
    type         TEXT        NOT NULL,
    at           TIMESTAMPTZ NOT NULL,
    -- The gaming day of at in the operator's zone, and the reconciliation
    -- line the record counts in (regfeed.KeyOf).
    day          TEXT        NOT NULL,
    item         TEXT        NOT NULL,
    game         TEXT        NOT NULL DEFAULT '',
    amount       BIGINT      NOT NULL CONSTRAINT regulator_feed_amount CHECK (amount > 0),
    user_id      BIGINT      NOT NULL,
    transfer_id  BIGINT      NOT NULL,
    -- The record as the regulator receives it (JSON).
    data         TEXT        NOT NULL,
    CONSTRAINT regulator_feed_once UNIQUE (transfer_id, user_id)
);
CREATE INDEX regulator_feed_day ON regulator_feed (day, item, game);

-- How far the sequencer has read the ledger: the last (txid, id) taken.
CREATE TABLE regulator_feed_cursor (
    id           INTEGER PRIMARY KEY CONSTRAINT regulator_feed_cursor_one_row CHECK (id = 1),
    txid         BIGINT  NOT NULL,
    transfer_id  BIGINT  NOT NULL
);
INSERT INTO regulator_feed_cursor (id, txid, transfer_id) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE regulator_feed_cursor;
DROP TABLE regulator_feed;
DROP INDEX ledger_transfers_commit_order;
ALTER TABLE ledger_transfers DROP COLUMN txid;
