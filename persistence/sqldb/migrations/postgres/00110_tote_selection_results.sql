-- +goose Up
-- Settlement without a write per bet (issue 8). A streamed settlement pays
-- every bet of a selection at one rate (domain/tote/settle_stream.go): its
-- stake back, or floor(stake × coef1) + floor(stake × coef2). It now stores
-- that rate once per selection here, in its transaction, and a bet's status
-- and payout are derived from it when the bet is read (tote_bets_settled);
-- a bet row changes only when it was settled one by one (draws of the
-- version-1 algorithm) or lost on a selection the settlement gave no rate.
-- A stored rate never changes: the payouts derived from it are money paid.
CREATE TABLE tote_selection_results (
    draw_id     BIGINT      NOT NULL REFERENCES tote_draws (id),
    round       INT         NOT NULL,
    market      TEXT        NOT NULL,
    selection   TEXT        NOT NULL,
    refund      INT         NOT NULL CONSTRAINT tote_selection_results_refund CHECK (refund IN (0, 1)),
    coef1       BIGINT      NOT NULL CONSTRAINT tote_selection_results_coef1 CHECK (coef1 >= 0),
    coef2       BIGINT      NOT NULL CONSTRAINT tote_selection_results_coef2 CHECK (coef2 >= 0),
    settled_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (draw_id, round, market, selection)
);

-- +goose StatementBegin
CREATE FUNCTION tote_selection_results_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the settlement of a selection is paid and cannot change' USING ERRCODE = 'restrict_violation';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER tote_selection_results_immutable BEFORE UPDATE OR DELETE ON tote_selection_results
    FOR EACH ROW EXECUTE FUNCTION tote_selection_results_immutable();

-- Every reader of bets reads this view: a bet still ACCEPTED whose
-- selection has a stored rate reads as settled at it (the same integer
-- arithmetic as money.Coef.Pay: the product truncated by 100). The rate is
-- looked up per bet on the primary key (LATERAL ... OFFSET 0 keeps the
-- planner from turning it into a join it may plan badly: a fresh draw's
-- bets have no statistics yet, and a nested loop over a pool's rates per
-- bet took 0.85 s for 33,000 bets).
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
LEFT JOIN LATERAL (
    SELECT x.refund, x.coef1, x.coef2, x.settled_at FROM tote_selection_results x
    WHERE x.draw_id = b.draw_id AND x.round = b.round AND x.market = b.market AND x.selection = b.selection
    OFFSET 0
) r ON TRUE;

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
DROP TRIGGER tote_selection_results_immutable ON tote_selection_results;
DROP FUNCTION tote_selection_results_immutable();
DROP TABLE tote_selection_results;
