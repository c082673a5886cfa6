-- +goose Up
-- The public jackpot chain (SPEC 1.5, docs/fairness.md section 14): every
-- change of the jackpot, in order, seq 1, 2, ... without a gap, written in
-- the transaction that posts the money. Each row's hash is the SHA-256 of
-- its fields and prev_hash (domain/tote/jackpot_chain.go), so rewriting a
-- row breaks every later hash. A betting record: archived five years,
-- never deleted.
CREATE TABLE tote_jackpot_chain (
    seq       BIGINT PRIMARY KEY CONSTRAINT tote_jackpot_chain_seq CHECK (seq > 0),
    kind      TEXT NOT NULL CONSTRAINT tote_jackpot_chain_kind
              CHECK (kind IN ('OPENING', 'CONTRIBUTION', 'ROLLOVER', 'WIN', 'TOP_UP')),
    draw_id   BIGINT REFERENCES tote_draws (id),
    pool_id   TEXT NOT NULL DEFAULT '',
    amount    BIGINT NOT NULL CONSTRAINT tote_jackpot_chain_amount CHECK (amount >= 0),
    balance_before BIGINT NOT NULL CONSTRAINT tote_jackpot_chain_before CHECK (balance_before >= 0),
    balance_after  BIGINT NOT NULL CONSTRAINT tote_jackpot_chain_after CHECK (balance_after >= 0),
    at        TIMESTAMPTZ NOT NULL,
    prev_hash TEXT NOT NULL,
    hash      TEXT NOT NULL UNIQUE
);
CREATE INDEX tote_jackpot_chain_draw ON tote_jackpot_chain (draw_id) WHERE draw_id IS NOT NULL;

-- +goose Down
DROP TABLE tote_jackpot_chain;
