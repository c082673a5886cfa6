-- +goose Up
-- Settlement without a write per bet (issue 8): see the Postgres
-- migration of the same number.
CREATE TABLE tote_selection_results (
    draw_id     BIGINT   NOT NULL REFERENCES tote_draws (id),
    round       INT      NOT NULL,
    market      TEXT     NOT NULL,
    selection   TEXT     NOT NULL,
    refund      INT      NOT NULL CONSTRAINT tote_selection_results_refund CHECK (refund IN (0, 1)),
    coef1       BIGINT   NOT NULL CONSTRAINT tote_selection_results_coef1 CHECK (coef1 >= 0),
    coef2       BIGINT   NOT NULL CONSTRAINT tote_selection_results_coef2 CHECK (coef2 >= 0),
    settled_at  DATETIME NOT NULL,
    PRIMARY KEY (draw_id, round, market, selection)
);

-- +goose StatementBegin
CREATE TRIGGER tote_selection_results_no_update BEFORE UPDATE ON tote_selection_results
BEGIN
    SELECT RAISE(ABORT, 'the settlement of a selection is paid and cannot change');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tote_selection_results_no_delete BEFORE DELETE ON tote_selection_results
BEGIN
    SELECT RAISE(ABORT, 'the settlement of a selection is paid and cannot change');
END;
-- +goose StatementEnd

-- The time columns are plain column references, so that the driver still
-- knows them for times (it goes by the declared type). SQLite looks the
-- rate up per bet on the primary key.
CREATE VIEW tote_bets_settled AS
SELECT b.id, b.draw_id, b.table_id, b.user_id, b.round, b.market, b.selection, b.stake,
    CASE WHEN b.status <> 'ACCEPTED' OR r.refund IS NULL THEN b.status
        WHEN r.refund = 1 THEN 'REFUNDED'
        WHEN b.stake * r.coef1 / 100 + b.stake * r.coef2 / 100 > 0 THEN 'WON'
        ELSE 'LOST' END AS status,
    CASE WHEN b.status <> 'ACCEPTED' OR r.refund IS NULL THEN b.payout
        WHEN r.refund = 1 THEN b.stake
        ELSE b.stake * r.coef1 / 100 + b.stake * r.coef2 / 100 END AS payout,
    b.idempotency_key, b.placed_at, b.settled_at, r.settled_at AS rate_settled_at
FROM tote_bets b
LEFT JOIN tote_selection_results r
    ON r.draw_id = b.draw_id AND r.round = b.round AND r.market = b.market AND r.selection = b.selection;

-- +goose Down
-- Going down writes the derived settlement into every bet it covers, so
-- that no settled bet reads as ACCEPTED once the rates are gone.
UPDATE tote_bets SET
    status = CASE WHEN r.refund = 1 THEN 'REFUNDED'
        WHEN tote_bets.stake * r.coef1 / 100 + tote_bets.stake * r.coef2 / 100 > 0 THEN 'WON'
        ELSE 'LOST' END,
    payout = CASE WHEN r.refund = 1 THEN tote_bets.stake
        ELSE tote_bets.stake * r.coef1 / 100 + tote_bets.stake * r.coef2 / 100 END,
    settled_at = r.settled_at
FROM tote_selection_results AS r
WHERE r.draw_id = tote_bets.draw_id AND r.round = tote_bets.round AND r.market = tote_bets.market
    AND r.selection = tote_bets.selection AND tote_bets.status = 'ACCEPTED';
DROP VIEW tote_bets_settled;
DROP TRIGGER tote_selection_results_no_delete;
DROP TRIGGER tote_selection_results_no_update;
DROP TABLE tote_selection_results;
