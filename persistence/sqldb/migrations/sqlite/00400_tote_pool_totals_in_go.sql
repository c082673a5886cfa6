-- +goose Up
-- The pool totals are written by the bet paths themselves (persistence/
-- totedb/tote_pool_totals.go), so the triggers of 00030 go; the totals are
-- summed again from the bets (SQLite runs one writer at a time), so they
-- are exact at the migration.
DROP TRIGGER tote_bets_totals_delete;
DROP TRIGGER tote_bets_totals_insert;
DELETE FROM tote_pool_totals;
INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM tote_bets GROUP BY draw_id, round, market, selection;

-- +goose Down
-- +goose StatementBegin
CREATE TRIGGER tote_bets_totals_insert AFTER INSERT ON tote_bets BEGIN
    INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
    VALUES (NEW.draw_id, NEW.round, NEW.market, NEW.selection, NEW.stake, 1)
    ON CONFLICT (draw_id, round, market, selection)
    DO UPDATE SET stake = stake + excluded.stake, bets = bets + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER tote_bets_totals_delete AFTER DELETE ON tote_bets BEGIN
    UPDATE tote_pool_totals SET stake = stake - OLD.stake, bets = bets - 1
    WHERE draw_id = OLD.draw_id AND round = OLD.round AND market = OLD.market AND selection = OLD.selection;
END;
-- +goose StatementEnd
DELETE FROM tote_pool_totals;
INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM tote_bets GROUP BY draw_id, round, market, selection;
