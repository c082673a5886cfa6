-- +goose Up
-- Streamed settlement (issue 8): after the commit each bet's player hears
-- BET_SETTLED, the bets read back by pool in pages of ids; the pool index
-- gains the id so that a page is an index range. (Postgres also keeps
-- half of tote_bets' pages for settlement's in-place updates; SQLite has
-- no such setting.)
DROP INDEX tote_bets_pool;
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market, id);

-- +goose Down
DROP INDEX tote_bets_pool;
CREATE INDEX tote_bets_pool ON tote_bets (draw_id, round, market);
