-- +goose Up
-- The regulator's feed (domain/regfeed): records derived from committed
-- ledger transfers, numbered in commit order by one sequencer at a time.
-- SQLite runs one writer at a time, so transfer ids are already in commit
-- order: the cursor's txid stays 0.
CREATE TABLE regulator_feed (
    seq          INTEGER  PRIMARY KEY,
    type         TEXT     NOT NULL,
    at           DATETIME NOT NULL,
    day          TEXT     NOT NULL,
    item         TEXT     NOT NULL,
    game         TEXT     NOT NULL DEFAULT '',
    amount       INTEGER  NOT NULL CONSTRAINT regulator_feed_amount CHECK (amount > 0),
    user_id      INTEGER  NOT NULL,
    transfer_id  INTEGER  NOT NULL,
    data         TEXT     NOT NULL,
    CONSTRAINT regulator_feed_once UNIQUE (transfer_id, user_id)
);
CREATE INDEX regulator_feed_day ON regulator_feed (day, item, game);

CREATE TABLE regulator_feed_cursor (
    id           INTEGER PRIMARY KEY CONSTRAINT regulator_feed_cursor_one_row CHECK (id = 1),
    txid         INTEGER NOT NULL,
    transfer_id  INTEGER NOT NULL
);
INSERT INTO regulator_feed_cursor (id, txid, transfer_id) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE regulator_feed_cursor;
DROP TABLE regulator_feed;
