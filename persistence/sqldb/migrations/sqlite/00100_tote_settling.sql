-- +goose NO TRANSACTION
-- +goose Up
-- The dealer's step after the river is a phase of its own (issue 14):
-- SETTLING, the board complete and the settlement due, was DEALING_RIVER
-- with five board cards (the API still shows DEALING_RIVER). SQLite cannot
-- change a CHECK in place, so tote_draws is rebuilt (sqlite.org/lang_altertable.html,
-- "other kinds of table schema changes") with its indexes and trigger;
-- persistence opens SQLite with one connection, so the PRAGMAs and the
-- transaction hold for every statement. A draw stored at the river moves
-- to SETTLING (five cards: '4d 9d Qs 6h 2c' is 14 characters).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE tote_draws_rebuilt (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id           BIGINT      NOT NULL REFERENCES tote_tables (id),
    number             BIGINT      NOT NULL,
    positions          INT         NOT NULL,
    phase              TEXT        NOT NULL CONSTRAINT tote_draws_phase CHECK (phase IN ('PRE_DEAL', 'DEALING_POCKET', 'POCKET',
                           'DEALING_FLOP', 'FLOP', 'DEALING_TURN', 'TURN', 'DEALING_RIVER', 'SETTLING', 'SETTLED', 'VOID')),
    round_closes_at    DATETIME,
    next_step_at       DATETIME,
    version            BIGINT      NOT NULL,
    -- Copied from the table when the draw opens (rule 9).
    min_stake          BIGINT      NOT NULL,
    commission_bp      BIGINT      NOT NULL,
    jackpot_enabled    BOOLEAN     NOT NULL,
    jackpot_rate_bp    BIGINT      NOT NULL,
    express_share1_bp  BIGINT      NOT NULL,
    express_share2_bp  BIGINT      NOT NULL,
    -- The secret seed, hex; the API shows it only once revealed.
    server_seed        TEXT        NOT NULL,
    commitment         TEXT        NOT NULL,
    public_seed        TEXT,
    revealed           BOOLEAN     NOT NULL DEFAULT 0,
    -- Cards dealt so far, e.g. '4d 9d Qs 6h' (pockets in position order).
    pockets            TEXT        NOT NULL DEFAULT '',
    board              TEXT        NOT NULL DEFAULT '',
    burns              TEXT        NOT NULL DEFAULT '',
    odds               TEXT,
    -- The published result: written once, never changed (see the trigger).
    result             TEXT,
    void_reason        TEXT        NOT NULL DEFAULT '',
    opened_at          DATETIME NOT NULL,
    settled_at         DATETIME,
    beacons            TEXT,
    CONSTRAINT tote_draws_number UNIQUE (table_id, number)
);
INSERT INTO tote_draws_rebuilt (id, table_id, number, positions, phase, round_closes_at, next_step_at, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp, express_share1_bp, express_share2_bp, server_seed, commitment, public_seed, revealed, pockets, board, burns, odds, result, void_reason, opened_at, settled_at, beacons)
    SELECT id, table_id, number, positions, phase, round_closes_at, next_step_at, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp, express_share1_bp, express_share2_bp, server_seed, commitment, public_seed, revealed, pockets, board, burns, odds, result, void_reason, opened_at, settled_at, beacons FROM tote_draws;
DROP TABLE tote_draws;
ALTER TABLE tote_draws_rebuilt RENAME TO tote_draws;
CREATE INDEX tote_draws_finished ON tote_draws (table_id, id DESC) WHERE phase IN ('SETTLED', 'VOID');
CREATE INDEX tote_draws_finished_all ON tote_draws (id DESC) WHERE phase IN ('SETTLED', 'VOID');

-- +goose StatementBegin
CREATE TRIGGER tote_draws_result_immutable BEFORE UPDATE OF result ON tote_draws
WHEN OLD.result IS NOT NULL AND NEW.result IS NOT OLD.result
BEGIN
    SELECT RAISE(ABORT, 'the result of a draw is published and cannot change');
END;
-- +goose StatementEnd
UPDATE tote_draws SET phase = 'SETTLING' WHERE phase = 'DEALING_RIVER' AND length(board) = 14;
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
BEGIN;
UPDATE tote_draws SET phase = 'DEALING_RIVER' WHERE phase = 'SETTLING';
CREATE TABLE tote_draws_rebuilt (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id           BIGINT      NOT NULL REFERENCES tote_tables (id),
    number             BIGINT      NOT NULL,
    positions          INT         NOT NULL,
    phase              TEXT        NOT NULL CONSTRAINT tote_draws_phase CHECK (phase IN ('PRE_DEAL', 'DEALING_POCKET', 'POCKET',
                           'DEALING_FLOP', 'FLOP', 'DEALING_TURN', 'TURN', 'DEALING_RIVER', 'SETTLED', 'VOID')),
    round_closes_at    DATETIME,
    next_step_at       DATETIME,
    version            BIGINT      NOT NULL,
    -- Copied from the table when the draw opens (rule 9).
    min_stake          BIGINT      NOT NULL,
    commission_bp      BIGINT      NOT NULL,
    jackpot_enabled    BOOLEAN     NOT NULL,
    jackpot_rate_bp    BIGINT      NOT NULL,
    express_share1_bp  BIGINT      NOT NULL,
    express_share2_bp  BIGINT      NOT NULL,
    -- The secret seed, hex; the API shows it only once revealed.
    server_seed        TEXT        NOT NULL,
    commitment         TEXT        NOT NULL,
    public_seed        TEXT,
    revealed           BOOLEAN     NOT NULL DEFAULT 0,
    -- Cards dealt so far, e.g. '4d 9d Qs 6h' (pockets in position order).
    pockets            TEXT        NOT NULL DEFAULT '',
    board              TEXT        NOT NULL DEFAULT '',
    burns              TEXT        NOT NULL DEFAULT '',
    odds               TEXT,
    -- The published result: written once, never changed (see the trigger).
    result             TEXT,
    void_reason        TEXT        NOT NULL DEFAULT '',
    opened_at          DATETIME NOT NULL,
    settled_at         DATETIME,
    beacons            TEXT,
    CONSTRAINT tote_draws_number UNIQUE (table_id, number)
);
INSERT INTO tote_draws_rebuilt (id, table_id, number, positions, phase, round_closes_at, next_step_at, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp, express_share1_bp, express_share2_bp, server_seed, commitment, public_seed, revealed, pockets, board, burns, odds, result, void_reason, opened_at, settled_at, beacons)
    SELECT id, table_id, number, positions, phase, round_closes_at, next_step_at, version, min_stake, commission_bp, jackpot_enabled, jackpot_rate_bp, express_share1_bp, express_share2_bp, server_seed, commitment, public_seed, revealed, pockets, board, burns, odds, result, void_reason, opened_at, settled_at, beacons FROM tote_draws;
DROP TABLE tote_draws;
ALTER TABLE tote_draws_rebuilt RENAME TO tote_draws;
CREATE INDEX tote_draws_finished ON tote_draws (table_id, id DESC) WHERE phase IN ('SETTLED', 'VOID');
CREATE INDEX tote_draws_finished_all ON tote_draws (id DESC) WHERE phase IN ('SETTLED', 'VOID');

-- +goose StatementBegin
CREATE TRIGGER tote_draws_result_immutable BEFORE UPDATE OF result ON tote_draws
WHEN OLD.result IS NOT NULL AND NEW.result IS NOT OLD.result
BEGIN
    SELECT RAISE(ABORT, 'the result of a draw is published and cannot change');
END;
-- +goose StatementEnd
COMMIT;
PRAGMA foreign_keys = ON;
