-- +goose Up
-- Pool totals kept as bets are written (issue 8): the dealer publishes the
-- open round's pools every 250 ms, and re-summing every bet of the draw
-- each time made that cost grow with the draw. Triggers keep the totals
-- equal to SUM over the bets in the same transaction. They are deferred
-- constraint triggers: they run at COMMIT, so a batch of bets takes the
-- (hot) totals rows' locks only for the commit itself, not from its INSERT
-- on; the batch inserts its bets sorted by selection, so concurrent
-- commits lock the totals rows in one order. A bet deleted in the
-- transaction that inserted it (its stake failed) fires both triggers and
-- counts nothing. A bet's draw, round, market, selection and stake are
-- never updated (settlement changes status and payout only).
CREATE TABLE tote_pool_totals (
    draw_id    BIGINT NOT NULL,
    round      INT    NOT NULL,
    market     TEXT   NOT NULL,
    selection  TEXT   NOT NULL,
    stake      BIGINT NOT NULL,
    bets       INT    NOT NULL,
    PRIMARY KEY (draw_id, round, market, selection)
);
INSERT INTO tote_pool_totals (draw_id, round, market, selection, stake, bets)
SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM tote_bets GROUP BY draw_id, round, market, selection;

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

-- +goose Down
DROP TRIGGER tote_bets_totals_delete ON tote_bets;
DROP TRIGGER tote_bets_totals_insert ON tote_bets;
DROP FUNCTION tote_pool_totals_sub();
DROP FUNCTION tote_pool_totals_add();
DROP TABLE tote_pool_totals;
