-- +goose Up
-- Streamed settlement (issue 8). Settlement pays a pool's bets with one
-- UPDATE of status, payout and settled_at, none of them indexed: when the
-- new row version fits on its page Postgres writes no index entry (a HOT
-- update); on a full page it writes one in each of tote_bets' four
-- indexes. Every bet is updated exactly once, so half of each page is kept
-- for that update. Measured on a copy of tote_bets with 100,000 rows (2
-- cores, load average 20): the settlement UPDATE took 12.2 s at fillfactor
-- 100 (0 % HOT), 6.6 s at 80 (29 % HOT) and 1.7 s at 50 (100 % HOT), and
-- the table ends the same size (28 MB) in all three: the space is the
-- update's either way. The setting applies to pages filled from now on.
ALTER TABLE tote_bets SET (fillfactor = 50);
-- After the commit each bet's player hears BET_SETTLED, the bets read back
-- by pool in pages of ids: the pool index gains the id so that a page is
-- an index range instead of a sort of the whole pool.
DROP INDEX tote_bets_pool;
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market, id);

-- +goose Down
DROP INDEX tote_bets_pool;
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market);
ALTER TABLE tote_bets RESET (fillfactor);
