-- +goose Up
-- Pool totals kept as bets are written (issue 8): the dealer publishes the
-- open round's pools every 250 ms, and re-summing every bet of the draw
-- each time made that cost grow with the draw. Statement-level triggers with
-- transition tables fold each multi-row INSERT (or DELETE) of tote_bets into
-- one upsert per selection, in the same transaction, so the totals always
-- equal SUM over the bets. A bet's draw, round, market, selection and
-- stake are never updated (settlement changes status and payout only).
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
    -- Sorted, so that concurrent batches lock the totals rows in one order.
    INSERT INTO tote_pool_totals AS t (draw_id, round, market, selection, stake, bets)
    SELECT draw_id, round, market, selection, SUM(stake), COUNT(*) FROM new_bets
    GROUP BY draw_id, round, market, selection ORDER BY draw_id, round, market, selection
    ON CONFLICT (draw_id, round, market, selection)
    DO UPDATE SET stake = t.stake + excluded.stake, bets = t.bets + excluded.bets;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE FUNCTION tote_pool_totals_sub() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE tote_pool_totals AS t SET stake = t.stake - o.stake, bets = t.bets - o.bets
    FROM (SELECT draw_id, round, market, selection, SUM(stake) AS stake, COUNT(*) AS bets FROM old_bets
          GROUP BY draw_id, round, market, selection) AS o
    WHERE t.draw_id = o.draw_id AND t.round = o.round AND t.market = o.market AND t.selection = o.selection;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER tote_bets_totals_insert AFTER INSERT ON tote_bets
    REFERENCING NEW TABLE AS new_bets FOR EACH STATEMENT EXECUTE FUNCTION tote_pool_totals_add();
CREATE TRIGGER tote_bets_totals_delete AFTER DELETE ON tote_bets
    REFERENCING OLD TABLE AS old_bets FOR EACH STATEMENT EXECUTE FUNCTION tote_pool_totals_sub();

-- +goose Down
DROP TRIGGER tote_bets_totals_delete ON tote_bets;
DROP TRIGGER tote_bets_totals_insert ON tote_bets;
DROP FUNCTION tote_pool_totals_sub();
DROP FUNCTION tote_pool_totals_add();
DROP TABLE tote_pool_totals;
