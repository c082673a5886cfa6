-- +goose Up
-- The pool totals are written by the bet paths themselves (persistence/
-- totedb/tote_pool_totals.go: the batch's plan adds its increments with one
-- upsert, last before the commit), so the triggers of 00030 go. The totals
-- are summed again from the bets, under a lock that keeps bets out
-- meanwhile, so they are exact at the migration.
LOCK TABLE tote_bets IN SHARE MODE;
DROP TRIGGER tote_bets_totals_delete ON tote_bets;
DROP TRIGGER tote_bets_totals_insert ON tote_bets;
DROP FUNCTION tote_pool_totals_sub();
DROP FUNCTION tote_pool_totals_add();
DELETE FROM tote_pool_totals;
INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM tote_bets GROUP BY draw_id, round, market, selection;

-- +goose Down
LOCK TABLE tote_bets IN SHARE MODE;
-- +goose StatementBegin
CREATE FUNCTION tote_pool_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tote_pool_totals AS t (draw_id, round, market, selection, stake, bets)
    VALUES (NEW.draw_id, NEW.round, NEW.market, NEW.selection, NEW.stake, 1)
    ON CONFLICT (draw_id, round, market, selection)
    DO UPDATE SET stake = t.stake + excluded.stake, bets = t.bets + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE FUNCTION tote_pool_totals_sub() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tote_pool_totals SET stake = stake - OLD.stake, bets = bets - 1
    WHERE draw_id = OLD.draw_id AND round = OLD.round AND market = OLD.market AND selection = OLD.selection;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE CONSTRAINT TRIGGER tote_bets_totals_insert AFTER INSERT ON tote_bets
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tote_pool_totals_add();
CREATE CONSTRAINT TRIGGER tote_bets_totals_delete AFTER DELETE ON tote_bets
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tote_pool_totals_sub();
DELETE FROM tote_pool_totals;
INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM tote_bets GROUP BY draw_id, round, market, selection;
