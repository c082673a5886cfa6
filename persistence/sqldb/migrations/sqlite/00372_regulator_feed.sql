-- +goose Up
-- The regulator's feed (domain/regfeed): records derived from committed
-- ledger transfers, numbered in commit order by one sequencer at a time.
-- SQLite runs one writer at a time, so transfer ids are already in commit
-- order: the transaction ids Postgres keeps (txid) have no column here.
-- Every change of a player's protection, written by persistence/protectiondb
-- in the change's transaction (see the Postgres migration).
CREATE TABLE protection_changes (
    id             INTEGER  PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER,
    document_hash  TEXT     NOT NULL DEFAULT '',
    kind           TEXT     NOT NULL CONSTRAINT protection_changes_kind
                   CHECK (kind IN ('LIMIT', 'EXCLUSION', 'REGISTER_ADDED', 'REGISTER_REMOVED')),
    detail         TEXT     NOT NULL,
    at             DATETIME NOT NULL
);
CREATE INDEX protection_changes_user ON protection_changes (user_id, at);

CREATE TABLE regulator_feed (
    seq          INTEGER  PRIMARY KEY,
    type         TEXT     NOT NULL,
    at           DATETIME NOT NULL,
    day          TEXT     NOT NULL,
    item         TEXT     NOT NULL,
    game         TEXT     NOT NULL DEFAULT '',
    amount       INTEGER  NOT NULL CONSTRAINT regulator_feed_amount CHECK (amount >= 0),
    user_id      INTEGER  NOT NULL,
    transfer_id  INTEGER  NOT NULL,
    data         TEXT     NOT NULL,
    change_id    INTEGER  NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX regulator_feed_transfer_once ON regulator_feed (transfer_id, user_id) WHERE transfer_id > 0;
CREATE UNIQUE INDEX regulator_feed_change_once ON regulator_feed (change_id) WHERE change_id > 0;
CREATE INDEX regulator_feed_day ON regulator_feed (day, item, game);

CREATE TABLE regulator_feed_cursor (
    id           INTEGER PRIMARY KEY CONSTRAINT regulator_feed_cursor_one_row CHECK (id = 1),
    txid         INTEGER NOT NULL,
    transfer_id  INTEGER NOT NULL,
    change_txid  INTEGER NOT NULL DEFAULT 0,
    change_id    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO regulator_feed_cursor (id, txid, transfer_id) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE regulator_feed_cursor;
DROP TABLE regulator_feed;
DROP TABLE protection_changes;
