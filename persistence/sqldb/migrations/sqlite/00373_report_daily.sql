-- +goose Up
-- The reports' daily roll-up (domain/report): one row per gaming day, game
-- and table, added to by the regulator feed's sequencer in the transaction
-- that appends the feed's records for the same transfers, so every
-- committed transfer is counted once. Amounts in tiyn.
CREATE TABLE report_daily (
    day             TEXT    NOT NULL,
    game            TEXT    NOT NULL CONSTRAINT report_daily_game CHECK (game IN ('TOTE', 'HOLDEM', 'CASHIER')),
    table_id        INTEGER  NOT NULL,
    bets            INTEGER  NOT NULL DEFAULT 0,
    handle          INTEGER  NOT NULL DEFAULT 0,
    payouts         INTEGER  NOT NULL DEFAULT 0,
    refunds         INTEGER  NOT NULL DEFAULT 0,
    commission      INTEGER  NOT NULL DEFAULT 0,
    breakage        INTEGER  NOT NULL DEFAULT 0,
    top_ups         INTEGER  NOT NULL DEFAULT 0,
    jackpot_in      INTEGER  NOT NULL DEFAULT 0,
    jackpot_out     INTEGER  NOT NULL DEFAULT 0,
    jackpot_top_ups INTEGER  NOT NULL DEFAULT 0,
    ante            INTEGER  NOT NULL DEFAULT 0,
    bonus           INTEGER  NOT NULL DEFAULT 0,
    bet             INTEGER  NOT NULL DEFAULT 0,
    deposits        INTEGER  NOT NULL DEFAULT 0,
    withdrawals     INTEGER  NOT NULL DEFAULT 0,
    PRIMARY KEY (day, game, table_id)
);

-- An export of the regulator feed pages a range of days by seq.
CREATE INDEX regulator_feed_day_seq ON regulator_feed (day, seq);
-- A player's session report reads the player's records of a range.
CREATE INDEX regulator_feed_user_day ON regulator_feed (user_id, day, seq);

-- +goose Down
DROP INDEX regulator_feed_user_day;
DROP INDEX regulator_feed_day_seq;
DROP TABLE report_daily;
