-- +goose Up
-- Streamed settlement (issue 8). Settlement pays a pool's bets with one
-- UPDATE of status, payout and settled_at, none of them indexed: with free
-- room on the page Postgres updates such a row in place (a HOT update,
-- no index entry written), which made paying 100,000 bets several times
-- cheaper than with the packed pages of fillfactor 100. The room only
-- applies to pages filled from now on.
ALTER TABLE tote_bets SET (fillfactor = 80);
-- After the commit each bet's player hears BET_SETTLED, the bets read back
-- by pool in pages of ids: the pool index gains the id so that a page is
-- an index range instead of a sort of the whole pool.
DROP INDEX tote_bets_pool;
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market, id);

-- +goose Down
DROP INDEX tote_bets_pool;
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market);
ALTER TABLE tote_bets RESET (fillfactor);
