-- +goose Up
-- A settled bet's status and payout are computed in Go, not in SQL: see
-- the Postgres migration of the same number. The time columns are plain
-- column references, so that the driver still knows them for times.
DROP VIEW tote_bets_settled;

CREATE VIEW tote_bets_rated AS
SELECT b.id, b.draw_id, b.table_id, b.user_id, b.round, b.market, b.selection, b.stake,
    b.status, b.payout, b.idempotency_key, b.placed_at, b.settled_at,
    r.refund AS rate_refund, r.coef1 AS rate_coef1, r.coef2 AS rate_coef2, r.settled_at AS rate_settled_at
FROM tote_bets b
LEFT JOIN tote_selection_results r
    ON r.draw_id = b.draw_id AND r.round = b.round AND r.market = b.market AND r.selection = b.selection;

-- +goose Down
DROP VIEW tote_bets_rated;
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
