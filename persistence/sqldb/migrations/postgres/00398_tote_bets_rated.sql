-- +goose Up
-- A settled bet's status and payout are computed in Go, not in SQL: the
-- view every reader of bets reads now only joins each bet to its
-- selection's stored rate (tote_selection_results), and the reader pays
-- the bet from it with tote.SelectionRate.Settle, the rule the settlement
-- itself sums by (tote.PayTally). The view tote_bets_settled, which
-- repeated that arithmetic in a CASE, goes.
DROP VIEW tote_bets_settled;

-- The rate is looked up per bet on the primary key (LATERAL ... OFFSET 0,
-- as before: a fresh draw's bets have no statistics, and a nested loop
-- over a pool's rates per bet was an order of magnitude slower).
CREATE VIEW tote_bets_rated AS
SELECT b.id, b.draw_id, b.table_id, b.user_id, b.round, b.market, b.selection, b.stake,
    b.status, b.payout, b.idempotency_key, b.placed_at, b.settled_at,
    r.refund AS rate_refund, r.coef1 AS rate_coef1, r.coef2 AS rate_coef2, r.settled_at AS rate_settled_at
FROM tote_bets b
LEFT JOIN LATERAL (
    SELECT x.refund, x.coef1, x.coef2, x.settled_at FROM tote_selection_results x
    WHERE x.draw_id = b.draw_id AND x.round = b.round AND x.market = b.market AND x.selection = b.selection
    OFFSET 0
) r ON TRUE;

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
LEFT JOIN LATERAL (
    SELECT x.refund, x.coef1, x.coef2, x.settled_at FROM tote_selection_results x
    WHERE x.draw_id = b.draw_id AND x.round = b.round AND x.market = b.market AND x.selection = b.selection
    OFFSET 0
) r ON TRUE;
