-- +goose Up
-- The totalizator (SPEC 1), SQLite twin of the Postgres schema: tables, draws, bets, the per-table event outbox
-- and the dealer leases. Money is BIGINT tiyn; rates are basis points.
CREATE TABLE tote_tables (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    name               TEXT        NOT NULL CONSTRAINT tote_tables_name_key UNIQUE,
    positions          INT         NOT NULL CONSTRAINT tote_tables_positions CHECK (positions BETWEEN 2 AND 10),
    status             TEXT        NOT NULL CONSTRAINT tote_tables_status CHECK (status IN ('RUNNING', 'PAUSED')),
    -- Rule 15: never below 100.00 KZT. Rule 16: never below 3%.
    min_stake          BIGINT      NOT NULL CONSTRAINT tote_tables_min_stake CHECK (min_stake >= 10000),
    max_stake          BIGINT      NOT NULL,
    commission_bp      BIGINT      NOT NULL CONSTRAINT tote_tables_commission CHECK (commission_bp >= 300),
    round1_ms          BIGINT      NOT NULL,
    round2_ms          BIGINT      NOT NULL,
    round3_ms          BIGINT      NOT NULL,
    round4_ms          BIGINT      NOT NULL,
    card_interval_ms   BIGINT      NOT NULL,
    result_ms          BIGINT      NOT NULL,
    express_share1_bp  BIGINT      NOT NULL,
    express_share2_bp  BIGINT      NOT NULL,
    -- The sequence number of the table's latest outbox event. Appending an
    -- event updates it, which orders appends per table.
    last_seq           BIGINT      NOT NULL DEFAULT 0,
    created_at         DATETIME NOT NULL,
    updated_at         DATETIME NOT NULL,
    CONSTRAINT tote_tables_stakes CHECK (max_stake >= min_stake),
    CONSTRAINT tote_tables_shares CHECK (express_share1_bp + express_share2_bp = 10000)
);

CREATE TABLE tote_draws (
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
    CONSTRAINT tote_draws_number UNIQUE (table_id, number)
);
CREATE INDEX tote_draws_finished ON tote_draws (table_id, id DESC) WHERE phase IN ('SETTLED', 'VOID');
CREATE INDEX tote_draws_finished_all ON tote_draws (id DESC) WHERE phase IN ('SETTLED', 'VOID');

-- +goose StatementBegin
CREATE TRIGGER tote_draws_result_immutable BEFORE UPDATE OF result ON tote_draws
WHEN OLD.result IS NOT NULL AND NEW.result IS NOT OLD.result
BEGIN
    SELECT RAISE(ABORT, 'the result of a draw is published and cannot change');
END;
-- +goose StatementEnd

CREATE TABLE tote_bets (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    draw_id          BIGINT      NOT NULL REFERENCES tote_draws (id),
    table_id         BIGINT      NOT NULL,
    user_id          BIGINT      NOT NULL,
    round            INT         NOT NULL CONSTRAINT tote_bets_round CHECK (round BETWEEN 1 AND 4),
    market           TEXT        NOT NULL CONSTRAINT tote_bets_market CHECK (market IN ('WIN', 'COMBINATION', 'EXPRESS')),
    selection        TEXT        NOT NULL,
    stake            BIGINT      NOT NULL CONSTRAINT tote_bets_stake CHECK (stake > 0),
    status           TEXT        NOT NULL CONSTRAINT tote_bets_status CHECK (status IN ('ACCEPTED', 'WON', 'LOST', 'REFUNDED')),
    payout           BIGINT      NOT NULL DEFAULT 0,
    idempotency_key  TEXT        NOT NULL,
    placed_at        DATETIME NOT NULL,
    settled_at       DATETIME,
    CONSTRAINT tote_bets_key UNIQUE (user_id, idempotency_key)
);
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market);
CREATE INDEX tote_bets_user ON tote_bets (user_id, id DESC);

-- The outbox: every table event, numbered 1, 2, ... per table.
CREATE TABLE tote_events (
    table_id    BIGINT      NOT NULL REFERENCES tote_tables (id),
    seq         BIGINT      NOT NULL,
    type        TEXT        NOT NULL,
    draw_id     BIGINT,
    payload     TEXT        NOT NULL,
    created_at  DATETIME NOT NULL,
    PRIMARY KEY (table_id, seq)
);

-- One dealer per table: the lease's fence grows each time it changes hands.
CREATE TABLE tote_leases (
    table_id    BIGINT      PRIMARY KEY,
    owner       TEXT        NOT NULL,
    fence       BIGINT      NOT NULL,
    expires_at  DATETIME NOT NULL
);

-- +goose Down
DROP TABLE tote_leases;
DROP TABLE tote_events;
DROP TABLE tote_bets;
DROP TABLE tote_draws;
DROP TABLE tote_tables;
